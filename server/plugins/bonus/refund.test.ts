import { walletBalance } from '../../ledger';
import { buildBonusTestApp, satang, type BonusTestApp, type TestPlayer } from '../../test/support/bonus';

/**
 * Refund of losses through app.inject on a real database: the net loss of the stored rounds since the last
 * refund, refundSuccess% or refundFail% after a failed bonus, the codes, the log and the banners.
 */
let t: BonusTestApp;
beforeAll(async () => {
  t = await buildBonusTestApp();
  await t.refund({ isActive: true, refundSuccess: 5, refundFail: 10, banners: [{ image: '/games/pg-bg.svg', html: { th: 'r', la: 'r', en: 'r' } }] });
});
afterAll(() => t.close());
afterEach(async () => {
  await t.refund({ isActive: true });
  expect(await t.audit()).toEqual([]);
});

const refundBudget = async () => {
  const r = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'refund_budget:THB').executeTakeFirst();
  return r ? Number(r.balance) : 0;
};
const check = async (p: TestPlayer) => (await t.get(p, '/api/refund/check')).json();
const receive = (p: TestPlayer) => t.get(p, '/api/refund/receive');

/** A player who lost `loss` baht at pg (bets of 10, all lost), rounds stored by a wagering pass. */
async function loser(loss: number, extra = 0): Promise<TestPlayer> {
  const p = await t.player({ balance: satang(loss + extra), games: ['pg'] });
  await t.toGame(p, 'pg', loss);
  await t.play(p, 'pg', 10, 'lose', loss / 10);
  await t.app.bonus.pollNow();
  return p;
}

