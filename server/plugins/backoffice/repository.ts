import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { PaymentReviewsTable, ReviewStatus } from '../../db/schema-backoffice';
import { isPostgres } from '../../db/portable';

/** SQL of the back office. Every function takes the database or a transaction first and returns rows. */
type Db = Kysely<DB> | Transaction<DB>;

// Reviews.

function reviewQuery(db: Kysely<DB>) {
  return db
    .selectFrom('payment_reviews as r')
    .leftJoin('players as p', 'p.id', 'r.player_id')
    .leftJoin('staff_users as s', 's.id', 'r.decided_by')
    .selectAll('r')
    .select(['p.phone as player_phone', 'p.name as player_name', 's.username as staff_username', 's.name as staff_name']);
}
export type ReviewRow = Awaited<ReturnType<ReturnType<typeof reviewQuery>['executeTakeFirstOrThrow']>>;

/** Reviews of one status, newest first, at most `limit`. */
export function listReviewRows(db: Kysely<DB>, status: ReviewStatus, limit: number): Promise<ReviewRow[]> {
  return reviewQuery(db).where('r.status', '=', status).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
}

export function findReviewRow(db: Kysely<DB>, id: string): Promise<ReviewRow | undefined> {
  return reviewQuery(db).where('r.id', '=', id).executeTakeFirst();
}

