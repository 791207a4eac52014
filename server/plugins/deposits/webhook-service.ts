import crypto from 'node:crypto';
import { nowIso } from '../../db';
import { AppError, badRequest } from '../../errors';
import { parseBaht, parseWireBaht } from '../../ledger/money';
import type { MovementPart } from '../../ledger';
import type { DepositRules } from './domain/rules';
import type { DepositsContext } from './context';
import { creditOrHold } from './credit';
import { isUniqueViolation } from '../../db/portable';
import { recordReview } from './review-record';
import type { ReviewKind } from '../../db/schema-backoffice';
import { eventAndRules, findEvent, insertEvent, lockQrWithPlayer, setQrStatus } from './repository';
import { recordPaymentReview, tellReview } from './review-line';

/**
 * Payment confirmations (RULES.md "Deposits"): POST /api/webhooks/payments with a signed body
 * `{ id, type, reference, amount }`. The event id makes it idempotent: the event row is written in the same
 * transaction as its effect, so an event is applied once and a repeat is answered with the first outcome.
 */
export const EVENT_TYPES = ['qr.paid', 'payout.succeeded', 'payout.failed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface PaymentEvent {
  id: string;
  type: EventType;
  reference: string;
  amount: unknown;
}

/** What applying the event did; the answer body carries it. */
export type EventOutcome =
  | 'CREDITED'
  | 'UNKNOWN_REFERENCE'
  | 'QR_ALREADY_PAID'
  | 'QR_CANCELLED'
  | 'QR_EXPIRED'
  | 'AMOUNT_MISMATCH'
  | 'DEPOSIT_LIMIT'
  | `PAYOUT_${string}`;

export interface EventAnswer {
  received: true;
  id: string;
  outcome: string;
}

/** Checks the parsed body's shape; anything else is 400 (the signature was good, the body is not an event). */
export function parseEvent(body: unknown): PaymentEvent {
  const b = body as Record<string, unknown> | null;
  const ok =
    b !== null &&
    typeof b === 'object' &&
    !Array.isArray(b) &&
    typeof b.id === 'string' &&
    /^[\x21-\x7e]{1,128}$/.test(b.id) &&
    typeof b.type === 'string' &&
    (EVENT_TYPES as readonly string[]).includes(b.type) &&
    typeof b.reference === 'string' &&
    /^[\x21-\x7e]{1,128}$/.test(b.reference);
  if (!ok) throw badRequest('KEY_INVALID');
  if (b.type === 'qr.paid' && (parseWireBaht(b.amount) === null || parseWireBaht(b.amount) === 0)) throw badRequest('KEY_INVALID');
  return { id: b.id as string, type: b.type as EventType, reference: b.reference as string, amount: b.amount };
}

const answer = (id: string, outcome: string): EventAnswer => ({ received: true, id, outcome });

export async function applyEvent(ctx: DepositsContext, rawBody: Buffer, ev: PaymentEvent): Promise<EventAnswer> {
  return (await applyEventOnce(ctx, rawBody, ev)).answer;
}

/** applyEvent, saying whether this call applied the event (false: an earlier one did, its outcome is answered). */
export async function applyEventOnce(ctx: DepositsContext, rawBody: Buffer, ev: PaymentEvent): Promise<{ answer: EventAnswer; applied: boolean }> {
  const bodyHash = crypto.createHash('sha256').update(rawBody).digest('hex');
  // The event's first outcome and the deposit rules: one read (issue 43).
  const { seen, rules } = await eventAndRules(ctx.db, ev.id);
  if (seen) return { answer: replay(ctx, seen, bodyHash), applied: false };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const outcome = ev.type === 'qr.paid' ? await applyQrPaidAndTell(ctx, ev, bodyHash, rules) : await applyPayout(ctx, ev, bodyHash);
      return { answer: answer(ev.id, outcome), applied: true };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      // The same event is being (or was just) applied by a concurrent delivery: answer like it. Read in a
      // transaction: on SQLite with group commit the other delivery's row may still be in the open batch, which the
      // read-only connection shows only after its COMMIT (three retries could all miss it: a 503 seen in CI); a
      // transaction sees it and is answered only after that COMMIT. On PostgreSQL the violation implies it committed.
      const first = await ctx.db.transaction().execute((trx) => findEvent(trx, ev.id));
      if (first) return { answer: replay(ctx, first, bodyHash), applied: false };
    }
  }
  throw new AppError(503, 'INTERNAL_SERVER_ERROR');
}

