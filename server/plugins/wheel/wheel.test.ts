import { buildTestApp } from '../../test/support/helper';
import { nowIso } from '../../db';
import { cryptoRandomInt } from './draw';
import { buildInviteWheelTestApp, satang, type InviteWheelTestApp, type TestPlayer, type TestSlice } from '../../test/support/wheel';

/**
 * The prize wheel through app.inject on a real database (docs/invite-wheel.md): whether it shows, its setup,
 * spins (one coin each, the slice drawn by the server), coupons (listed, claimed once, expired, refused), and
 * the audit after every test. The draw's source is switched per test to land on a known slice.
 */
jest.setTimeout(60_000);

let t: InviteWheelTestApp;
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.audit()).toEqual([]);
  t.setNow(null);
});

const SLICES: TestSlice[] = [
  { code: 'CASH10', weight: 3, type: 'cash', amount: 10.5 },
  { code: 'COIN2', weight: 2, type: 'coin', amount: 2 },
  { code: 'NOTHING', weight: 5, type: 'none' },
  { code: 'HIDDEN', weight: 9, type: 'cash', amount: 1000, active: false },
];
/** The draw lands on the active slice `code` (the weights' runs in wheel order: CASH10 0-2, COIN2 3-4, NOTHING 5-9). */
const landOn = (code: 'CASH10' | 'COIN2' | 'NOTHING') => t.setRandom(() => ({ CASH10: 2, COIN2: 3, NOTHING: 9 })[code]);

const coupons = (p: TestPlayer, q = '') => t.get(p, `/api/spinwheel/coupon${q}`);
const active = async (p: TestPlayer) => (await t.get(p, '/api/spinwheel/active')).json();

describe('whether the wheel shows', () => {
  test('GET /api/spinwheel/active: false without a wheel, with a stored document that fails the checks, or switched off', async () => {
    const p = await t.player();
    await t.db.db.deleteFrom('settings').where('key', '=', 'spinwheel').execute();
    expect(await active(p)).toEqual({ isActive: false });
    // The stand-in the wallet used to read ({isActive} alone) is not a wheel.
    await t.db.db.insertInto('settings').values({ key: 'spinwheel', value: JSON.stringify({ isActive: true }), updated_at: nowIso() }).execute();
    expect(await active(p)).toEqual({ isActive: false });
    await t.wheel(SLICES, { isActive: false });
    expect(await active(p)).toEqual({ isActive: false });
    await t.wheel(SLICES);
    expect(await active(p)).toEqual({ isActive: true });
  });

  test('setup: the active slices in wheel order with colours and descriptions, and the coins; null when off', async () => {
    const p = await t.player({ coins: 3 });
    await t.wheel(SLICES);
    const res = await t.get(p, '/api/spinwheel/setup');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: {
        activeSpinwheel: {
          name: { th: 'Wheel th', la: 'Wheel la', en: 'Wheel en' },
          slices: ['CASH10', 'COIN2', 'NOTHING'].map((code) => ({
            code,
            label: `${code} label`,
            labels: { th: `${code} label`, la: `${code} label`, en: `${code} label` },
            bgColor: '#112233',
            textColor: '#ffffff',
            prize: { htmlDescription: { th: `<p>${code}</p> th`, la: `<p>${code}</p> la`, en: `<p>${code}</p> en` } },
          })),
        },
        userCoin: 3,
      },
    });
    await t.wheel(SLICES, { isActive: false });
    expect((await t.get(p, '/api/spinwheel/setup')).json()).toEqual({ result: { activeSpinwheel: null, userCoin: 3 } });
    await t.wheel(SLICES);
  });
});