test('refund of a net loss without a failed bonus: refundSuccess% of it, credited from refund_budget with a statement line', async () => {
  const p = await loser(1000);
  expect(await check(p)).toEqual({
    result: true,
    bonus: false,
    info: expect.objectContaining({ en: expect.stringContaining('5%') }),
    refundAmount: 50,
    refundSuccess: 5,
    refundFail: 10,
  });
  const before = await refundBudget();
  const res = await receive(p);
  expect([res.statusCode, res.json()]).toEqual([200, { message: 'REFUND_SUCCESS', amount: 50 }]);
  expect(await walletBalance(t.db.db, p.id)).toBe(satang(50));
  expect(await refundBudget()).toBe(before - satang(50));
  const line = await t.db.db.selectFrom('statements').selectAll().where('player_id', '=', p.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
  expect([line.statement_type, line.status, line.from_account, line.to_account, Number(line.amount), line.linked_type, line.linked_description]).toEqual([
    'bonus', 'SUCCESS', 'REFUND', 'WALLET', satang(50), 'refund', '5%',
  ]);
  // Counted once: nothing more until new losses.
  expect(await check(p)).toMatchObject({ result: false, refundAmount: 0 });
  const again = await receive(p);
  expect([again.statusCode, again.json()]).toEqual([422, { message: 'REFUND_MINIMUM' }]);
  // New losses since the last refund count.
  await t.toGame(p, 'pg', 50);
  await t.play(p, 'pg', 10, 'lose', 5);
  await t.app.bonus.pollNow();
  expect((await t.get(p, '/api/refund/addWallet')).json()).toEqual({ message: 'REFUND_SUCCESS', amount: 2.5 });
});

test('after a bonus failed in the period the refund is refundFail% of the net loss, and only for that period', async () => {
  const c = `RF${Date.now() % 100000}`;
  await t.define('bonus', { code: c, percent: 10, percentFail: 10 });
  const p = await t.player({ balance: satang(1000), games: ['pg'] });
  await t.get(p, `/api/bonus/activate/${c}`); // start 1100, fails at 110
  await t.toGame(p, 'pg', 1100);
  await t.play(p, 'pg', 100, 'lose', 10); // 100 left
  for (let i = 0; i < 10 && (await t.get(p, '/api/bonus/check/active')).json().status; i++) await t.app.bonus.pollNow();
  expect((await t.get(p, '/api/bonus/check/active')).json().status).toBe(false);
  expect(await check(p)).toMatchObject({ result: true, bonus: false, refundAmount: 100 }); // 10% of 1000
  expect((await receive(p)).json()).toEqual({ message: 'REFUND_SUCCESS', amount: 100 });
  const line = await t.db.db.selectFrom('statements').select('linked_description').where('player_id', '=', p.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
  expect(line.linked_description).toBe('10%');
  // The failed bonus's 100 was taken back from the game (docs/bonus.md "Taking the bonus back"): the refund plays on.
  await t.toGame(p, 'pg', 100);
  // The next period has no failed bonus: back to refundSuccess%.
  await t.play(p, 'pg', 100, 'lose');
  await t.app.bonus.pollNow();
  expect(await check(p)).toMatchObject({ refundAmount: 5 });
});

test('a net win gives nothing (REFUND_MINIMUM) and carries forward against later losses', async () => {
  const p = await t.player({ balance: satang(100), games: ['pg'] });
  await t.toGame(p, 'pg', 100);
  await t.play(p, 'pg', 10, 'win', 2); // +20
  await t.app.bonus.pollNow();
  expect(await check(p)).toMatchObject({ result: false, refundAmount: 0 });
  const r = await receive(p);
  expect([r.statusCode, r.json()]).toEqual([422, { message: 'REFUND_MINIMUM' }]);
  await t.play(p, 'pg', 10, 'lose', 6); // -60: net loss 40
  await t.app.bonus.pollNow();
  expect((await receive(p)).json()).toEqual({ message: 'REFUND_SUCCESS', amount: 2 });
});

test('while a bonus is active: check says so and receive answers 422 REFUND_CONDITION', async () => {
  const c = `RC${Date.now() % 100000}`;
  await t.define('bonus', { code: c });
  const p = await loser(100, 100);
  await t.get(p, `/api/bonus/activate/${c}`);
  expect(await check(p)).toMatchObject({ result: true, bonus: true, refundAmount: 5 });
  const r = await receive(p);
  expect([r.statusCode, r.json()]).toEqual([422, { message: 'REFUND_CONDITION' }]);
  await t.get(p, '/api/bonus/clear');
  expect((await receive(p)).statusCode).toBe(200);
});

test('switched off: receive answers 422 REFUND_INACTIVE, check shows nothing, no banners', async () => {
  const p = await loser(100);
  await t.refund({ isActive: false });
  const r = await receive(p);
  expect([r.statusCode, r.json()]).toEqual([422, { message: 'REFUND_INACTIVE' }]);
  expect(await check(p)).toMatchObject({ result: false, refundAmount: 0 });
  expect((await t.get(p, '/api/refund/banners')).json()).toEqual({ banners: [] });
});

test('nothing played: 422 REFUND_MINIMUM', async () => {
  const p = await t.player();
  expect(await check(p)).toMatchObject({ result: false, bonus: false, refundAmount: 0 });
  const r = await receive(p);
  expect([r.statusCode, r.json()]).toEqual([422, { message: 'REFUND_MINIMUM' }]);
});

test('POST /api/refund lists the refunds newest first, 10 a page by default', async () => {
  const p = await t.player({ balance: satang(2400), games: ['pg'] });
  await t.toGame(p, 'pg', 2400);
  for (let i = 1; i <= 12; i++) {
    await t.play(p, 'pg', 20 * i, 'lose'); // 5% of 20 x i
    await t.app.bonus.pollNow();
    expect((await receive(p)).statusCode).toBe(200);
  }
  const page1 = (await t.app.inject({ method: 'POST', url: '/api/refund', headers: p.headers, payload: { page: 1 } })).json();
  expect(page1.total).toBe(12);
  expect(page1.refunds).toHaveLength(10);
  expect(page1.refunds[0]).toEqual({ refundAmount: 12, createdAt: expect.any(String) });
  const page2 = (await t.app.inject({ method: 'POST', url: '/api/refund', headers: p.headers, payload: { page: 2, limit: 10 } })).json();
  expect(page2.refunds.map((r: { refundAmount: number }) => r.refundAmount)).toEqual([2, 1]);
  const bad = await t.app.inject({ method: 'POST', url: '/api/refund', headers: p.headers, payload: { page: 0 } });
  expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
});

test('GET /api/refund/banners answers the configured banners', async () => {
  const p = await t.player();
  expect((await t.get(p, '/api/refund/banners')).json()).toEqual({ banners: [{ image: '/games/pg-bg.svg', html: { th: 'r', la: 'r', en: 'r' } }] });
});
