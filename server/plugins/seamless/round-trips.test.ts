import { isPostgres } from '../../db/portable';
import { expectWithinBudget as withinBudget, roundTripsDuring } from '../../test/support/pg-round-trips';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { betBody, seamlessPlayer, signedCall, winBody } from '../../test/support/seamless';

/**
 * Issue 43: the round trips to PostgreSQL of a seamless bet and of its win (docs/seamless-wallet.md "Cost of a call"),
 * held to the money paths' budget of 6. Each is BEGIN, the player lock, the context read, the journal entry (one
 * statement, ledger_post), the round with its statement line and transaction row (one statement), COMMIT: 6 (was 9).
 * SQLite counts statements, not round trips: cost.test.ts.
 */
const BUDGET = 6;
const onPostgres = !!process.env.DATABASE_URL;

/** Fails above the budget with the SQL of every round trip in the message (pg-round-trips.ts). */
const expectWithinBudget = (trips: Parameters<typeof withinBudget>[0]) => withinBudget(trips, BUDGET, 'a seamless call');

// PostgreSQL only: round trips are PostgreSQL's; on SQLite a statement is a function call (cost.test.ts counts them).
(onPostgres ? describe : describe.skip)('a seamless bet and its win on PostgreSQL', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await buildWalletTestApp();
    expect(isPostgres(t.db.db)).toBe(true);
  });
  afterAll(async () => {
    await t.close();
  });

  test(`each makes at most ${BUDGET} round trips`, async () => {
    const p = await seamlessPlayer(t.app, { balance: 10_000 });
    await signedCall(t.app, '/transaction/bet', betBody(p, 100)); // the wallet and house accounts exist from here on
    const bet = betBody(p, 1_000);
    const b = await roundTripsDuring(() => signedCall(t.app, '/transaction/bet', bet));
    expect(b.result.body).toMatchObject({ status: 'RS_OK', balance: expect.any(Number) });
    expectWithinBudget(b.trips);
    const w = await roundTripsDuring(() => signedCall(t.app, '/transaction/win', winBody(p, bet, 500)));
    expect(w.result.body.status).toBe('RS_OK');
    expectWithinBudget(w.trips);
  });
});
