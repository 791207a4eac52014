import { parse } from 'promptparse';
import { anyId } from 'promptparse/validate';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { DEMO_PROMPTPAY_ID } from './domain/promptpay';
import { createPlayer, eventId, signedEvent, type TestPlayer } from '../../test/support/deposits';

let t: TestApp;
let p: TestPlayer;
beforeAll(async () => {
  t = await buildTestApp();
  p = await createPlayer(t.app);
});
afterAll(() => t.close());

const create = (bank: string, amount: unknown, player = p) =>
  t.app.inject({ method: 'POST', url: `/api/qrcode/${bank}`, headers: player.headers, payload: { amount } });
const get = (bank: string, player = p) => t.app.inject({ method: 'GET', url: `/api/qrcode/${bank}`, headers: player.headers });

test('KBANK: a PromptPay QR for the operator id and the amount, with a valid CRC, as SVG', async () => {
  const res = await create('KBANK', 100.5);
  expect(res.statusCode).toBe(200);
  const qr = res.json();
  expect(qr).toMatchObject({ hasQrcode: true, bankCode: 'KBANK', amount: 100.5, message: '' });
  expect(qr.qrcodeId).toMatch(/^qr_[0-9a-f]{24}$/);
  expect(qr.expireIn).toBeGreaterThan(295);
  expect(qr.expireIn).toBeLessThanOrEqual(300);
  expect(qr.qrcode).toMatch(/^<svg /);
  const parsed = parse(qr.payload, true);
  expect(parsed?.validate('63')).toBe(true);
  expect(parsed?.getTagValue('54')).toBe('100.50');
  expect(anyId(qr.payload)).toEqual({ type: 'MSISDN', target: DEMO_PROMPTPAY_ID, amount: 100.5 });
});

test('GET answers the live QR of that bank, or hasQrcode false', async () => {
  const player = await createPlayer(t.app);
  expect((await get('KBANK', player)).json()).toMatchObject({ hasQrcode: false, qrcodeId: null });
  const made = (await create('KBANK', 20, player)).json();
  const again = (await get('KBANK', player)).json();
  expect(again).toMatchObject({ hasQrcode: true, qrcodeId: made.qrcodeId, amount: 20, payload: made.payload });
  expect((await get('WW', player)).json()).toMatchObject({ hasQrcode: false });
});

