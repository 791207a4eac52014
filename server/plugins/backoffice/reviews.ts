import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { PaymentReviewsTable, ReviewStatus } from '../../db/schema-backoffice';
import { isPostgres, isUniqueViolation } from '../../db/portable';
import { badRequest, conflict, notFound, unprocessable } from '../../errors';
import { toBaht } from '../../ledger/money';
import { writeStatement, lockPlayer } from '../../ledger';
import { creditDeposit, readDepositRules, tellReview } from '../deposits';
import { recordStaffAction } from '../staff';
import { followGatewayResult, PAYOUT_REVIEW_KINDS } from './reviews-payout';

/**
 * Back office: payments under review (docs/staff.md "Back office: payments under review and payouts"). Routes
 * under /api/staff/reviews, roles payments and admin. Approve credits through the deposit credit path once (a payout
 * review instead makes the books follow the gateway: reviews-payout.ts); reject moves no money and tells the player
 * why (a payout review tells nothing: the player's withdrawal line already shows the recorded result); each decision
 * and its audit row are one transaction.
 */

export interface ReviewView {
  id: string;
  kind: PaymentReviewsTable['kind'];
  source: PaymentReviewsTable['source'];
  reference: string;
  player: { id: number; phone: string; name: string } | null;
  amount: number;
  currency: string;
  createdAt: string;
  status: ReviewStatus;
  decidedBy: { id: number; username: string; name: string } | null;
  decidedAt: string | null;
  reason: string | null;
}

const STATUSES = ['OPEN', 'APPROVED', 'REJECTED'] as const;
/** The list answers at most this many reviews, newest first. */
export const REVIEW_LIST_LIMIT = 200;

const errorBody = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const;
const person = (extra: string) =>
  ({
    type: ['object', 'null'],
    properties: { id: { type: 'integer' }, [extra]: { type: 'string' }, name: { type: 'string' } },
    required: ['id', extra, 'name'],
  }) as const;
const reviewSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    kind: { type: 'string' },
    source: { type: 'string' },
    reference: { type: 'string' },
    player: person('phone'),
    amount: { type: 'number' },
    currency: { type: 'string' },
    createdAt: { type: 'string' },
    status: { type: 'string', enum: STATUSES },
    decidedBy: person('username'),
    decidedAt: { type: ['string', 'null'] },
    reason: { type: ['string', 'null'] },
  },
  required: ['id', 'kind', 'source', 'reference', 'player', 'amount', 'currency', 'createdAt', 'status', 'decidedBy', 'decidedAt', 'reason'],
} as const;
const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

/** Every staff action's body: {reason} trimmed, 1..500 characters; else 400 REASON_REQUIRED (nothing written). */
export function actionReason(body: unknown): string {
  const reason = body && typeof body === 'object' && !Array.isArray(body) ? (body as { reason?: unknown }).reason : undefined;
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text.length < 1 || text.length > 500) throw badRequest('REASON_REQUIRED');
  return text;
}

function reviewQuery(db: Kysely<DB>) {
  return db
    .selectFrom('payment_reviews as r')
    .leftJoin('players as p', 'p.id', 'r.player_id')
    .leftJoin('staff_users as s', 's.id', 'r.decided_by')
    .selectAll('r')
    .select(['p.phone as player_phone', 'p.name as player_name', 's.username as staff_username', 's.name as staff_name']);
}
type ReviewRow = Awaited<ReturnType<ReturnType<typeof reviewQuery>['executeTakeFirstOrThrow']>>;

function toView(r: ReviewRow): ReviewView {
  return {
    id: r.id,
    kind: r.kind,
    source: r.source,
    reference: r.reference,
    player: r.player_id === null ? null : { id: Number(r.player_id), phone: r.player_phone ?? '', name: r.player_name ?? '' },
    amount: toBaht(Number(r.amount)),
    currency: r.currency,
    createdAt: r.created_at,
    status: r.status,
    decidedBy: r.decided_by === null ? null : { id: Number(r.decided_by), username: r.staff_username ?? '', name: r.staff_name ?? '' },
    decidedAt: r.decided_at,
    reason: r.reason,
  };
}

