import { expectWithinBudget, roundTripsDuring } from '../../test/support/pg-round-trips';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';

/**
 * Issue 43: a wallet <-> game transfer on PostgreSQL makes at most 6 round trips (27 before it: the Idempotency-Key's
 * own statements, BEGIN and COMMIT around each transaction, the ledger's lock, entry, balances and postings one by
 * one). Now: the session, the play limits and restriction (one statement), the game account (with the currency), the
 * opening movement (one statement: the key's claim, the transfer row, the statement line, ledger_post), the closing
 * one (the row off pending, the line's status, the key's answer, ledger_post). Game -> wallet reads the mirror
 * instead of the limits, and posts a win or loss found there in one more. The game simulator's own statements (it
 * stands for an outside provider) are not counted. SQLite has no round trips: transfer-reads.test.ts holds its
 * statements.
 */
const onPostgres = !!process.env.DATABASE_URL;
const BUDGET = 6;
// Round trips are a PostgreSQL measure; on SQLite the statements are counted by transfer-reads.test.ts.
(onPostgres ? describe : describe.skip)('PostgreSQL round trips of a transfer', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await buildWalletTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const transfer = (p: { headers: Record<string, string> }, from: string, to: string, amount: number, key?: string) =>
    t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: key ? { ...p.headers, 'idempotency-key': key } : p.headers, payload: { from, to, amount } });

  it.each([
    ['without an Idempotency-Key', undefined],
    ['with an Idempotency-Key, as the SPA sends it', 'rt-key-1'],
  ])('wallet -> game, %s: at most 6, and it moved the money', async (_, key) => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    const { result: res, trips } = await roundTripsDuring(() => transfer(p, 'WALLET', 'pg', 12, key));
    expect([res.statusCode, res.json().status]).toEqual([200, 'SUCCESS']);
    expectWithinBudget(trips, BUDGET, 'POST /api/wallet/transfer WALLET -> pg');
    // One statement per movement: the two writes are the opening and the closing one, nothing between.
    expect(trips.filter((q) => /ledger_post\(/.test(q.text))).toHaveLength(2);
    expect(trips.some((q) => /^\s*(begin|commit)\b/i.test(q.text))).toBe(false);
    const wallet = await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers });
    expect(wallet.json().wallet.amount).toBe(88);
    if (key) {
      // The key's answer was stored in the closing statement: the same request again replays it, moving nothing.
      const again = await transfer(p, 'WALLET', 'pg', 12, key);
      expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([200, 'true']);
      expect((await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers })).json().wallet.amount).toBe(88);
    }
  });

  it('game -> wallet after a win at the provider: at most 6, the win booked and the money in the wallet', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    expect((await transfer(p, 'WALLET', 'pg', 50)).statusCode).toBe(200);
    // The player won 20 baht at the provider: the mirror is refreshed (a game_result entry) before the money leaves.
    await t.sim.deposit('pg', `pw${p.id}`, `win-${p.id}`, 20_00);
    const { result: res, trips } = await roundTripsDuring(() => transfer(p, 'pg', 'WALLET', 70, 'rt-key-2'));
    expect([res.statusCode, res.json().status]).toEqual([200, 'SUCCESS']);
    expectWithinBudget(trips, BUDGET, 'POST /api/wallet/transfer pg -> WALLET');
    expect(trips.filter((q) => /ledger_post\(/.test(q.text))).toHaveLength(3);
    expect((await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers })).json().wallet.amount).toBe(120);
  });
});
