import { postEntry, runAudit, walletAccount } from '../../ledger';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { betBody, rollbackBody, seamlessPlayer, signedCall, SEAMLESS_GAME, winBody } from '../../test/support/seamless';
import { seamlessHouseAccount } from './service';

/**
 * The ledger audit over seamless play (docs/seamless-wallet.md "The audit"): bets, wins, rollbacks, free bets and
 * refusals leave it clean; a house entry without its transaction, or a tampered posting, is caught.
 */

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function play() {
  const p = await seamlessPlayer(t.app, { balance: 10_000 });
  const b1 = betBody(p, 2_000);
  const b2 = betBody(p, 1_000);
  const free = betBody(p, 500, { is_free: true });
  for (const b of [b1, b2, free]) expect((await signedCall(t.app, '/transaction/bet', b)).body.status).toBe('RS_OK');
  expect((await signedCall(t.app, '/transaction/bet', betBody(p, 1_000_000))).body.status).toBe('RS_ERROR_NOT_ENOUGH_MONEY');
  expect((await signedCall(t.app, '/transaction/win', winBody(p, b1, 5_000))).body.status).toBe('RS_OK');
  expect((await signedCall(t.app, '/transaction/win', winBody(p, free, 700))).body.status).toBe('RS_OK');
  expect((await signedCall(t.app, '/transaction/rollback', rollbackBody(p, b2))).body.status).toBe('RS_OK');
  expect((await signedCall(t.app, '/transaction/rollback', rollbackBody(p, { transaction_uuid: 'never', round: 'r' }))).body.status).toBe('RS_OK');
  return p;
}

test('seamless play leaves the audit clean', async () => {
  await play();
  const report = await runAudit(t.app.db);
  expect(report.violations).toEqual([]);
  expect(report.stats.entries).toBeGreaterThan(4);
});

test('a house entry without its seamless transaction is caught', async () => {
  const p = await play();
  await t.app.db.transaction().execute((trx) =>
    postEntry(trx, {
      kind: 'seamless_bet',
      reference: 'seamless:hub88:forged',
      playerId: p.id,
      postings: [
        { account: walletAccount(p.id), amount: -100 },
        { account: seamlessHouseAccount(p.id, SEAMLESS_GAME), amount: 100 },
      ],
    }),
  );
  expect((await runAudit(t.app.db)).violations).toEqual([
    'seamless house accounts that do not match the seamless transactions (1)',
    expect.stringContaining('seamless_house (all games) in THB holds'),
  ]);
});

test('a tampered seamless posting is caught', async () => {
  await play();
  const posting = await t.app.db
    .selectFrom('ledger_postings')
    .innerJoin('journal_entries', 'journal_entries.id', 'ledger_postings.entry_id')
    .select('ledger_postings.id')
    .where('journal_entries.kind', '=', 'seamless_win')
    .orderBy('ledger_postings.id')
    .executeTakeFirstOrThrow();
  await t.app.db.updateTable('ledger_postings').set({ amount: 1 }).where('id', '=', posting.id).execute();
  const { violations } = await runAudit(t.app.db);
  expect(violations).toEqual(expect.arrayContaining([expect.stringContaining('entries that do not balance'), expect.stringContaining('balances that differ from the sum of their postings')]));
});
