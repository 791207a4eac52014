import { buildLimitsTestApp, PLAY_PROBE, type LimitsPlayer, type LimitsTestApp } from '../../test/support/play-limits';

/** Issue 15: the limits routes (docs/responsible-play.md "Wire"), the 24-hour wait, restrictions and the play guard. */
jest.setTimeout(60_000);

let t: LimitsTestApp;
beforeAll(async () => {
  t = await buildLimitsTestApp();
});
afterAll(() => t.close());

const H = 3600_000;
const answer = (res: { statusCode: number; json(): unknown }) => `${res.statusCode} ${(res.json() as { message?: string }).message ?? ''}`.trim();
const getLimits = async (p: LimitsPlayer) => {
  const res = await t.req(p, 'GET', '/api/limits');
  expect(res.statusCode).toBe(200);
  return res.json();
};
const put = (p: LimitsPlayer, kind: string, value: unknown) => t.req(p, 'PUT', '/api/limits', { kind, value });
const restrict = (p: LimitsPlayer, kind: string, period: string) => t.req(p, 'POST', '/api/limits/restriction', { kind, period, confirm: true });
const probe = async (p: LimitsPlayer) => answer(await t.req(p, 'GET', PLAY_PROBE));
const historyOf = async (p: LimitsPlayer, page = 1) => (await t.req(p, 'GET', `/api/limits/history?page=${page}`)).json();
const auditCount = async (p: LimitsPlayer) =>
  Number((await t.db.db.selectFrom('play_audit').select((eb) => eb.fn.countAll<number>().as('n')).where('player_id', '=', p.id).executeTakeFirstOrThrow()).n);

beforeEach(() => t.setNow(new Date()));