describe('GET without a live QR tells how the most recent QR of that bank ended (last)', () => {
  const pay = (qrcodeId: string, amount: number) => t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qrcodeId, amount }));
  const del = (idOrBank: string, player: TestPlayer) => t.app.inject({ method: 'DELETE', url: `/api/qrcode/${idOrBank}`, headers: player.headers });

  test('none yet: last is null', async () => {
    const player = await createPlayer(t.app);
    expect((await get('KBANK', player)).json()).toMatchObject({ hasQrcode: false, qrcodeId: null, last: null });
  });

  test('paid by the webhook: PAID (and the live answer carries no last)', async () => {
    const player = await createPlayer(t.app);
    const made = (await create('KBANK', 100, player)).json();
    expect((await get('KBANK', player)).json().last).toBeUndefined();
    expect((await pay(made.qrcodeId, 100)).json().outcome).toBe('CREDITED');
    const res = await get('KBANK', player);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ hasQrcode: false, qrcodeId: null, last: { qrcodeId: made.qrcodeId, status: 'PAID' } });
  });

  test('paid with another amount: REVIEW', async () => {
    const player = await createPlayer(t.app);
    const made = (await create('WW', 150, player)).json();
    expect((await pay(made.qrcodeId, 120)).json().outcome).toBe('AMOUNT_MISMATCH');
    // With what arrived, why, and the reference of its statement line (issue 40).
    expect((await get('WW', player)).json().last).toEqual({
      qrcodeId: made.qrcodeId,
      status: 'REVIEW',
      review: { status: 'OPEN', kind: 'AMOUNT_MISMATCH', amount: 120, ref: expect.stringMatching(/^D-\d{4}-\d{4}$/) },
    });
  });

  test('cancelled from another device, or replaced by a QR of another bank: CANCELLED', async () => {
    const player = await createPlayer(t.app);
    const made = (await create('KBANK', 10, player)).json();
    expect((await del(made.qrcodeId, player)).statusCode).toBe(200);
    expect((await get('KBANK', player)).json().last).toEqual({ qrcodeId: made.qrcodeId, status: 'CANCELLED' });
    const e2p = (await create('E2P', 60, player)).json();
    const ww = (await create('WW', 100, player)).json();
    expect((await get('E2P', player)).json().last).toEqual({ qrcodeId: e2p.qrcodeId, status: 'CANCELLED' });
    expect((await get('WW', player)).json()).toMatchObject({ hasQrcode: true, qrcodeId: ww.qrcodeId });
  });

  test('past its time: EXPIRED, whether or not the row was ended yet', async () => {
    const player = await createPlayer(t.app);
    const made = (await create('KBANK', 15, player)).json();
    const real = t.app.clock.now;
    t.app.clock.now = () => new Date(Date.now() + 5 * 60_000 + 1000);
    try {
      expect((await get('KBANK', player)).json()).toMatchObject({ hasQrcode: false, last: { qrcodeId: made.qrcodeId, status: 'EXPIRED' } });
      expect((await del(made.qrcodeId, player)).statusCode).toBe(200);
      expect((await get('KBANK', player)).json().last).toEqual({ qrcodeId: made.qrcodeId, status: 'EXPIRED' });
    } finally {
      t.app.clock.now = real;
    }
  });

  test('the most recent of that bank only, and the player\'s own only', async () => {
    const player = await createPlayer(t.app);
    const other = await createPlayer(t.app);
    const first = (await create('KBANK', 10, player)).json();
    // A second later (created_at orders them; the same millisecond would leave the order to the id).
    const real = t.app.clock.now;
    t.app.clock.now = () => new Date(Date.now() + 1000);
    const second = await create('KBANK', 11, player)
      .then((r) => r.json())
      .finally(() => (t.app.clock.now = real));
    await pay(second.qrcodeId, 11);
    expect((await get('KBANK', player)).json().last).toEqual({ qrcodeId: second.qrcodeId, status: 'PAID' });
    expect(first.qrcodeId).not.toBe(second.qrcodeId);
    expect((await get('WW', player)).json().last).toBeNull();
    expect((await get('KBANK', other)).json().last).toBeNull();
  });
});

test('one live QR per player: creating one cancels the others', async () => {
  const player = await createPlayer(t.app);
  const first = (await create('KBANK', 10, player)).json();
  const second = (await create('WW', 100, player)).json();
  expect(second.hasQrcode).toBe(true);
  expect((await get('KBANK', player)).json().hasQrcode).toBe(false);
  expect((await get('WW', player)).json().qrcodeId).toBe(second.qrcodeId);
  const row = await t.app.db.selectFrom('qr_deposits').select('status').where('id', '=', first.qrcodeId).executeTakeFirstOrThrow();
  expect(row.status).toBe('CANCELLED');
  expect(t.app.deposits.sims.gateway).not.toBeNull();
});

test('concurrent creates still leave exactly one live QR', async () => {
  const player = await createPlayer(t.app);
  const answers = await Promise.all([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120].map((a) => create('KBANK', a, player)));
  for (const a of answers) expect(a.statusCode).toBe(200);
  const live = await t.app.db.selectFrom('qr_deposits').select('id').where('player_id', '=', player.id).where('status', '=', 'LIVE').execute();
  expect(live).toHaveLength(1);
});