export async function findReview(db: Kysely<DB>, id: string): Promise<ReviewView | null> {
  const row = await reviewQuery(db).where('r.id', '=', id).executeTakeFirst();
  return row ? toView(row) : null;
}

/**
 * Takes an OPEN review for a decision inside trx: 404 NO_DATA, 409 REVIEW_DECIDED. The status moves by a conditional
 * UPDATE (where status = 'OPEN'), so of two decisions at once exactly one goes on (on PostgreSQL the second waits
 * for the first's row lock, then matches no row).
 */
async function takeOpen(trx: Transaction<DB>, id: string, status: 'APPROVED' | 'REJECTED', staffId: number, reason: string, now: string) {
  let q = trx.selectFrom('payment_reviews').selectAll().where('id', '=', id);
  if (isPostgres(trx)) q = q.forUpdate();
  const review = await q.executeTakeFirst();
  if (!review) throw notFound('NO_DATA');
  if (review.status !== 'OPEN') throw conflict('REVIEW_DECIDED');
  if (status === 'APPROVED' && review.player_id === null) throw unprocessable('REVIEW_NO_PLAYER');
  const res = await trx
    .updateTable('payment_reviews')
    .set({ status, decided_by: staffId, decided_at: now, reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict('REVIEW_DECIDED');
  return review;
}

/** The statement's "from" of the money a review is about: the QR's bank, the player's bank for a slip, TRUEMONEY. */
async function sourceLabel(trx: Transaction<DB>, r: PaymentReviewsTable, playerId: number): Promise<string> {
  if (r.source === 'gift') return 'TRUEMONEY';
  if (r.source === 'qr' && r.subject_id) {
    const qr = await trx.selectFrom('qr_deposits').select('bank_code').where('id', '=', r.subject_id).executeTakeFirst();
    if (qr) return qr.bank_code;
  }
  const p = await trx.selectFrom('players').select('bank_code').where('id', '=', playerId).executeTakeFirstOrThrow();
  return r.source === 'slip' ? p.bank_code : r.source.toUpperCase();
}

const QR_PAYMENT_KINDS = new Set(['AMOUNT_MISMATCH', 'QR_EXPIRED', 'QR_CANCELLED']);

/** Whether the review has its own statement line (written with it since issue 40; older reviews have none). */
async function hasReviewLine(trx: Transaction<DB>, reviewId: string): Promise<boolean> {
  const row = await trx.selectFrom('statements').select('id').where('ref_type', '=', 'review').where('ref_id', '=', reviewId).executeTakeFirst();
  return Boolean(row);
}

/** After a decision committed: its player is told (issue 40), and the statement line they see has moved. */
function tellDecision(app: FastifyInstance, reviewId: string): Promise<void> {
  return tellReview({ db: app.db, log: app.log, tell: (playerId, data) => app.realtime?.toPlayer(playerId, 'wallet', data) }, reviewId);
}

export async function approveReview(app: FastifyInstance, id: string, staffId: number, reason: string, requestId?: string): Promise<void> {
  const rules = await readDepositRules(app.db);
  await app.db.transaction().execute(async (trx) => {
    const at = app.clock.now();
    const now = at.toISOString();
    const r = await takeOpen(trx, id, 'APPROVED', staffId, reason, now);
    const playerId = Number(r.player_id);
    await lockPlayer(trx, playerId);
    if (PAYOUT_REVIEW_KINDS.has(r.kind)) {
      // A payout result the gateway contradicted: the books follow the gateway, no deposit is credited.
      await followGatewayResult(trx, r, now);
      await recordStaffAction(
        trx,
        { staffId, action: 'review.approve', subjectType: 'review', subjectId: r.id, reason, detail: { kind: r.kind, playerId, amount: toBaht(Number(r.amount)), currency: r.currency }, requestId },
        at,
      );
      return;
    }
    let line: { refType: string; refId: string } | undefined;
    if (r.kind === 'DEPOSIT_LIMIT' && r.subject_id) {
      const hold = await trx.selectFrom('deposit_holds').selectAll().where('id', '=', r.subject_id).executeTakeFirst();
      if (hold && hold.status === 'HELD') {
        await trx.updateTable('deposit_holds').set({ status: 'APPROVED', updated_at: now }).where('id', '=', hold.id).where('status', '=', 'HELD').execute();
        if (hold.source === 'qr') await trx.updateTable('qr_deposits').set({ status: 'PAID', updated_at: now }).where('id', '=', hold.ref_id).where('status', '=', 'REVIEW').execute();
        if (hold.source === 'slip') await trx.updateTable('slips').set({ status: 'SUCCESS', note: null, updated_at: now }).where('id', '=', hold.ref_id).execute();
        if (hold.source === 'gift') await trx.updateTable('gift_redemptions').set({ status: 'SUCCESS', reason: null, updated_at: now }).where('id', '=', hold.ref_id).execute();
        line = { refType: 'hold', refId: hold.id };
      }
    } else if (r.kind === 'SLIP_NOT_MATCH' && r.subject_id) {
      // Claims the bank reference as an automatic credit does: a slip its owner was credited for meanwhile (or
      // another decision on it) holds the claim, and this approval is refused with nothing written.
      try {
        await trx
          .updateTable('slips')
          .set({ status: 'SUCCESS', note: null, reference_claim: r.reference, updated_at: now })
          .where('id', '=', r.subject_id)
          .execute();
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('SLIP_REFNO_DUPLICATED');
        throw e;
      }
    } else if (QR_PAYMENT_KINDS.has(r.kind) && r.subject_id) {
      await trx
        .updateTable('qr_deposits')
        .set({ status: 'PAID', paid_amount: Number(r.amount), paid_event_id: r.event_id || null, live_player_id: null, updated_at: now })
        .where('id', '=', r.subject_id)
        .where('status', 'in', ['REVIEW', 'EXPIRED', 'CANCELLED'])
        .execute();
    }
    // QR_ALREADY_PAID: the QR keeps its state (its own payment was decided already); only this money is credited.
    // The review's own IN_PROGRESS line (issue 40, deposits/review-line.ts) becomes the deposit's line.
    line ??= (await hasReviewLine(trx, r.id)) ? { refType: 'review', refId: r.id } : undefined;
    const source = await sourceLabel(trx, r, playerId);
    // A person decided: no deposit limit applies (creditDeposit does not check them). The ledger reference
    // deposit:review:<id> is unique, so the ledger itself refuses a second credit of this review.
    await creditDeposit(trx, rules, { playerId, amount: Number(r.amount), currency: r.currency, source, refId: `review:${r.id}`, line });
    await recordStaffAction(
      trx,
      { staffId, action: 'review.approve', subjectType: 'review', subjectId: r.id, reason, detail: { kind: r.kind, playerId, amount: toBaht(Number(r.amount)), currency: r.currency }, requestId },
      at,
    );
  });
}

export async function rejectReview(app: FastifyInstance, id: string, staffId: number, reason: string, requestId?: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const at = app.clock.now();
    const now = at.toISOString();
    const r = await takeOpen(trx, id, 'REJECTED', staffId, reason, now);
    const playerId = r.player_id === null ? null : Number(r.player_id);
    const hold = r.kind === 'DEPOSIT_LIMIT' && r.subject_id ? await trx.selectFrom('deposit_holds').selectAll().where('id', '=', r.subject_id).executeTakeFirst() : undefined;
    if (hold) {
      await trx.updateTable('deposit_holds').set({ status: 'REJECTED', updated_at: now }).where('id', '=', hold.id).where('status', '=', 'HELD').execute();
      // The held slip or gift stops counting as in progress (NOT_MATCH window, deposit usage); a QR stays REVIEW.
      if (hold.source === 'slip') await trx.updateTable('slips').set({ status: 'FAILED', note: 'DEPOSIT_LIMIT', updated_at: now }).where('id', '=', hold.ref_id).where('status', '=', 'IN_PROGRESS').execute();
      if (hold.source === 'gift') await trx.updateTable('gift_redemptions').set({ status: 'FAILED', updated_at: now }).where('id', '=', hold.ref_id).where('status', '=', 'IN_PROGRESS').execute();
      // Its IN_PROGRESS statement line ends FAILED with the reason.
      await trx.updateTable('statements').set({ status: 'FAILED', note: reason, updated_at: now }).where('ref_type', '=', 'hold').where('ref_id', '=', hold.id).execute();
    } else if (playerId !== null && (await hasReviewLine(trx, r.id))) {
      // The review's IN_PROGRESS line (issue 40) ends FAILED with the reason.
      await trx.updateTable('statements').set({ status: 'FAILED', note: reason, updated_at: now }).where('ref_type', '=', 'review').where('ref_id', '=', r.id).execute();
    } else if (playerId !== null && !PAYOUT_REVIEW_KINDS.has(r.kind)) {
      await writeStatement(trx, {
        playerId,
        type: 'deposit',
        status: 'FAILED',
        from: await sourceLabel(trx, r, playerId),
        to: 'WALLET',
        amount: Number(r.amount),
        currency: r.currency,
        refType: 'review',
        refId: r.id,
        note: reason,
      });
    }
    await recordStaffAction(
      trx,
      { staffId, action: 'review.reject', subjectType: 'review', subjectId: r.id, reason, detail: { kind: r.kind, playerId, amount: toBaht(Number(r.amount)), currency: r.currency }, requestId },
      at,
    );
  });
}

