import type { RefundCheck } from './refundApi';

/**
 * What the refund modal offers (spec §2 Refund modal, §5):
 * - nothing: no refund (the check says so, or the amount is not above 0 baht): the not-found text;
 * - blocked: there is a refund but a bonus is active: receive is disabled and two condition lines say why;
 * - open: receive is enabled.
 */
export type RefundOffer = { kind: 'nothing' } | { kind: 'blocked'; amount: number } | { kind: 'open'; amount: number };

export function selectRefundOffer(check: Pick<RefundCheck, 'result' | 'bonus' | 'refundAmount'>): RefundOffer {
  const amount = Number(check.refundAmount);
  if (!check.result || !Number.isFinite(amount) || amount <= 0) return { kind: 'nothing' };
  return check.bonus ? { kind: 'blocked', amount } : { kind: 'open', amount };
}