/** The review row for a decision, locked for the rest of the transaction on PostgreSQL. */
export function lockReview(trx: Transaction<DB>, id: string) {
  let q = trx.selectFrom('payment_reviews').selectAll().where('id', '=', id);
  if (isPostgres(trx)) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Moves an OPEN review to its decision; false when it was no longer OPEN (another decision went first). */
export async function decideOpenReview(
  trx: Transaction<DB>,
  id: string,
  d: { status: 'APPROVED' | 'REJECTED'; staffId: number; reason: string; now: string },
): Promise<boolean> {
  const res = await trx
    .updateTable('payment_reviews')
    .set({ status: d.status, decided_by: d.staffId, decided_at: d.now, reason: d.reason, updated_at: d.now })
    .where('id', '=', id)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export function qrBankCode(trx: Transaction<DB>, qrId: string) {
  return trx.selectFrom('qr_deposits').select('bank_code').where('id', '=', qrId).executeTakeFirst();
}

export function playerBankCode(trx: Transaction<DB>, playerId: number) {
  return trx.selectFrom('players').select('bank_code').where('id', '=', playerId).executeTakeFirstOrThrow();
}

/** Whether the review has its own statement line (written with it since issue 40; older reviews have none). */
export async function hasReviewLine(trx: Transaction<DB>, reviewId: string): Promise<boolean> {
  const row = await trx.selectFrom('statements').select('id').where('ref_type', '=', 'review').where('ref_id', '=', reviewId).executeTakeFirst();
  return Boolean(row);
}

export function findHold(trx: Transaction<DB>, id: string) {
  return trx.selectFrom('deposit_holds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A HELD deposit hold decided. */
export async function decideHold(trx: Transaction<DB>, id: string, status: 'APPROVED' | 'REJECTED', now: string): Promise<void> {
  await trx.updateTable('deposit_holds').set({ status, updated_at: now }).where('id', '=', id).where('status', '=', 'HELD').execute();
}

/** The money a held payment brought is let through: its QR paid, its slip or gift a success. */
export async function releaseHeldPayment(trx: Transaction<DB>, hold: { source: string; ref_id: string }, now: string): Promise<void> {
  if (hold.source === 'qr') await trx.updateTable('qr_deposits').set({ status: 'PAID', updated_at: now }).where('id', '=', hold.ref_id).where('status', '=', 'REVIEW').execute();
  if (hold.source === 'slip') await trx.updateTable('slips').set({ status: 'SUCCESS', note: null, updated_at: now }).where('id', '=', hold.ref_id).execute();
  if (hold.source === 'gift') await trx.updateTable('gift_redemptions').set({ status: 'SUCCESS', reason: null, updated_at: now }).where('id', '=', hold.ref_id).execute();
}

/** The held slip or gift stops counting as in progress (NOT_MATCH window, deposit usage); a QR stays REVIEW. */
export async function failHeldPayment(trx: Transaction<DB>, hold: { source: string; ref_id: string }, now: string): Promise<void> {
  if (hold.source === 'slip') await trx.updateTable('slips').set({ status: 'FAILED', note: 'DEPOSIT_LIMIT', updated_at: now }).where('id', '=', hold.ref_id).where('status', '=', 'IN_PROGRESS').execute();
  if (hold.source === 'gift') await trx.updateTable('gift_redemptions').set({ status: 'FAILED', updated_at: now }).where('id', '=', hold.ref_id).where('status', '=', 'IN_PROGRESS').execute();
}

/** The slip a review approves, claiming its bank reference (a unique claim: a second credit of it fails). */
export async function claimSlip(trx: Transaction<DB>, slipId: string, reference: string, now: string): Promise<void> {
  await trx.updateTable('slips').set({ status: 'SUCCESS', note: null, reference_claim: reference, updated_at: now }).where('id', '=', slipId).execute();
}

/** A QR in review, expired or cancelled, paid by the review's money. */
export async function payQr(trx: Transaction<DB>, qrId: string, r: Pick<PaymentReviewsTable, 'amount' | 'event_id'>, now: string): Promise<void> {
  await trx
    .updateTable('qr_deposits')
    .set({ status: 'PAID', paid_amount: Number(r.amount), paid_event_id: r.event_id || null, live_player_id: null, updated_at: now })
    .where('id', '=', qrId)
    .where('status', 'in', ['REVIEW', 'EXPIRED', 'CANCELLED'])
    .execute();
}

/** An IN_PROGRESS statement line (of a hold or a review) ends FAILED with the reason. */
export async function failStatementLine(trx: Transaction<DB>, refType: 'hold' | 'review', refId: string, note: string, now: string): Promise<void> {
  await trx.updateTable('statements').set({ status: 'FAILED', note, updated_at: now }).where('ref_type', '=', refType).where('ref_id', '=', refId).execute();
}

// Payouts.

/** Withdrawals in progress (requested at or before `requestedBy` when given), oldest first, at most `limit`. */
export function listPayoutRows(db: Kysely<DB>, requestedBy: string | undefined, limit: number) {
  let q = db
    .selectFrom('withdrawals as w')
    .innerJoin('players as p', 'p.id', 'w.player_id')
    .select(['w.id', 'w.player_id', 'w.amount', 'w.currency', 'w.bank_code', 'w.bank_account_no', 'w.bank_account_name', 'w.created_at', 'p.phone', 'p.name'])
    .where('w.status', '=', 'IN_PROGRESS');
  if (requestedBy !== undefined) q = q.where('w.created_at', '<=', requestedBy);
  return q.orderBy('w.created_at', 'asc').orderBy('w.id', 'asc').limit(limit).execute();
}

export function withdrawalStatus(db: Kysely<DB>, id: string) {
  return db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirst();
}

// Players.

export function findPlayerForLookup(db: Kysely<DB>, phone: string) {
  return db
    .selectFrom('players')
    .select(['id', 'phone', 'name', 'status', 'currency', 'coin', 'created_at', 'bank_code', 'bank_account_no', 'bank_account_name'])
    .where('phone', '=', phone)
    .executeTakeFirst();
}

/** Every game of these codes, active or not, in the games' order. */
export function gameNames(db: Kysely<DB>, codes: string[]) {
  return db.selectFrom('games').select(['code', 'name']).where('code', 'in', codes).orderBy('sort').orderBy('code').execute();
}

/** The newest `player.status` audit row of the player, with the role of the staff account that wrote it. */
export function lastStatusChange(db: Db, playerId: number) {
  return db
    .selectFrom('staff_audit as a')
    .innerJoin('staff_users as s', 's.id', 'a.staff_id')
    .select(['a.detail', 's.role'])
    .where('a.action', '=', 'player.status')
    .where('a.subject_type', '=', 'player')
    .where('a.subject_id', '=', String(playerId))
    .orderBy('a.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function playerStatus(trx: Transaction<DB>, id: number) {
  return trx.selectFrom('players').select(['status']).where('id', '=', id).executeTakeFirst();
}

export async function setPlayerStatus(trx: Transaction<DB>, id: number, status: 'active' | 'inactive', now: string): Promise<void> {
  await trx.updateTable('players').set({ status, updated_at: now }).where('id', '=', id).execute();
}