function replay(ctx: DepositsContext, seen: { id: string; outcome: string; body_sha256: string }, bodyHash: string): EventAnswer {
  if (seen.body_sha256 !== bodyHash) ctx.log.warn({ eventId: seen.id }, 'payment event id repeated with another body; the first one stands');
  return answer(seen.id, seen.outcome);
}

/**
 * A payment sent to staff is pushed to its player once committed (issue 40 item 2): the modal that still shows the
 * QR turns to "being checked" at once, as it does for a credit (whose journal entry the wallet push announces).
 */
async function applyQrPaidAndTell(ctx: DepositsContext, ev: PaymentEvent, bodyHash: string, rules: DepositRules): Promise<EventOutcome> {
  const { outcome, reviewId } = await applyQrPaid(ctx, ev, bodyHash, rules);
  if (reviewId) await tellReview(ctx, reviewId);
  return outcome;
}

/**
 * A qr.paid event, in one transaction. Issue 43, a credited QR in 6 round trips on PostgreSQL (was 20; 24 on a
 * player's first deposit): the event's outcome and the rules (one read, before it), BEGIN, the QR locked with its
 * player (one statement), the player's deposit limits, the credit as one movement (the journal entry, the statement
 * line, the QR's PAID and the event row with its outcome), the wheel coins' turnover row (when the deposit earns
 * coins), COMMIT. The event row is written last, with its outcome: a concurrent delivery of the same event waits for
 * the QR's lock, finds it paid, and its own event row then fails on the primary key (its transaction rolls back and it
 * answers the first outcome, applyEventOnce); a delivery for no known QR has no lock to wait for and is answered the
 * same way by that key.
 */
async function applyQrPaid(ctx: DepositsContext, ev: PaymentEvent, bodyHash: string, rules: DepositRules): Promise<{ outcome: EventOutcome; reviewId: string | null }> {
  const paid = parseBaht(ev.amount)!;
  return ctx.db.transaction().execute(async (trx) => {
    const now = nowIso(ctx.now());
    const event = (outcome: EventOutcome) => ({ id: ev.id, type: ev.type, reference: ev.reference, amount: paid, body_sha256: bodyHash, outcome, received_at: now });
    const qr = await lockQrWithPlayer(trx, ev.reference);
    let outcome: EventOutcome;
    let reviewId: string | null = null;
    let eventWritten = false;
    if (!qr) outcome = 'UNKNOWN_REFERENCE';
    else if (qr.status === 'PAID' || qr.status === 'REVIEW') outcome = 'QR_ALREADY_PAID';
    else if (qr.status === 'CANCELLED') outcome = 'QR_CANCELLED';
    else if (qr.status === 'EXPIRED' || qr.expires_at <= now) {
      if (qr.status === 'LIVE') await setQrStatus(trx, qr.id, { status: 'EXPIRED' }, now);
      outcome = 'QR_EXPIRED';
    } else if (paid !== Number(qr.amount)) {
      // Money arrived, but not what the QR asked for: kept for staff, never credited automatically.
      await setQrStatus(trx, qr.id, { status: 'REVIEW', paid_amount: paid, paid_event_id: ev.id }, now);
      outcome = 'AMOUNT_MISMATCH';
    } else {
      const credit = { playerId: Number(qr.player_id), amount: paid, currency: qr.currency, source: qr.bank_code, refId: `qr:${qr.id}` };
      // Credited: the QR's PAID and the event row are written with the money, in its movement.
      const parts: MovementPart[] = [
        { write: (q) => q.updateTable('qr_deposits').set({ status: 'PAID', paid_amount: paid, paid_event_id: ev.id, live_player_id: null, updated_at: now }).where('id', '=', qr.id) },
        { write: (q) => q.insertInto('payment_events').values(event('CREDITED')) },
      ];
      const inviterId = qr.inviter_id === null ? null : Number(qr.inviter_id);
      const done = await creditOrHold(trx, rules, credit, { source: 'qr', refId: qr.id, now: ctx.now() }, { parts, inviterId, playerLocked: true });
      // Beyond a deposit limit (the limit was lowered, or other deposits came first): held for staff, in review.
      if (done.held) await setQrStatus(trx, qr.id, { status: 'REVIEW', paid_amount: paid, paid_event_id: ev.id }, now);
      outcome = done.held ? 'DEPOSIT_LIMIT' : 'CREDITED';
      eventWritten = !done.held;
      if (done.held) reviewId = done.reviewId;
    }
    if (!eventWritten) await insertEvent(trx, event(outcome));
    // Money that arrived and was not credited goes to staff (docs/staff.md "Back office"), in this transaction.
    if (outcome !== 'CREDITED' && outcome !== 'DEPOSIT_LIMIT') {
      const review = { kind: outcome as ReviewKind, reference: ev.reference, eventId: ev.id, amount: paid, now: new Date(now) };
      // The QR's player sees it in the statement, in progress (review-line.ts); money of no known QR has no player.
      if (qr) reviewId = await recordPaymentReview(trx, { ...review, source: 'qr', subjectId: qr.id, playerId: Number(qr.player_id), currency: qr.currency, from: qr.bank_code });
      else await recordReview(trx, { ...review, source: 'webhook', subjectId: null, playerId: null, currency: 'THB' });
    }
    if (outcome !== 'CREDITED') ctx.log.warn({ eventId: ev.id, reference: ev.reference, outcome }, 'qr.paid not credited');
    return { outcome, reviewId };
  });
}

