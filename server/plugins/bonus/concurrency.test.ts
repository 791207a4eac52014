import { walletBalance } from '../../ledger';
import { testEngine } from '../../test/support/helper';
import { buildBonusTestApp, satang, type BonusTestApp, type TestPlayer } from '../../test/support/bonus';

/**
 * The same bonus, promotion, clear or refund requested 50 times at once succeeds exactly once (the player's row
 * lock on PostgreSQL, the single writer on SQLite, and the unique active bonus per player underneath), a budget
 * shared by 50 players is never overspent, and the ledger audit holds after each.
 */
let t: BonusTestApp;
beforeAll(async () => {
  t = await buildBonusTestApp();
  await t.refund({ isActive: true, refundSuccess: 5, refundFail: 10 });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.audit()).toEqual([]);
});

const N = 50;
const all = (p: TestPlayer, url: string) => Promise.all(Array.from({ length: N }, () => t.get(p, url)));
const tally = (answers: { statusCode: number; json(): { message?: string } }[]) => {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.statusCode === 200 ? '200' : `${a.statusCode} ${a.json().message}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
};

test(`the same bonus ${N} times at once: one activation, ${N - 1} BONUS_ALREADY_ACTIVE, one credit`, async () => {
  await t.define('bonus', { code: 'RACE1', type: 'limit', maxReceived: 100 });
  const p = await t.player({ balance: satang(1000) });
  const started = Date.now();
  const answers = await all(p, '/api/bonus/activate/RACE1');
  expect(tally(answers)).toEqual({ '200': 1, '422 BONUS_ALREADY_ACTIVE': N - 1 });
  expect(await walletBalance(t.db.db, p.id)).toBe(satang(1100));
  expect(await t.db.db.selectFrom('user_bonuses').select('id').where('player_id', '=', p.id).execute()).toHaveLength(1);
  console.log(`[${testEngine()}] ${N} concurrent activations: ${Date.now() - started} ms`);
}, 60_000);

test(`the same promotion ${N} times at once: received once`, async () => {
  await t.define('promotion', { code: 'RACEPROMO', percent: 20 });
  const p = await t.player({ balance: satang(1000) });
  const answers = await all(p, '/api/promotion/activate/racepromo');
  expect(tally(answers)).toEqual({ '200': 1, '422 BONUS_ALREADY_ACTIVE': N - 1 });
  expect(await walletBalance(t.db.db, p.id)).toBe(satang(1200));
  // Cleared, then raced again: still once per player.
  await t.get(p, '/api/bonus/clear');
  expect(tally(await all(p, '/api/promotion/activate/RACEPROMO'))).toEqual({ '409 PROMOTION_RECEIVED': N });
}, 60_000);

test(`clear ${N} times at once: one BONUS_CLEAR, the bonus taken back once`, async () => {
  await t.define('bonus', { code: 'RACE2' });
  const p = await t.player({ balance: satang(1000) });
  await t.get(p, '/api/bonus/activate/RACE2');
  const answers = await all(p, '/api/bonus/clear');
  expect(tally(answers)).toEqual({ '200': 1, '404 NO_DATA': N - 1 });
  expect(await walletBalance(t.db.db, p.id)).toBe(satang(1000));
}, 60_000);

test(`refund receive ${N} times at once: paid once, ${N - 1} REFUND_MINIMUM`, async () => {
  const p = await t.player({ balance: satang(1000), games: ['pg'] });
  await t.toGame(p, 'pg', 1000);
  await t.play(p, 'pg', 100, 'lose', 10);
  await t.app.bonus.pollNow();
  const answers = await all(p, '/api/refund/receive');
  expect(tally(answers)).toEqual({ '200': 1, '422 REFUND_MINIMUM': N - 1 });
  expect(await walletBalance(t.db.db, p.id)).toBe(satang(50));
  expect(await t.db.db.selectFrom('refunds').select('id').where('player_id', '=', p.id).execute()).toHaveLength(1);
}, 60_000);

test(`${N} players racing for a budget that pays 10 bonuses: exactly 10 paid, the rest BONUS_FULL`, async () => {
  await t.define('bonus', { code: 'RACE3', percent: 10, budget: 1000 });
  const players = await Promise.all(Array.from({ length: N }, () => t.player({ balance: satang(1000) })));
  const answers = await Promise.all(players.map((p) => t.get(p, '/api/bonus/activate/RACE3')));
  expect(tally(answers)).toEqual({ '200': 10, '422 BONUS_FULL': N - 10 });
  const budget = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'bonus_budget:RACE3:THB').executeTakeFirstOrThrow();
  expect(Number(budget.balance)).toBe(-satang(1000));
}, 60_000);

test('activations racing a wagering pass and clears keep the books straight', async () => {
  await t.define('bonus', { code: 'RACE4', maxReceived: 100 });
  const p = await t.player({ balance: satang(1000), games: ['pg'] });
  const work: Promise<unknown>[] = [];
  for (let i = 0; i < 10; i++) {
    work.push(t.get(p, '/api/bonus/activate/RACE4'), t.app.bonus.pollNow(), t.get(p, '/api/bonus/clear'));
  }
  await Promise.all(work);
  const rows = await t.db.db.selectFrom('user_bonuses').select(['status']).where('player_id', '=', p.id).execute();
  expect(rows.filter((r) => r.status === 'ACTIVE').length).toBeLessThanOrEqual(1);
}, 60_000);

test('a withdrawal racing an activation: never both (the bonus gate is checked under the player lock)', async () => {
  await t.define('bonus', { code: 'RACEWD', type: 'limit', maxReceived: 1000 });
  const post = (p: TestPlayer, amount: number) =>
    t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: { ...p.headers, 'content-type': 'application/json' }, payload: { amount } });
  for (let round = 0; round < 10; round += 1) {
    const p = await t.player({ balance: satang(1000) });
    const [activated, ...withdrawals] = await Promise.all([t.get(p, '/api/bonus/activate/RACEWD'), ...Array.from({ length: 5 }, () => post(p, 100))]);
    const withdrew = withdrawals.filter((w) => w.statusCode === 200).length;
    const where = `round ${round}: activation ${activated.statusCode}, withdrawals ${withdrawals.map((w) => w.statusCode).join(',')}`;
    expect([where, activated.statusCode]).toEqual([where, 200]);
    // Serialized, the activation saw the wallet after the k withdrawals that came before it, and every later one
    // was refused: so the balance it started from is 1000 - 100 x (withdrawals that went through).
    const bonus = await t.db.db.selectFrom('user_bonuses').select(['amount', 'start_amount']).where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect([where, Number(bonus.start_amount) - Number(bonus.amount)]).toEqual([where, satang(1000 - 100 * withdrew)]);
    for (const w of withdrawals.filter((x) => x.statusCode !== 200)) expect([where, w.json()]).toEqual([where, { message: 'BONUS_CONDITION' }]);
  }
}, 120_000);
