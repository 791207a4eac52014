import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { ReviewKind, ReviewSource } from '../../db/schema-backoffice';

export interface ReviewInput {
  kind: ReviewKind;
  source: ReviewSource;
  /** qrcodeId, the slip's bank reference, the gift voucher id, or the webhook's unknown reference. */
  reference: string;
  /** The payment event that brought the money (webhook kinds). */
  eventId?: string;
  /** What approving settles: the qr id, the hold id or the slip id. */
  subjectId?: string | null;
  playerId: number | null;
  /** Satang, what actually arrived. */
  amount: number;
  currency: string;
  now: Date;
}

/**
 * Records a payment for staff (docs/staff.md "Back office: payments under review and payouts"), inside the
 * transaction that records the payment itself, so both land or neither. A second record of the same payment
 * (source, reference, kind, event) is ignored: one slip transfer uploaded again by a player who does not own it
 * stays one review. Returns the review id, or null when it was already recorded.
 */
export async function recordReview(trx: Transaction<DB>, r: ReviewInput): Promise<string | null> {
  const id = `rev_${crypto.randomBytes(16).toString('hex')}`;
  const at = r.now.toISOString();
  const res = await trx
    .insertInto('payment_reviews')
    .values({
      id,
      kind: r.kind,
      source: r.source,
      reference: r.reference,
      event_id: r.eventId ?? '',
      subject_id: r.subjectId ?? null,
      player_id: r.playerId,
      amount: r.amount,
      currency: r.currency,
      status: 'OPEN',
      decided_by: null,
      decided_at: null,
      reason: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['source', 'reference', 'kind', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
}