async function applyPayout(ctx: DepositsContext, ev: PaymentEvent, bodyHash: string): Promise<EventOutcome> {
  if (!ctx.settlePayout) throw new AppError(503, 'INTERNAL_SERVER_ERROR'); // the gateway retries
  const succeeded = ev.type === 'payout.succeeded';
  // settlePayout is idempotent per withdrawal (only the first result counts) and runs its own transaction.
  const res = await ctx.settlePayout(ev.reference, succeeded, succeeded ? undefined : 'GATEWAY_PAYOUT_FAILED');
  const amount = parseBaht(ev.amount);
  const event = { id: ev.id, type: ev.type, reference: ev.reference, amount, body_sha256: bodyHash, received_at: nowIso(ctx.now()) };
  if (!res.applied && res.status !== null && res.status !== (succeeded ? 'SUCCESS' : 'FAILED')) return payoutContradicted(ctx, ev, event, res.status);
  const outcome: EventOutcome = res.status ? `PAYOUT_${res.status}` : 'UNKNOWN_REFERENCE';
  await insertEvent(ctx.db, { ...event, outcome });
  return outcome;
}

/**
 * The gateway reports the opposite of the result already recorded (staff or an earlier event decided it): paid after
 * the money went back to the wallet (the player is paid twice), or failed after it was recorded paid (the player's
 * money is gone). Never stored silently and never applied by itself: the event row and a payment review land in one
 * transaction, one review per withdrawal and direction however many such events come, and an error-level line says so.
 */
async function payoutContradicted(
  ctx: DepositsContext,
  ev: PaymentEvent,
  event: Omit<Parameters<typeof insertEvent>[1], 'outcome'>,
  recorded: string,
): Promise<EventOutcome> {
  const outcome: EventOutcome = 'PAYOUT_CONTRADICTED';
  const kind: ReviewKind = ev.type === 'payout.succeeded' ? 'PAYOUT_PAID_AFTER_FAIL' : 'PAYOUT_FAIL_AFTER_PAID';
  const reviewId = await ctx.db.transaction().execute(async (trx) => {
    await insertEvent(trx, { ...event, outcome });
    const w = await trx.selectFrom('withdrawals').select(['player_id', 'amount', 'currency']).where('id', '=', ev.reference).executeTakeFirstOrThrow();
    return recordReview(trx, { kind, source: 'payout', reference: ev.reference, subjectId: ev.reference, playerId: Number(w.player_id), amount: Number(w.amount), currency: w.currency, now: ctx.now() });
  });
  ctx.log.error({ eventId: ev.id, withdrawalId: ev.reference, type: ev.type, recorded, kind, reviewId }, 'payout event contradicts the recorded outcome; a payment review is open, no money moved');
  return outcome;
}
