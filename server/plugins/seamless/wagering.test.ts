import { runAudit, walletBalance } from '../../ledger';
import { buildBonusTestApp, type BonusTestApp } from '../../test/support/bonus';
import { betBody, rollbackBody, seamlessPlayer, signedCall, winBody } from '../../test/support/seamless';

/**
 * Seamless rounds count where play counts (docs/seamless-wallet.md "Rounds"): refunds of losses wait for a round's
 * closing win (bet_rounds.open), a bet's stake wagers the deposits that wait for turnover (wheel coins, invite
 * earnings), and the loss limit reads the rounds (limits.test.ts).
 */

let t: BonusTestApp;
beforeAll(async () => {
  t = await buildBonusTestApp();
  await t.refund({ isActive: true, refundSuccess: 10, refundFail: 10 });
});
afterAll(async () => {
  expect((await runAudit(t.app.db)).violations).toEqual([]);
  await t.close();
});

const call = async (path: string, body: Record<string, unknown>) => (await signedCall(t.app, path, body)).body;

test('a refund counts closed seamless rounds only: an open round waits for its win and is counted by a later refund', async () => {
  const p = await seamlessPlayer(t.app, { balance: 100_000 });
  const lost = betBody(p, 10_000);
  await call('/transaction/bet', lost);
  await call('/transaction/win', winBody(p, lost, 0));
  const open = betBody(p, 20_000);
  await call('/transaction/bet', open);
  // Only the closed round's 100 baht loss counts: 10 %.
  const check = await t.app.inject({ method: 'GET', url: '/api/refund/check', headers: p.headers });
  expect(check.json()).toMatchObject({ result: true, refundAmount: 10 });
  const got = await t.app.inject({ method: 'GET', url: '/api/refund/receive', headers: p.headers });
  expect([got.statusCode, got.json()]).toEqual([200, { message: 'REFUND_SUCCESS', amount: 10 }]);
  const rounds = await t.app.db.selectFrom('bet_rounds').select(['bet', 'open', 'refund_id']).where('player_id', '=', p.id).orderBy('id').execute();
  expect(rounds.map((r) => [Number(r.bet), Number(r.open), r.refund_id === null])).toEqual([
    [10_000, 0, false],
    [20_000, 1, true],
  ]);
  // The open round closes with a small win: its net loss (150 baht) goes to the next refund.
  await call('/transaction/win', winBody(p, open, 5_000));
  expect((await t.app.inject({ method: 'GET', url: '/api/refund/check', headers: p.headers })).json()).toMatchObject({ refundAmount: 15 });
  expect(await walletBalance(t.app.db, p.id)).toBe(100_000 - 10_000 - 20_000 + 5_000 + 1_000);
});

test("a bet's stake wagers the deposits waiting for turnover; a free bet does not", async () => {
  const p = await seamlessPlayer(t.app, { balance: 50_000 });
  const at = new Date(Date.now() - 60_000).toISOString();
  await t.app.db
    .insertInto('deposit_turnover')
    .values({ player_id: p.id, purpose: 'coins', deposit_ref: `deposit:seamless-${p.id}`, deposited_at: at, required: 3_000, coins: 2, met_at: null, created_at: at })
    .execute();
  await call('/transaction/bet', betBody(p, 5_000, { is_free: true }));
  const waiting = await t.app.db.selectFrom('deposit_turnover').select(['wagered', 'met_at']).where('player_id', '=', p.id).executeTakeFirstOrThrow();
  expect([Number(waiting.wagered), waiting.met_at]).toEqual([0, null]);
  const b = betBody(p, 2_000);
  await call('/transaction/bet', b);
  await call('/transaction/bet', betBody(p, 1_500));
  const met = await t.app.db.selectFrom('deposit_turnover').select(['wagered', 'met_at']).where('player_id', '=', p.id).executeTakeFirstOrThrow();
  expect(Number(met.wagered)).toBe(3_000);
  expect(met.met_at).not.toBeNull();
  const coins = await t.app.db.selectFrom('players').select('coin').where('id', '=', p.id).executeTakeFirstOrThrow();
  expect(Number(coins.coin)).toBe(2);
  // A rolled-back bet gives its stake back; the turnover it did stays counted (docs/seamless-wallet.md "Rollbacks").
  expect((await call('/transaction/rollback', rollbackBody(p, b))).status).toBe('RS_OK');
  expect(await walletBalance(t.app.db, p.id)).toBe(50_000 - 1_500);
});

test('seamless bets count toward the active bonus: the round carries it, the engine sees its turnover and ends it SUCCESS', async () => {
  await t.define('bonus', { code: 'SEAMLESS1', percent: 10, cap: 500, turnoverMultiple: 1, percentFail: 10 });
  const p = await seamlessPlayer(t.app, { balance: 100_000 });
  const got = await t.app.inject({ method: 'GET', url: '/api/bonus/activate/SEAMLESS1', headers: p.headers });
  expect(got.statusCode).toBe(200);
  // 1,000 baht + 100 bonus: a turnover of 1,100 baht finishes it (turnoverMultiple 1).
  const b1 = betBody(p, 60_000);
  await call('/transaction/bet', b1);
  await call('/transaction/win', winBody(p, b1, 60_000));
  const marked = await t.app.db.selectFrom('user_bonuses').select(['id', 'needs_check', 'status']).where('player_id', '=', p.id).executeTakeFirstOrThrow();
  expect(Number(marked.needs_check)).toBeGreaterThan(0);
  const round = await t.app.db.selectFrom('bet_rounds').select('user_bonus_id').where('player_id', '=', p.id).executeTakeFirstOrThrow();
  expect(Number(round.user_bonus_id)).toBe(Number(marked.id));
  await t.app.bonus.pollNow();
  const active = (await t.app.inject({ method: 'GET', url: '/api/bonus/check/active', headers: p.headers })).json();
  expect(active).toMatchObject({ status: true, progress: { code: 'SEAMLESS1', turnover: 600, target: 1100 } });
  const b2 = betBody(p, 50_000);
  await call('/transaction/bet', b2);
  await call('/transaction/win', winBody(p, b2, 0));
  await t.app.bonus.pollNow();
  const ended = await t.app.db.selectFrom('user_bonuses').select('status').where('id', '=', Number(marked.id)).executeTakeFirstOrThrow();
  expect(ended.status).toBe('SUCCESS');
});