describe('spin', () => {
  beforeAll(() => t.wheel(SLICES));

  test('takes one coin and answers the drawn slice; its prize becomes a coupon valid 7 days', async () => {
    const p = await t.player({ coins: 2 });
    const at = new Date('2026-12-01T05:00:00.000Z');
    t.setNow(at);
    landOn('CASH10');
    const res = await t.spin(p);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ success: true, error: null, result: { code: 'CASH10', label: 'CASH10 label', labels: expect.any(Object), remainingCoin: 1, couponId: expect.stringMatching(/^\d+$/) } });
    expect(await t.coins(p)).toBe(1);
    const list = (await coupons(p)).json();
    expect(list).toEqual({
      total: 1,
      coupons: [
        {
          _id: body.result.couponId,
          prize: { name: { th: 'CASH10 name th', la: 'CASH10 name la', en: 'CASH10 name en' }, label: 'CASH10 label', htmlDescription: { th: '<p>CASH10</p> th', la: '<p>CASH10</p> la', en: '<p>CASH10</p> en' } },
          amount: 10.5,
          type: 'cash',
          status: 'CLAIMABLE',
          expiresAt: '2026-12-08T05:00:00.000Z',
          createdAt: '2026-12-01T05:00:00.000Z',
        },
      ],
    });
    // The spin is recorded with what it drew; no money moved yet.
    const spins = await t.db.db.selectFrom('wheel_spins').selectAll().where('player_id', '=', p.id).execute();
    expect(spins.map((s) => [s.slice_code, s.prize_type, Number(s.amount), String(s.coupon_id)])).toEqual([['CASH10', 'cash', satang(10.5), body.result.couponId]]);
    expect(await t.balance(p)).toBe(0);
  });

  test('a none slice takes the coin and makes no coupon', async () => {
    const p = await t.player({ coins: 1 });
    landOn('NOTHING');
    expect((await t.spin(p)).json().result).toEqual({ code: 'NOTHING', label: 'NOTHING label', labels: expect.any(Object), remainingCoin: 0, couponId: null });
    expect((await coupons(p)).json()).toEqual({ coupons: [], total: 0 });
    expect(await t.db.db.selectFrom('wheel_spins').select('slice_code').where('player_id', '=', p.id).execute()).toEqual([{ slice_code: 'NOTHING' }]);
  });

  test('no coin: NO_COIN; no active wheel: WHEEL_INACTIVE (coins kept); nothing is written', async () => {
    const p = await t.player();
    const res = await t.spin(p);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'NO_COIN' }]);
    const rich = await t.player({ coins: 5 });
    await t.wheel(SLICES, { isActive: false });
    try {
      const off = await t.spin(rich);
      expect([off.statusCode, off.json()]).toEqual([422, { message: 'WHEEL_INACTIVE' }]);
      expect(await t.coins(rich)).toBe(5);
    } finally {
      await t.wheel(SLICES);
    }
    expect(await t.db.db.selectFrom('wheel_spins').select('id').where('player_id', 'in', [p.id, rich.id]).execute()).toEqual([]);
  });

  test('the client never chooses: whatever the body says, the server draws', async () => {
    const p = await t.player({ coins: 1 });
    landOn('COIN2');
    const res = await t.post(p, '/api/spinwheel/spin', { code: 'CASH10', slice: 0, result: 'CASH10' });
    expect(res.json().result.code).toBe('COIN2');
  });

  test('an inactive slice is never drawn; the draw covers the active slices by weight', async () => {
    const p = await t.player({ coins: 10 });
    const seen: number[] = [];
    let next = 0;
    t.setRandom((max) => {
      seen.push(max);
      return next++ % max;
    });
    const codes: string[] = [];
    for (let i = 0; i < 10; i += 1) codes.push((await t.spin(p)).json().result.code);
    expect(seen).toEqual(Array(10).fill(10)); // 3 + 2 + 5: HIDDEN's 9 is not in the draw
    expect(codes).toEqual(['CASH10', 'CASH10', 'CASH10', 'COIN2', 'COIN2', 'NOTHING', 'NOTHING', 'NOTHING', 'NOTHING', 'NOTHING']);
  });

  test('changing the wheel later does not change a coupon already won', async () => {
    const p = await t.player({ coins: 1 });
    landOn('CASH10');
    const id = (await t.spin(p)).json().result.couponId;
    await t.wheel(SLICES.map((s) => (s.code === 'CASH10' ? { ...s, amount: 99 } : s)));
    try {
      expect((await coupons(p)).json().coupons[0]).toMatchObject({ _id: id, amount: 10.5 });
      expect((await t.claim(p, id)).json().coupon.amount).toBe(10.5);
      expect(await t.balance(p)).toBe(satang(10.5));
    } finally {
      await t.wheel(SLICES);
    }
  });
});