describe('GET /api/limits', () => {
  test('a new player: no limits, no usage, reality check every 60 minutes, no restriction, the session as it started', async () => {
    const p = await t.player();
    const body = await getLimits(p);
    const none = { value: null, pending: null };
    expect(body).toEqual({
      limits: { depositDay: none, depositWeek: none, depositMonth: none, lossDay: none, lossWeek: none, lossMonth: none, sessionMinutes: none },
      usage: { depositDay: 0, depositWeek: 0, depositMonth: 0, lossDay: 0, lossWeek: 0, lossMonth: 0 },
      realityMinutes: 60,
      restriction: null,
      session: { startedAt: expect.any(String), now: t.now().toISOString(), minuteMs: 60000, netResult: 0 },
    });
    const s = await t.db.db.selectFrom('sessions').select('created_at').where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect(body.session.startedAt).toBe(s.created_at);
  });

  test('needs a token', async () => {
    for (const [method, url] of [['GET', '/api/limits'], ['PUT', '/api/limits'], ['PUT', '/api/limits/reality'], ['POST', '/api/limits/restriction'], ['GET', '/api/limits/history']] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });

  test('usage and the session net result come from statements, reserved gift links and rounds', async () => {
    const p = await t.login(await t.player());
    const at = t.now().toISOString();
    await t.db.db
      .insertInto('statements')
      .values({ player_id: p.id, statement_type: 'deposit', status: 'SUCCESS', from_account: 'KBANK', to_account: 'WALLET', amount: 12_345, currency: 'THB', ref_type: 'deposit', ref_id: `u${p.id}`, linked_type: null, linked_description: null, created_at: at, updated_at: at })
      .execute();
    await t.db.db.insertInto('gift_redemptions').values({ id: `g${p.id}`, player_id: p.id, voucher_id: `v${p.id}`, status: 'IN_PROGRESS', amount: 5_000, currency: 'THB', reason: null, created_at: at, updated_at: at }).execute();
    await t.db.db
      .insertInto('bet_rounds')
      .values({ game_code: 'pg', round_id: `r${p.id}`, username: 'u', player_id: p.id, bet: 10_000, win: 2_550, played_at: t.now().toISOString(), user_bonus_id: null, refund_id: null, created_at: at })
      .execute();
    const body = await getLimits(p);
    expect(body.usage).toEqual({ depositDay: 173.45, depositWeek: 173.45, depositMonth: 173.45, lossDay: 74.5, lossWeek: 74.5, lossMonth: 74.5 });
    expect(body.session.netResult).toBe(-74.5);
  });
});

describe('PUT /api/limits', () => {
  test('a new limit and a lower one take effect at once; a raise and a removal wait 24 hours', async () => {
    const p = await t.player();
    let res = await put(p, 'depositDay', 1000);
    expect(res.statusCode).toBe(200);
    expect(res.json().limits.depositDay).toEqual({ value: 1000, pending: null });
    expect((await put(p, 'depositDay', 500.5)).json().limits.depositDay).toEqual({ value: 500.5, pending: null });

    const start = t.now();
    const effectiveAt = new Date(start.getTime() + 24 * H).toISOString();
    res = await put(p, 'depositDay', 2000);
    expect(res.json().limits.depositDay).toEqual({ value: 500.5, pending: { value: 2000, effectiveAt } });
    t.advance(24 * H - 1);
    expect((await getLimits(p)).limits.depositDay).toEqual({ value: 500.5, pending: { value: 2000, effectiveAt } });
    t.advance(1);
    expect((await getLimits(p)).limits.depositDay).toEqual({ value: 2000, pending: null });

    const removalAt = new Date(t.now().getTime() + 24 * H).toISOString();
    expect((await put(p, 'depositDay', null)).json().limits.depositDay).toEqual({ value: 2000, pending: { value: null, effectiveAt: removalAt } });
    t.advance(24 * H);
    expect((await getLimits(p)).limits.depositDay).toEqual({ value: null, pending: null });
    // The matured removal is written back on the next write: a new limit is then in force at once.
    expect((await put(p, 'depositDay', 3000)).json().limits.depositDay).toEqual({ value: 3000, pending: null });

    const h = await historyOf(p);
    expect(h.items.map((i: { action: string }) => i.action)).toEqual(['LIMIT_SET', 'LIMIT_REMOVAL_SCHEDULED', 'LIMIT_RAISE_SCHEDULED', 'LIMIT_SET', 'LIMIT_SET']);
    expect(h.items[2].detail).toEqual({ kind: 'depositDay', value: 2000, previous: 500.5, effectiveAt });
    expect(h.items[3].detail).toEqual({ kind: 'depositDay', value: 500.5, previous: 1000 });
    expect(h.items[4].detail).toEqual({ kind: 'depositDay', value: 1000, previous: null });
  });

  test('the effective value again cancels a pending raise; a lower value drops it and applies at once', async () => {
    const p = await t.player();
    await put(p, 'lossWeek', 100);
    await put(p, 'lossWeek', 300);
    const pendingAt = new Date(t.now().getTime() + 24 * H).toISOString();
    expect((await put(p, 'lossWeek', 100)).json().limits.lossWeek).toEqual({ value: 100, pending: null });
    expect((await historyOf(p)).items[0]).toMatchObject({ action: 'LIMIT_PENDING_CANCELLED', detail: { kind: 'lossWeek', value: 300, previous: 100, effectiveAt: pendingAt } });
    t.advance(25 * H);
    expect((await getLimits(p)).limits.lossWeek).toEqual({ value: 100, pending: null });

    await put(p, 'lossWeek', null);
    expect((await put(p, 'lossWeek', 50)).json().limits.lossWeek).toEqual({ value: 50, pending: null });
    t.advance(25 * H);
    expect((await getLimits(p)).limits.lossWeek).toEqual({ value: 50, pending: null });
  });

  test('the same value with nothing pending changes and records nothing', async () => {
    const p = await t.player();
    await put(p, 'sessionMinutes', 60);
    const n = await auditCount(p);
    expect((await put(p, 'sessionMinutes', 60)).json().limits.sessionMinutes).toEqual({ value: 60, pending: null });
    expect((await put(p, 'depositMonth', null)).statusCode).toBe(200);
    expect(await auditCount(p)).toBe(n);
  });

  test('every kind is its own limit; session minutes are whole minutes', async () => {
    const p = await t.player();
    const kinds = { depositDay: 1, depositWeek: 2, depositMonth: 3, lossDay: 4, lossWeek: 5.25, lossMonth: 10_000_000, sessionMinutes: 1440 };
    for (const [kind, value] of Object.entries(kinds)) expect((await put(p, kind, value)).statusCode).toBe(200);
    const { limits } = await getLimits(p);
    for (const [kind, value] of Object.entries(kinds)) expect(limits[kind]).toEqual({ value, pending: null });
    const row = await t.db.db.selectFrom('play_limits').selectAll().where('player_id', '=', p.id).where('kind', '=', 'loss_week').executeTakeFirstOrThrow();
    expect(Number(row.value)).toBe(525);
  });

  test.each([
    ['an unknown kind', { kind: 'depositYear', value: 10 }],
    ['a db kind', { kind: 'deposit_day', value: 10 }],
    ['no kind', { value: 10 }],
    ['no value', { kind: 'depositDay' }],
    ['zero', { kind: 'depositDay', value: 0 }],
    ['a negative amount', { kind: 'lossDay', value: -5 }],
    ['three decimals', { kind: 'depositDay', value: 1.005 }],
    ['over 10,000,000 baht', { kind: 'depositMonth', value: 10_000_000.01 }],
    ['an amount as text', { kind: 'depositDay', value: '100' }],
    ['an amount as an object', { kind: 'depositDay', value: { v: 1 } }],
    ['4 session minutes', { kind: 'sessionMinutes', value: 4 }],
    ['1441 session minutes', { kind: 'sessionMinutes', value: 1441 }],
    ['fractional session minutes', { kind: 'sessionMinutes', value: 30.5 }],
  ])('%s is 422 LIMIT_INVALID and records nothing', async (_what, body) => {
    const p = await t.player();
    expect(answer(await t.req(p, 'PUT', '/api/limits', body))).toBe('422 LIMIT_INVALID');
    expect(await auditCount(p)).toBe(0);
  });

  test('a body that is not JSON or missing is a 400 with a code, never a 500', async () => {
    const p = await t.player();
    const raw = await t.app.inject({ method: 'PUT', url: '/api/limits', headers: { ...p.headers, 'content-type': 'application/json' }, payload: '{nope' });
    expect(answer(raw)).toBe('400 KEY_INVALID');
    expect(answer(await t.req(p, 'PUT', '/api/limits'))).toMatch(/^400 [A-Z_]+$/);
    expect(answer(await t.req(p, 'PUT', '/api/limits', 'text' as never))).toMatch(/^4\d\d [A-Z_]+$/);
    expect(answer(await t.req(p, 'PUT', '/api/limits', [1, 2]))).toBe('400 INVALID_USER_INFO');
    expect(await auditCount(p)).toBe(0);
  });
});

describe('PUT /api/limits/reality', () => {
  test('30 or 60 minutes; a change is audited, the same value is not', async () => {
    const p = await t.player();
    expect((await t.req(p, 'PUT', '/api/limits/reality', { minutes: 30 })).json().realityMinutes).toBe(30);
    expect((await t.req(p, 'PUT', '/api/limits/reality', { minutes: 30 })).json().realityMinutes).toBe(30);
    expect((await getLimits(p)).realityMinutes).toBe(30);
    const h = await historyOf(p);
    expect(h.items).toHaveLength(1);
    expect(h.items[0]).toMatchObject({ action: 'REALITY_INTERVAL', detail: { minutes: 30, previous: 60 } });
    for (const minutes of [45, '60', null, 0]) expect(answer(await t.req(p, 'PUT', '/api/limits/reality', { minutes }))).toBe('422 LIMIT_INVALID');
    expect(answer(await t.req(p, 'PUT', '/api/limits/reality', {}))).toBe('422 LIMIT_INVALID');
  });
});

describe('POST /api/limits/restriction and the play guard', () => {
  test('play routes pass without a restriction; the catalogue marks the probe as play, the limits routes not', async () => {
    const p = await t.player();
    expect(await probe(p)).toBe('200');
    const entries = t.app.routeCatalogue.filter((r) => r.url === PLAY_PROBE || r.url.startsWith('/api/limits'));
    expect(entries.filter((r) => r.play).map((r) => r.url)).toEqual([PLAY_PROBE]);
    expect(entries.filter((r) => !r.play)).toHaveLength(5);
  });

  test('a time-out refuses play routes with PLAY_TIMEOUT until it ends; the limits routes stay open', async () => {
    const p = await t.player();
    const res = await restrict(p, 'TIMEOUT', '24h');
    expect(res.statusCode).toBe(200);
    const endsAt = new Date(t.now().getTime() + 24 * H).toISOString();
    expect(res.json().restriction).toEqual({ kind: 'TIMEOUT', period: '24h', startsAt: t.now().toISOString(), endsAt });
    expect(await probe(p)).toBe('403 PLAY_TIMEOUT');
    expect(await probe(await t.login(p))).toBe('403 PLAY_TIMEOUT');
    expect((await t.req(p, 'GET', '/api/limits')).statusCode).toBe(200);
    expect((await put(p, 'depositDay', 100)).statusCode).toBe(200);
    t.advance(24 * H - 1);
    expect(await probe(p)).toBe('403 PLAY_TIMEOUT');
    t.advance(1);
    expect(await probe(p)).toBe('200');
    expect((await getLimits(p)).restriction).toBeNull();
    expect((await historyOf(p)).items.find((i: { action: string }) => i.action === 'TIMEOUT').detail).toEqual({ period: '24h', endsAt });
  });

  test('a self-exclusion refuses with SELF_EXCLUDED, ends after calendar months in UTC', async () => {
    t.setNow(new Date('2026-08-31T10:00:00.000Z'));
    const p = await t.player();
    const res = await restrict(p, 'EXCLUSION', '6m');
    expect(res.json().restriction).toMatchObject({ kind: 'EXCLUSION', period: '6m', endsAt: '2027-02-28T10:00:00.000Z' });
    expect(await probe(p)).toBe('403 SELF_EXCLUDED');
    t.setNow(new Date('2027-02-28T09:59:59.999Z'));
    expect(await probe(p)).toBe('403 SELF_EXCLUDED');
    t.setNow(new Date('2027-02-28T10:00:00.000Z'));
    expect(await probe(p)).toBe('200');
  });

  test.each([
    ['24h', 24 * H],
    ['7d', 7 * 24 * H],
    ['30d', 30 * 24 * H],
  ])('a %s time-out ends that long after', async (period, ms) => {
    const p = await t.player();
    expect((await restrict(p, 'TIMEOUT', period)).json().restriction.endsAt).toBe(new Date(t.now().getTime() + ms).toISOString());
  });

  test.each([
    ['1y', '2027-05-10T08:00:00.000Z'],
    ['5y', '2031-05-10T08:00:00.000Z'],
  ])('a %s exclusion ends on the same date that many years later', async (period, endsAt) => {
    t.setNow(new Date('2026-05-10T08:00:00.000Z'));
    const p = await t.player();
    expect((await restrict(p, 'EXCLUSION', period)).json().restriction.endsAt).toBe(endsAt);
  });

  test('a new restriction is taken only if it ends later (409 RESTRICTION_ACTIVE); none is lifted or shortened', async () => {
    const p = await t.player();
    expect((await restrict(p, 'TIMEOUT', '7d')).statusCode).toBe(200);
    expect(answer(await restrict(p, 'TIMEOUT', '24h'))).toBe('409 RESTRICTION_ACTIVE');
    expect(answer(await restrict(p, 'TIMEOUT', '7d'))).toBe('409 RESTRICTION_ACTIVE');
    expect((await restrict(p, 'TIMEOUT', '30d')).json().restriction.period).toBe('30d');
    expect((await restrict(p, 'EXCLUSION', '6m')).json().restriction).toMatchObject({ kind: 'EXCLUSION', period: '6m' });
    expect(await probe(p)).toBe('403 SELF_EXCLUDED');
    expect(answer(await restrict(p, 'TIMEOUT', '30d'))).toBe('409 RESTRICTION_ACTIVE');
    const rows = await t.db.db.selectFrom('play_restrictions').select(['kind', 'period']).where('player_id', '=', p.id).orderBy('id').execute();
    expect(rows).toEqual([
      { kind: 'TIMEOUT', period: '7d' },
      { kind: 'TIMEOUT', period: '30d' },
      { kind: 'EXCLUSION', period: '6m' },
    ]);
    expect((await historyOf(p)).items.map((i: { action: string }) => i.action)).toEqual(['EXCLUSION', 'TIMEOUT', 'TIMEOUT']);
  });

  test('no route of any kind lifts a restriction: the only route naming restrictions is the POST that takes one', () => {
    const named = t.app.routeCatalogue.filter((r) => /restrict|exclu|timeout/i.test(r.url)).map((r) => `${r.method} ${r.url}`);
    expect(named).toEqual(['POST /api/limits/restriction']);
    expect(t.app.routeCatalogue.filter((r) => r.url.startsWith('/api/limits') && r.method === 'DELETE')).toEqual([]);
  });

  test.each([
    ['no confirm', { kind: 'TIMEOUT', period: '24h' }],
    ['confirm false', { kind: 'TIMEOUT', period: '24h', confirm: false }],
    ['confirm as text', { kind: 'TIMEOUT', period: '24h', confirm: 'true' }],
    ['an exclusion period for a time-out', { kind: 'TIMEOUT', period: '6m', confirm: true }],
    ['a time-out period for an exclusion', { kind: 'EXCLUSION', period: '24h', confirm: true }],
    ['an unknown period', { kind: 'TIMEOUT', period: '1h', confirm: true }],
    ['an unknown kind', { kind: 'BREAK', period: '24h', confirm: true }],
    ['a period as a number', { kind: 'TIMEOUT', period: 24, confirm: true }],
  ])('%s is 422 LIMIT_INVALID and takes nothing', async (_what, body) => {
    const p = await t.player();
    expect(answer(await t.req(p, 'POST', '/api/limits/restriction', body))).toBe('422 LIMIT_INVALID');
    expect(await probe(p)).toBe('200');
    expect(await auditCount(p)).toBe(0);
  });

  test('past the session limit play routes answer SESSION_LIMIT; a new session plays again', async () => {
    const p = await t.login(await t.player());
    await put(p, 'sessionMinutes', 5);
    t.advance(5 * 60_000 - 1);
    expect(await probe(p)).toBe('200');
    t.advance(1);
    expect(await probe(p)).toBe('403 SESSION_LIMIT');
    expect((await t.req(p, 'GET', '/api/limits')).statusCode).toBe(200);
    expect(await probe(await t.login(p))).toBe('200');
  });

  test('another player is not affected', async () => {
    const a = await t.player();
    const b = await t.player();
    await restrict(a, 'EXCLUSION', '1y');
    expect(await probe(a)).toBe('403 SELF_EXCLUDED');
    expect(await probe(b)).toBe('200');
  });
});

describe('GET /api/limits/history', () => {
  test('10 a page, newest first, with the total number of pages', async () => {
    const p = await t.player();
    for (let v = 100; v > 88; v--) await put(p, 'depositDay', v);
    const one = await historyOf(p, 1);
    expect(one.page).toBe(1);
    expect(one.totalPages).toBe(2);
    expect(one.items).toHaveLength(10);
    expect(one.items.map((i: { detail: { value: number } }) => i.detail.value)).toEqual([89, 90, 91, 92, 93, 94, 95, 96, 97, 98]);
    const ids = one.items.map((i: { id: number }) => i.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    const two = await historyOf(p, 2);
    expect(two.items.map((i: { detail: { value: number } }) => i.detail.value)).toEqual([99, 100]);
    expect((await historyOf(p, 3)).items).toEqual([]);
    expect((await t.req(p, 'GET', '/api/limits/history')).json().page).toBe(1);
    expect(two.items[0]).toEqual({ id: expect.any(Number), action: 'LIMIT_SET', detail: { kind: 'depositDay', value: 99, previous: 100 }, createdAt: t.now().toISOString() });
  });

  test('an empty trail has no pages; another player\'s rows are not shown; a bad page is a 400 with a code', async () => {
    const a = await t.player();
    const b = await t.player();
    await put(a, 'lossDay', 10);
    expect(await historyOf(b)).toEqual({ items: [], page: 1, totalPages: 0 });
    for (const page of ['0', '-1', 'x', '1.5', '9999999']) expect(answer(await t.req(b, 'GET', `/api/limits/history?page=${page}`))).toBe('400 INVALID_USER_INFO');
  });
});

describe('PLAY_MINUTE_MS', () => {
  let short: LimitsTestApp;
  beforeAll(async () => {
    short = await buildLimitsTestApp({ PLAY_MINUTE_MS: '1000' });
  });
  afterAll(() => short.close());

  test('a shortened minute times the session limit and is sent to the SPA for the reality check', async () => {
    const p = await short.login(await short.player());
    const res = await short.req(p, 'PUT', '/api/limits', { kind: 'sessionMinutes', value: 5 });
    expect(res.json().session.minuteMs).toBe(1000);
    short.advance(4999);
    expect(answer(await short.req(p, 'GET', PLAY_PROBE))).toBe('200');
    short.advance(1);
    expect(answer(await short.req(p, 'GET', PLAY_PROBE))).toBe('403 SESSION_LIMIT');
  });
});
