import { isPostgres } from '../../db/portable';
import { expectWithinBudget as withinBudget, roundTripsDuring } from '../../test/support/pg-round-trips';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { createPlayer, eventId, expectLedgerOk, signedEvent } from '../../test/support/deposits';

/**
 * Issue 43: the round trips to PostgreSQL of a QR deposit credited by the signed payment webhook (docs/deposits.md
 * "Round trips"), held to the money paths' budget of 6: the event's outcome and the rules (one read), BEGIN, the QR
 * locked with its player, the deposit limits, the credit as one movement (entry, statement line, QR PAID, event row),
 * the wheel coins' turnover row, COMMIT (was 20; 24 on a player's first deposit). SQLite counts statements, not round
 * trips: a statement there is a function call.
 */
const BUDGET = 6;

/** Fails above the budget with the SQL of every round trip in the message (pg-round-trips.ts). */
const expectWithinBudget = (trips: Parameters<typeof withinBudget>[0]) => withinBudget(trips, BUDGET, 'a QR credited by the webhook');

// PostgreSQL only: round trips are PostgreSQL's; on SQLite the webhook's behaviour is webhook.test.ts's, on both engines.
(process.env.DATABASE_URL ? describe : describe.skip)('a QR deposit credited by the payment webhook on PostgreSQL', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await buildWalletTestApp();
    expect(isPostgres(t.db.db)).toBe(true);
  });
  afterAll(async () => {
    await t.close();
  });

  test(`makes at most ${BUDGET} round trips, on the player's first deposit and after`, async () => {
    const p = await createPlayer(t.app);
    for (const amount of [150, 100.5]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount } });
      expect(res.statusCode).toBe(200);
      const { trips } = await roundTripsDuring(async () => {
        const r = await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: res.json().qrcodeId, amount }));
        expect(r.json()).toMatchObject({ outcome: 'CREDITED' });
      });
      expectWithinBudget(trips);
    }
    await expectLedgerOk(t.app);
  });
});
