import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { PaymentReviewsTable, ReviewKind } from '../../db/schema-backoffice';
import { conflict } from '../../errors';
import { postEntry, setStatementStatus, systemAccount, walletAccount } from '../../ledger';

/**
 * Reviews of a payout result the gateway reported after the opposite one was recorded (the payment webhook opens
 * them, docs/staff.md "Back office"). The webhook never moves money for them; a person decides:
 * approve = the gateway is right and the books follow it; reject = the gateway's event was wrong, nothing moves.
 */
export const PAYOUT_REVIEW_KINDS: ReadonlySet<ReviewKind> = new Set<ReviewKind>(['PAYOUT_PAID_AFTER_FAIL', 'PAYOUT_FAIL_AFTER_PAID']);

/**
 * Approving one, in the review's transaction under the player's lock. PAYOUT_PAID_AFTER_FAIL: the bank paid a payout
 * whose money had gone back to the wallet, so the wallet gives it up again (wallet -> payouts_paid; 422
 * MONEY_NOT_ENOUGH with nothing written when the player no longer holds it: recover it outside, then reject).
 * PAYOUT_FAIL_AFTER_PAID: the money never reached the player, so it comes back (payouts_paid -> wallet). Either way
 * the withdrawal and its statement line take the gateway's result. One entry per review (its reference is unique).
 */
export async function followGatewayResult(trx: Transaction<DB>, r: PaymentReviewsTable, now: string): Promise<void> {
  const paid = r.kind === 'PAYOUT_PAID_AFTER_FAIL';
  const withdrawalId = r.subject_id ?? r.reference;
  const to = paid ? 'SUCCESS' : 'FAILED';
  const res = await trx
    .updateTable('withdrawals')
    .set({ status: to, failure_reason: paid ? null : 'GATEWAY_PAYOUT_FAILED', updated_at: now })
    .where('id', '=', withdrawalId)
    .where('status', '=', paid ? 'FAILED' : 'SUCCESS')
    .executeTakeFirst();
  // Another decision on this withdrawal already moved it (the opposite review approved): nothing to follow.
  if (Number(res.numUpdatedRows) !== 1) throw conflict('PAYOUT_SETTLED');
  const wallet = walletAccount(Number(r.player_id));
  const paidOut = systemAccount('payouts_paid');
  const amount = Number(r.amount);
  await postEntry(trx, {
    kind: paid ? 'withdrawal_paid' : 'withdrawal_reversal',
    reference: `withdrawal:${withdrawalId}:review:${r.id}`,
    playerId: Number(r.player_id),
    memo: r.kind,
    postings: paid
      ? [{ account: wallet, amount: -amount }, { account: paidOut, amount }]
      : [{ account: paidOut, amount: -amount }, { account: wallet, amount }],
  });
  await setStatementStatus(trx, 'withdrawal', withdrawalId, to);
}
