import { buildTestApp, type TestApp } from '../../test/support/helper';
import { PayoutSimulator } from '../../adapters/payouts';
import { requestWithdrawal } from '../../plugins/wallet/withdrawals';
import { depositTo } from '../../test/support/ledger';
import { balanceOf, createPlayer, expectLedgerOk } from '../../test/support/deposits';

/**
 * The demo bank settles a payout through the simulated gateway, so the gateway's word agrees with the result: its
 * status tells the back office the same, and its own timer cannot later report the opposite (which would now open a
 * payment review, issue 39 row 4).
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const settle = (id: string, result: 'paid' | 'failed') =>
  t.app.inject({ method: 'POST', url: `/demo/bank/payouts/${id}/settle`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `result=${result}` });

test('a payout failed or paid at the demo bank is that at the simulated gateway too; nothing is left for its timer', async () => {
  const sim = t.app.wallet.payouts as PayoutSimulator;
  expect(sim).toBeInstanceOf(PayoutSimulator);
  const p = await createPlayer(t.app);
  await depositTo(t.app.db, p.id, 1000_00);
  const failed = await requestWithdrawal(t.app.wallet.withdrawDeps, p.id, 400_00);
  const paid = await requestWithdrawal(t.app.wallet.withdrawDeps, p.id, 100_00);
  expect(decodeURIComponent((await settle(failed.withdrawalId, 'failed')).headers.location as string)).toContain('PAYOUT_FAILED');
  expect(decodeURIComponent((await settle(paid.withdrawalId, 'paid')).headers.location as string)).toContain('PAYOUT_SUCCESS');
  expect(await sim.getPayoutStatus(failed.withdrawalId)).toBe('FAILED');
  expect(await sim.getPayoutStatus(paid.withdrawalId)).toBe('SUCCEEDED');
  expect(sim.pending().map((x) => x.withdrawalId)).not.toEqual(expect.arrayContaining([failed.withdrawalId]));
  expect(sim.pending().map((x) => x.withdrawalId)).not.toEqual(expect.arrayContaining([paid.withdrawalId]));
  expect(await balanceOf(t.app, p.id)).toBe(900_00);
  expect(await t.app.db.selectFrom('payment_reviews').select('id').where('reference', 'in', [failed.withdrawalId, paid.withdrawalId]).execute()).toEqual([]);
  await expectLedgerOk(t.app);
});