/** Back office: reviews (docs/staff.md "Back office"). Routes under /api/staff/reviews. */
export async function reviewsRoutes(app: FastifyInstance): Promise<void> {
  const guard = { onRequest: [app.authenticateStaff, app.staffRole('payments', 'admin')] };

  app.get<{ Querystring: { status?: ReviewStatus } }>(
    '/api/staff/reviews',
    {
      ...guard,
      schema: {
        querystring: { type: 'object', properties: { status: { type: 'string', enum: STATUSES } }, additionalProperties: false },
        response: { 200: { type: 'object', properties: { reviews: { type: 'array', items: reviewSchema } }, required: ['reviews'] }, '4xx': errorBody, '5xx': errorBody },
      },
    },
    async (req) => {
      const rows = await reviewQuery(app.db)
        .where('r.status', '=', req.query.status ?? 'OPEN')
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(REVIEW_LIST_LIMIT)
        .execute();
      return { reviews: rows.map(toView) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/staff/reviews/:id',
    { ...guard, schema: { params: idParams, response: { 200: reviewSchema, '4xx': errorBody, '5xx': errorBody } } },
    async (req) => {
      const review = await findReview(app.db, req.params.id);
      if (!review) throw notFound('NO_DATA');
      return review;
    },
  );

  for (const [action, run] of [
    ['approve', approveReview],
    ['reject', rejectReview],
  ] as const) {
    app.post<{ Params: { id: string }; Body: unknown }>(
      `/api/staff/reviews/:id/${action}`,
      { ...guard, schema: { params: idParams, response: { 200: reviewSchema, '4xx': errorBody, '5xx': errorBody } } },
      async (req) => {
        const reason = actionReason(req.body);
        await run(app, req.params.id, req.staffId, reason, req.id);
        await tellDecision(app, req.params.id);
        return (await findReview(app.db, req.params.id))!;
      },
    );
  }
}
