import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { ReviewKind, ReviewStatus } from '../../db/schema-backoffice';
import { writeStatement } from '../../ledger';
import { toBaht } from '../../ledger/money';
import { recordReview, type ReviewInput } from './review-record';
import { statementRef } from '../../../shared/statement-ref';

/**
 * Money that arrived and waits for staff is never invisible to its player (issue 40 item 2): with the review, in
 * its transaction, a `deposit` statement line IN_PROGRESS (ref_type `review`, ref_id the review id) that staff's
 * decision moves to SUCCESS or FAILED (server/plugins/backoffice/reviews.ts), and a push to the player's room once
 * committed. A held deposit (DEPOSIT_LIMIT) already has its line (ref_type `hold`).
 */

/** What a player is told of a payment under review: on the socket, in GET /api/qrcode/{bank} `last.review`. */
export interface ReviewNotice {
  status: ReviewStatus;
  kind: ReviewKind;
  /** Baht: what arrived. */
  amount: number;
  /** The statement line's short reference (shared/statement-ref.ts); '' when the review has no line (recorded before issue 40). */
  ref: string;
}

/** Records the review and, when it has a player, its IN_PROGRESS statement line. Returns the review id, or null when already recorded. */
export async function recordPaymentReview(trx: Transaction<DB>, r: ReviewInput & { from: string }): Promise<string | null> {
  const id = await recordReview(trx, r);
  if (id && r.playerId !== null) {
    await writeStatement(trx, { playerId: r.playerId, type: 'deposit', status: 'IN_PROGRESS', from: r.from, to: 'WALLET', amount: r.amount, currency: r.currency, refType: 'review', refId: id });
  }
  return id;
}

/**
 * The statement line a review is about, wherever it is in its life: its own (`review`), a held deposit's (`hold`),
 * or either after an approval turned it into the deposit's line (`deposit`, `review:{id}`, credit.ts).
 */
export async function reviewLine(db: Kysely<DB> | Transaction<DB>, review: { id: string; kind: ReviewKind; subject_id: string | null }) {
  return db
    .selectFrom('statements')
    .select(['id', 'statement_type', 'created_at', 'ref_type', 'ref_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('ref_type', '=', 'review'), eb('ref_id', '=', review.id)]),
        eb.and([eb('ref_type', '=', 'deposit'), eb('ref_id', '=', `review:${review.id}`)]),
        ...(review.kind === 'DEPOSIT_LIMIT' && review.subject_id ? [eb.and([eb('ref_type', '=', 'hold'), eb('ref_id', '=', review.subject_id)])] : []),
      ]),
    )
    .executeTakeFirst();
}

/** The notice of a review by its id (after its transaction committed), or null. */
export async function reviewNotice(db: Kysely<DB>, reviewId: string): Promise<(ReviewNotice & { playerId: number | null }) | null> {
  const r = await db.selectFrom('payment_reviews').select(['id', 'kind', 'source', 'subject_id', 'status', 'amount', 'player_id']).where('id', '=', reviewId).executeTakeFirst();
  // Money that arrived only: a payout review (a withdrawal the gateway contradicted) is told by the withdrawal's own line.
  if (!r || r.source === 'payout') return null;
  const line = await reviewLine(db, r);
  return {
    playerId: r.player_id === null ? null : Number(r.player_id),
    status: r.status,
    kind: r.kind,
    amount: toBaht(Number(r.amount)),
    ref: line ? statementRef({ _id: String(line.id), statementType: line.statement_type, createdAt: line.created_at }) : '',
  };
}

/**
 * The newest review of a QR's money: a payment the webhook did not credit (subject the QR), or the QR's deposit held
 * by a limit (subject the hold). Null when the QR's money never went to staff.
 */
export async function qrReviewNotice(db: Kysely<DB>, qrId: string): Promise<ReviewNotice | null> {
  const hold = await db.selectFrom('deposit_holds').select('id').where('source', '=', 'qr').where('ref_id', '=', qrId).executeTakeFirst();
  const r = await db
    .selectFrom('payment_reviews')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('source', '=', 'qr'), eb('subject_id', '=', qrId)]),
        ...(hold ? [eb.and([eb('kind', '=', 'DEPOSIT_LIMIT'), eb('subject_id', '=', hold.id)])] : []),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!r) return null;
  const notice = await reviewNotice(db, r.id);
  if (!notice) return null;
  const { playerId: _playerId, ...rest } = notice;
  return rest;
}

/** Pushes a review's notice to its player's room (`wallet {reason: 'review', review}`); a failed push loses nothing (the statement has it). */
export async function tellReview(ctx: { db: Kysely<DB>; tell?: (playerId: number, data: unknown) => void; log: FastifyBaseLogger }, reviewId: string): Promise<void> {
  try {
    const notice = await reviewNotice(ctx.db, reviewId);
    if (!notice || notice.playerId === null) return;
    const { playerId, ...review } = notice;
    ctx.tell?.(playerId, { reason: 'review', review });
  } catch (err) {
    ctx.log.warn({ err: (err as Error)?.message, reviewId }, 'review push failed');
  }
}