describe('coupons', () => {
  beforeAll(() => t.wheel(SLICES));

  async function won(p: TestPlayer, code: 'CASH10' | 'COIN2'): Promise<string> {
    await t.db.db.updateTable('players').set((eb) => ({ coin: eb('coin', '+', 1) })).where('id', '=', p.id).execute();
    landOn(code);
    const res = await t.spin(p);
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json().result.couponId as string;
  }

  test('claiming a cash coupon credits the wallet from spin_budget once, with a luckydraw statement line', async () => {
    const p = await t.player();
    const id = await won(p, 'CASH10');
    const res = await t.claim(p, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'SUCCESS', coupon: expect.objectContaining({ _id: id, status: 'CLAIMED', amount: 10.5, type: 'cash' }) });
    expect(await t.balance(p)).toBe(satang(10.5));
    const again = await t.claim(p, id);
    expect([again.statusCode, again.json()]).toEqual([404, { message: 'NO_CLAIMABLE_COUPON' }]);
    expect(await t.balance(p)).toBe(satang(10.5));
    const st = (await t.post(p, '/api/statement', { page: 1, limit: 10 })).json();
    expect(st.statements).toEqual([expect.objectContaining({ statementType: 'bonus', status: 'SUCCESS', from: 'LUCKYDRAW', to: 'WALLET', amount: 10.5, luckydraw: { description: 'CASH10 label' } })]);
    const entry = await t.db.db.selectFrom('journal_entries').select(['kind', 'reference']).where('player_id', '=', p.id).execute();
    expect(entry).toEqual([{ kind: 'luckydraw', reference: `luckydraw:${id}` }]);
  });

  test('claiming a coin coupon adds the coins (no money moves, no statement line)', async () => {
    const p = await t.player();
    const id = await won(p, 'COIN2');
    expect(await t.coins(p)).toBe(0);
    expect((await t.claim(p, id)).json().coupon).toMatchObject({ status: 'CLAIMED', amount: 2, type: 'coin' });
    expect(await t.coins(p)).toBe(2);
    expect((await t.get(p, '/api/wallet')).json().profile.coin).toBe(2);
    expect((await t.post(p, '/api/statement', { page: 1, limit: 10 })).json().total).toBe(0);
    expect((await t.claim(p, id)).json()).toEqual({ message: 'NO_CLAIMABLE_COUPON' });
    expect(await t.coins(p)).toBe(2);
  });

  test('a coupon expires after 7 days: claimable a millisecond before, COUPON_EXPIRED from then on, listed EXPIRED', async () => {
    const p = await t.player();
    const start = new Date('2026-12-10T00:00:00.000Z');
    t.setNow(start);
    const late = await won(p, 'CASH10');
    const inTime = await won(p, 'COIN2');
    t.setNow(new Date(start.getTime() + 7 * 86_400_000 - 1));
    expect((await t.claim(p, inTime)).statusCode).toBe(200);
    t.advance(1);
    const res = await t.claim(p, late);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'COUPON_EXPIRED' }]);
    t.advance(86_400_000 * 30);
    expect((await t.claim(p, late)).json()).toEqual({ message: 'COUPON_EXPIRED' });
    expect((await coupons(p)).json().coupons.map((c: { _id: string; status: string }) => [c._id, c.status])).toEqual([
      [inTime, 'CLAIMED'],
      [late, 'EXPIRED'],
    ]);
    expect(await t.balance(p)).toBe(0);
  });

  test('the validity is the wheel setting at the spin', async () => {
    const p = await t.player();
    await t.wheel(SLICES, { couponValidDays: 2 });
    try {
      t.setNow(new Date('2026-12-20T10:00:00.000Z'));
      await won(p, 'CASH10');
      expect((await coupons(p)).json().coupons[0].expiresAt).toBe('2026-12-22T10:00:00.000Z');
    } finally {
      await t.wheel(SLICES);
    }
  });

  test("unknown, someone else's or already claimed: NO_CLAIMABLE_COUPON; a malformed id: INVALID_CODE", async () => {
    const p = await t.player();
    const other = await t.player();
    const id = await won(other, 'CASH10');
    for (const couponId of [id, '999999999']) {
      const res = await t.claim(p, couponId);
      expect([couponId, res.statusCode, res.json()]).toEqual([couponId, 404, { message: 'NO_CLAIMABLE_COUPON' }]);
    }
    for (const couponId of [undefined, null, '', 'abc', '0', '-1', '1e3', ' 1', Number(id), { id }, [id], '1'.repeat(16)]) {
      const res = await t.claim(p, couponId);
      expect([couponId, res.statusCode, res.json()]).toEqual([couponId, 400, { message: 'INVALID_CODE' }]);
    }
    for (const payload of [undefined, '[]', '"x"', 'null']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/spinwheel/coupon/claim', headers: { ...p.headers, ...(payload ? { 'content-type': 'application/json' } : {}) }, payload });
      expect([payload, res.statusCode, res.json()]).toEqual([payload, 400, { message: 'INVALID_CODE' }]);
    }
    expect(await t.balance(other)).toBe(0);
  });

  test('a coupon whose prize pays nothing cannot be claimed: INVALID_COUPON_TYPE', async () => {
    // Spins make no coupon for a none slice; a row of that type (an operator's hand, an old import) is refused.
    const p = await t.player();
    const row = await t.db.db
      .insertInto('wheel_coupons')
      .values({
        player_id: p.id, slice_code: 'NOTHING', label: 'x', prize_name: JSON.stringify({ th: 'x', la: 'x', en: 'x' }), html_description: JSON.stringify({ th: 'x', la: 'x', en: 'x' }),
        prize_type: 'none', amount: 0, currency: 'THB', status: 'CLAIMABLE', expires_at: '2999-01-01T00:00:00.000Z', claimed_at: null, created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await t.claim(p, String(row.id));
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'INVALID_COUPON_TYPE' }]);
  });

  test('coupons won stay claimable with the wheel switched off', async () => {
    const p = await t.player();
    const id = await won(p, 'CASH10');
    await t.wheel(SLICES, { isActive: false });
    try {
      expect((await t.claim(p, id)).statusCode).toBe(200);
    } finally {
      await t.wheel(SLICES);
    }
  });

  test('the list: newest first, 3 a page by default, with the total; a bad page or limit is INVALID_USER_INFO', async () => {
    const p = await t.player();
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push(await won(p, i % 2 ? 'COIN2' : 'CASH10'));
    const newest = [...ids].reverse();
    const page = async (q: string) => (await coupons(p, q)).json();
    expect((await page('')).coupons.map((c: { _id: string }) => c._id)).toEqual(newest.slice(0, 3));
    expect(await page('?page=3')).toMatchObject({ total: 7, coupons: [{ _id: newest[6] }] });
    expect((await page('?page=2&limit=3')).coupons.map((c: { _id: string }) => c._id)).toEqual(newest.slice(3, 6));
    expect((await page('?page=1&limit=100')).coupons).toHaveLength(7);
    expect((await page('?page=4')).coupons).toEqual([]);
    expect((await page('?limit=3')).coupons[1]).toMatchObject({ type: 'coin', amount: 2 });
    for (const q of ['?page=0', '?page=abc', '?limit=0', '?limit=101', '?page=1.5']) {
      const res = await coupons(p, q);
      expect([q, res.statusCode, res.json()]).toEqual([q, 400, { message: 'INVALID_USER_INFO' }]);
    }
  });
});

test('every wheel route needs a token', async () => {
  for (const [method, url] of [
    ['GET', '/api/spinwheel/active'], ['GET', '/api/spinwheel/setup'], ['POST', '/api/spinwheel/spin'], ['GET', '/api/spinwheel/coupon'], ['POST', '/api/spinwheel/coupon/claim'],
  ] as const) {
    expect([url, (await t.app.inject({ method, url })).statusCode]).toEqual([url, 401]);
  }
});

test('an app built without a random source draws with node:crypto randomInt', async () => {
  const plain = await buildTestApp();
  try {
    expect(plain.app.wheel.deps.random).toBe(cryptoRandomInt);
  } finally {
    await plain.close();
  }
  for (let i = 0; i < 1000; i += 1) {
    const r = cryptoRandomInt(7);
    expect(Number.isInteger(r) && r >= 0 && r < 7).toBe(true);
  }
});