test('WW and E2P carry the gateway payload; minimums 100 and 50; KBANK above 0 and the QR minimum', async () => {
  const ww = (await create('WW', 100)).json();
  expect(parse(ww.payload, true)?.getTagValue('54')).toBe('100.00');
  const e2p = (await create('E2P', 50)).json();
  expect(e2p).toMatchObject({ hasQrcode: true, amount: 50 });
  for (const [bank, amount] of [['WW', 99.99], ['E2P', 49], ['KBANK', 0.99]] as const) {
    const res = await create(bank, amount);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ hasQrcode: false, message: 'QR_FAIL' });
  }
  for (const bad of [0, -5, 1.234, 'abc', '100', ' 100 ', [100], { amount: 100 }, null, undefined]) {
    const res = await create('KBANK', bad);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ hasQrcode: false, message: 'QR_FAIL' });
  }
});

test('the configured QR minimum and validity are read from the depositRules setting', async () => {
  await t.app.db.insertInto('settings').values({ key: 'depositRules', value: JSON.stringify({ qrMinimum: 30, qrValidityMinutes: 2 }), updated_at: new Date().toISOString() }).execute();
  try {
    expect((await create('KBANK', 29.99)).statusCode).toBe(422);
    const ok = (await create('KBANK', 30)).json();
    expect(ok.expireIn).toBeLessThanOrEqual(120);
  } finally {
    await t.app.db.deleteFrom('settings').where('key', '=', 'depositRules').execute();
  }
});

test('a QR is hidden once its time has run out', async () => {
  const player = await createPlayer(t.app);
  const made = (await create('KBANK', 15, player)).json();
  const real = t.app.clock.now;
  t.app.clock.now = () => new Date(Date.now() + 5 * 60_000 + 1000);
  try {
    expect((await get('KBANK', player)).json()).toMatchObject({ hasQrcode: false });
  } finally {
    t.app.clock.now = real;
  }
  expect(made.hasQrcode).toBe(true);
});

test('a gateway outage refuses with QR_FAIL and creates nothing', async () => {
  const player = await createPlayer(t.app);
  t.app.deposits.sims.gateway!.failNext = 1;
  const res = await create('E2P', 60, player);
  expect(res.statusCode).toBe(502);
  expect(res.json()).toMatchObject({ hasQrcode: false, message: 'QR_FAIL' });
  expect(await t.app.db.selectFrom('qr_deposits').select('id').where('player_id', '=', player.id).execute()).toHaveLength(0);
});

test('DELETE cancels by qrcodeId (or bank code); another player cannot', async () => {
  const player = await createPlayer(t.app);
  const other = await createPlayer(t.app);
  const made = (await create('KBANK', 10, player)).json();
  const foreign = await t.app.inject({ method: 'DELETE', url: `/api/qrcode/${made.qrcodeId}`, headers: other.headers });
  expect(foreign.statusCode).toBe(404);
  const del = await t.app.inject({ method: 'DELETE', url: `/api/qrcode/${made.qrcodeId}`, headers: player.headers });
  expect(del.statusCode).toBe(200);
  expect(del.json()).toMatchObject({ hasQrcode: false, qrcodeId: made.qrcodeId });
  expect((await get('KBANK', player)).json().hasQrcode).toBe(false);
  // Again: same answer.
  expect((await t.app.inject({ method: 'DELETE', url: `/api/qrcode/${made.qrcodeId}`, headers: player.headers })).statusCode).toBe(200);
  const byBank = (await create('WW', 100, player)).json();
  expect((await t.app.inject({ method: 'DELETE', url: '/api/qrcode/WW', headers: player.headers })).json()).toMatchObject({ qrcodeId: byBank.qrcodeId });
});

test('unknown banks, no token, and non-THB wallets', async () => {
  expect((await get('SCB')).statusCode).toBe(404);
  expect((await get('SCB')).json()).toEqual({ message: 'NO_BANK' });
  expect((await t.app.inject({ method: 'GET', url: '/api/qrcode/KBANK' })).statusCode).toBe(401);
  const lak = await createPlayer(t.app, { bankCode: 'BCEL', currency: 'LAK' });
  expect((await create('KBANK', 100, lak)).statusCode).toBe(422);
});
