import { isPostgres } from '../../db/portable';
import { walletBalance } from '../../ledger';
import { expectWithinBudget as withinBudget, roundTripsDuring } from '../../test/support/pg-round-trips';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';

/**
 * Issue 43: the round trips to PostgreSQL of POST /api/wallet/withdrawAll (docs/ledger.md), held to the money paths'
 * budget of 6: the session, the withdrawal's read (setting, player, wallet version), the bonus gate, the movement
 * (withdrawal row, statement line, entry, the key's claim: one statement), the payout's mark with its status; with
 * an Idempotency-Key the answer's row after (was 18, 20 with a key). SQLite counts statements, not round trips.
 */
const BUDGET = 6;

/** Fails above the budget with the SQL of every round trip in the message (pg-round-trips.ts). */
const expectWithinBudget = (trips: Parameters<typeof withinBudget>[0]) => withinBudget(trips, BUDGET, 'POST /api/wallet/withdrawAll');

// PostgreSQL only: round trips are PostgreSQL's; withdrawAll's behaviour is wallet.test.ts's and money-keys.test.ts's, on both engines.
(process.env.DATABASE_URL ? describe : describe.skip)('POST /api/wallet/withdrawAll on PostgreSQL', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await buildWalletTestApp();
    expect(isPostgres(t.db.db)).toBe(true);
  });
  afterAll(async () => {
    await t.close();
  });

  test(`makes at most ${BUDGET} round trips, with an Idempotency-Key or without`, async () => {
    const p = await t.player({ balance: 10_000_00 });
    const withdraw = (key?: string) =>
      t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: key ? { ...p.headers, 'idempotency-key': key } : p.headers, payload: { amount: 100 } });
    for (const key of [undefined, `rt-${Date.now()}`]) {
      const { trips } = await roundTripsDuring(async () => {
        const r = await withdraw(key);
        expect([r.statusCode, r.json().status]).toEqual([200, 'IN_PROGRESS']);
      });
      expectWithinBudget(trips);
    }
    expect(await walletBalance(t.db.db, p.id)).toBe(10_000_00 - 2 * 100_00);
  });
});
