import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { PaymentReviewsTable, ReviewStatus } from '../../db/schema-backoffice';
import type { StaffRole } from '../../db/schema-staff';
import { isUniqueViolation } from '../../db/portable';
import type { PayoutAdapter, PayoutCancel, PayoutStatus } from '../../adapters/payouts';
import { AppError, badRequest, conflict, notFound, unprocessable } from '../../errors';
import { gameBalances, lockPlayer, toBaht, walletBalance, writeStatement } from '../../ledger';
import type { ProviderCall } from '../../lib/request-context';
import { checkPhone, INVALID_USER_INFO } from '../accounts';
import { creditDeposit, readDepositRules, tellReview } from '../deposits';
import { recordStaffAction } from '../staff';
import { listStatements, statementLine } from '../statement';
import { listGameAccounts } from '../wallet';
import * as repo from './repository';
import { followGatewayResult, PAYOUT_REVIEW_KINDS } from './reviews-payout';
import type { PlayerStatus, Settable } from './schemas';

/**
 * The back office's work (docs/staff.md "Back office"): payments under review, payouts in progress, players. Each
 * decision and its audit row are one transaction; no staff action moves money except through these.
 */

// Reasons.

/** Every staff action's body: {reason} trimmed, 1..500 characters; else 400 REASON_REQUIRED (nothing written). */
export function actionReason(body: unknown): string {
  const reason = body && typeof body === 'object' && !Array.isArray(body) ? (body as { reason?: unknown }).reason : undefined;
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text.length < 1 || text.length > 500) throw badRequest('REASON_REQUIRED');
  return text;
}

/** Every back-office action's reason (docs/staff.md "Back office"): trimmed, 1..500 characters. */
export function reasonOf(value: unknown): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (v.length < 1 || [...v].length > 500) throw badRequest('REASON_REQUIRED');
  return v;
}

// Payments under review. Approve credits through the deposit credit path once (a payout review instead makes the books
// follow the gateway: reviews-payout.ts); reject moves no money and tells the player why (a payout review tells
// nothing: the player's withdrawal line already shows the recorded result).

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

/** The list answers at most this many reviews, newest first. */
export const REVIEW_LIST_LIMIT = 200;

function toView(r: repo.ReviewRow): ReviewView {
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

export async function listReviews(db: Kysely<DB>, status: ReviewStatus): Promise<ReviewView[]> {
  return (await repo.listReviewRows(db, status, REVIEW_LIST_LIMIT)).map(toView);
}

export async function findReview(db: Kysely<DB>, id: string): Promise<ReviewView | null> {
  const row = await repo.findReviewRow(db, id);
  return row ? toView(row) : null;
}

/**
 * Takes an OPEN review for a decision inside trx: 404 NO_DATA, 409 REVIEW_DECIDED. The status moves by a conditional
 * UPDATE (where status = 'OPEN'), so of two decisions at once exactly one goes on (on PostgreSQL the second waits
 * for the first's row lock, then matches no row).
 */
async function takeOpen(trx: Transaction<DB>, id: string, status: 'APPROVED' | 'REJECTED', staffId: number, reason: string, now: string) {
  const review = await repo.lockReview(trx, id);
  if (!review) throw notFound('NO_DATA');
  if (review.status !== 'OPEN') throw conflict('REVIEW_DECIDED');
  if (status === 'APPROVED' && review.player_id === null) throw unprocessable('REVIEW_NO_PLAYER');
  if (!(await repo.decideOpenReview(trx, id, { status, staffId, reason, now }))) throw conflict('REVIEW_DECIDED');
  return review;
}

/** The statement's "from" of the money a review is about: the QR's bank, the player's bank for a slip, TRUEMONEY. */
async function sourceLabel(trx: Transaction<DB>, r: PaymentReviewsTable, playerId: number): Promise<string> {
  if (r.source === 'gift') return 'TRUEMONEY';
  if (r.source === 'qr' && r.subject_id) {
    const qr = await repo.qrBankCode(trx, r.subject_id);
    if (qr) return qr.bank_code;
  }
  const p = await repo.playerBankCode(trx, playerId);
  return r.source === 'slip' ? p.bank_code : r.source.toUpperCase();
}

const QR_PAYMENT_KINDS = new Set(['AMOUNT_MISMATCH', 'QR_EXPIRED', 'QR_CANCELLED']);

/** After a decision committed: its player is told (issue 40), and the statement line they see has moved. */
export function tellDecision(app: FastifyInstance, reviewId: string): Promise<void> {
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
      const hold = await repo.findHold(trx, r.subject_id);
      if (hold && hold.status === 'HELD') {
        await repo.decideHold(trx, hold.id, 'APPROVED', now);
        await repo.releaseHeldPayment(trx, hold, now);
        line = { refType: 'hold', refId: hold.id };
      }
    } else if (r.kind === 'SLIP_NOT_MATCH' && r.subject_id) {
      // Claims the bank reference as an automatic credit does: a slip its owner was credited for meanwhile (or
      // another decision on it) holds the claim, and this approval is refused with nothing written.
      try {
        await repo.claimSlip(trx, r.subject_id, r.reference, now);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('SLIP_REFNO_DUPLICATED');
        throw e;
      }
    } else if (QR_PAYMENT_KINDS.has(r.kind) && r.subject_id) {
      await repo.payQr(trx, r.subject_id, r, now);
    }
    // QR_ALREADY_PAID: the QR keeps its state (its own payment was decided already); only this money is credited.
    // The review's own IN_PROGRESS line (issue 40, deposits/review-line.ts) becomes the deposit's line.
    line ??= (await repo.hasReviewLine(trx, r.id)) ? { refType: 'review', refId: r.id } : undefined;
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
    const hold = r.kind === 'DEPOSIT_LIMIT' && r.subject_id ? await repo.findHold(trx, r.subject_id) : undefined;
    if (hold) {
      await repo.decideHold(trx, hold.id, 'REJECTED', now);
      await repo.failHeldPayment(trx, hold, now);
      // Its IN_PROGRESS statement line ends FAILED with the reason.
      await repo.failStatementLine(trx, 'hold', hold.id, reason, now);
    } else if (playerId !== null && (await repo.hasReviewLine(trx, r.id))) {
      // The review's IN_PROGRESS line (issue 40) ends FAILED with the reason.
      await repo.failStatementLine(trx, 'review', r.id, reason, now);
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

// Payouts in progress. The list shows what the gateway says of each payout; settle and fail go through the wallet's
// settlePayout (fail returns the money), with the audit row in its transaction. Fail needs the gateway's word that
// the payout will not be paid (providerFailure).

/** How long the list waits for the gateway's answer about one payout before showing UNKNOWN. */
export const PROVIDER_STATUS_TIMEOUT_MS = 3000;
/** The list answers at most this many payouts, oldest first. */
export const PAYOUT_LIST_LIMIT = 200;

/** What `ask` answers, or `fallback` when it throws or does not answer within timeoutMs. */
async function askGateway<T>(ask: () => Promise<T>, fallback: T, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([Promise.resolve().then(ask).catch(() => fallback), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The gateway's status of one payout, UNKNOWN when it throws or does not answer within timeoutMs. */
export function providerStatus(payouts: PayoutAdapter, withdrawalId: string, timeoutMs = PROVIDER_STATUS_TIMEOUT_MS, call?: ProviderCall): Promise<PayoutStatus> {
  return askGateway(() => payouts.getPayoutStatus(withdrawalId, call), 'UNKNOWN', timeoutMs);
}

/**
 * Why staff may fail a payout, in the gateway's words: it reports the payout FAILED, or it was PENDING and a cancel
 * stopped it (CANCELLED). Null otherwise (paid, already on its way to the bank, unknown, or no answer): the money may
 * still reach the player, so returning it to the wallet could pay them twice (issue 39 row 4).
 */
export async function providerFailure(payouts: PayoutAdapter, withdrawalId: string, call?: ProviderCall, timeoutMs = PROVIDER_STATUS_TIMEOUT_MS): Promise<'FAILED' | 'CANCELLED' | null> {
  const status = await providerStatus(payouts, withdrawalId, timeoutMs, call);
  if (status === 'FAILED') return 'FAILED';
  if (status !== 'PENDING') return null;
  const cancel = await askGateway<PayoutCancel | 'NO_ANSWER'>(() => payouts.cancelPayout(withdrawalId, call), 'NO_ANSWER', timeoutMs);
  return cancel === 'CANCELLED' ? 'CANCELLED' : null;
}

/** Payouts in progress (only those past the expected time when `overdue`), each with the gateway's status. */
export async function listPayouts(app: FastifyInstance, overdue: boolean, call?: ProviderCall) {
  const now = app.clock.now();
  const requestedBy = overdue ? new Date(now.getTime() - app.config.payoutExpectedMinutes * 60_000).toISOString() : undefined;
  const rows = await repo.listPayoutRows(app.db, requestedBy, PAYOUT_LIST_LIMIT);
  const statuses = await Promise.all(rows.map((r) => providerStatus(app.wallet.payouts, r.id, undefined, call)));
  return rows.map((r, i) => ({
    id: r.id,
    player: { id: Number(r.player_id), phone: r.phone, name: r.name },
    amount: toBaht(Number(r.amount)),
    currency: r.currency,
    bankCode: r.bank_code,
    bankAccountNo: r.bank_account_no,
    bankAccountName: r.bank_account_name,
    requestedAt: r.created_at,
    ageMinutes: Math.max(0, Math.floor((now.getTime() - Date.parse(r.created_at)) / 60_000)),
    providerStatus: statuses[i],
  }));
}

/** Settle (succeeded) or fail one payout in progress, with its `payout.settle` / `payout.fail` audit row. */
export async function decidePayout(
  app: FastifyInstance,
  id: string,
  succeeded: boolean,
  who: { staffId: number; reason: string; requestId: string; call?: ProviderCall },
): Promise<{ id: string; status: 'SUCCESS' | 'FAILED' }> {
  const action = succeeded ? 'settle' : 'fail';
  let provider: 'FAILED' | 'CANCELLED' | null = null;
  if (!succeeded) {
    // The outcome is the gateway's: fail only what it says failed or what it just cancelled (409 otherwise).
    const w = await repo.withdrawalStatus(app.db, id);
    if (!w) throw notFound('NO_DATA');
    if (w.status !== 'IN_PROGRESS') throw conflict('PAYOUT_SETTLED');
    provider = await providerFailure(app.wallet.payouts, id, who.call);
    if (!provider) throw conflict('PAYOUT_NOT_FAILED');
  }
  const res = await app.wallet.settlePayout(id, succeeded, who.reason, async (trx, status) => {
    // In settlePayout's own transaction: the payout's result and who decided it land together.
    const detail = provider ? { status, provider } : { status };
    await recordStaffAction(trx, { staffId: who.staffId, action: `payout.${action}`, subjectType: 'payout', subjectId: id, reason: who.reason, detail, requestId: who.requestId }, app.clock.now());
  });
  if (res.status === null) throw notFound('NO_DATA');
  if (!res.applied) throw conflict('PAYOUT_SETTLED');
  return { id, status: res.status as 'SUCCESS' | 'FAILED' };
}

// Players. Every staff role may look a player up (audited; support sees the bank account's last 4 digits) and set
// them active or inactive (support only lifts its own inactivation: 403 REACTIVATE_NOT_ALLOWED); the change and its
// audit row land in one transaction.

/** How many statement lines the lookup shows: the newest, as POST /api/statement pages them. */
export const LOOKUP_MOVEMENTS = 20;

/** The phone as a player logs in with it (trimmed), in the market's format; anything else is 400 INVALID_USER_INFO. */
export function phoneOf(value: unknown, market: 'th' | 'lao'): string {
  try {
    return checkPhone(typeof value === 'string' ? value : undefined, market);
  } catch {
    throw badRequest(INVALID_USER_INFO);
  }
}

/** A path id: a positive whole number, or nobody (404 NO_DATA). */
export function idOf(value: string): number {
  const id = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw notFound('NO_DATA');
  return id;
}

/** The player's game accounts with their balances as GET /api/wallet computes them (the ledger's game mirrors). */
async function gamesOf(db: Kysely<DB>, playerId: number) {
  const [accounts, balances] = await Promise.all([listGameAccounts(db, playerId), gameBalances(db, playerId)]);
  const codes = new Set([...accounts.map((a) => a.game_code), ...balances.keys()]);
  if (codes.size === 0) return [];
  // Every game the player holds an account at, active or not: staff must see money left at a game switched off.
  const games = await repo.gameNames(db, [...codes]);
  const names = new Map(games.map((g) => [g.code, g.name]));
  return [...codes]
    .sort((a, b) => [...names.keys()].indexOf(a) - [...names.keys()].indexOf(b))
    .map((code) => ({ code, name: names.get(code) ?? code, balance: toBaht(balances.get(code) ?? 0) }));
}

/** Roles that see a player's whole bank account number; the others see its last 4 digits (issue 39). */
const FULL_BANK_ROLES: ReadonlySet<StaffRole> = new Set<StaffRole>(['payments', 'admin']);

/** `******7890`: enough for support to confirm an account with the player, not enough to pay into it elsewhere. */
export function maskAccountNo(accountNo: string): string {
  return accountNo.length <= 4 ? '*'.repeat(accountNo.length) : `${'*'.repeat(accountNo.length - 4)}${accountNo.slice(-4)}`;
}

/** Who asked, for the lookup's audit row and what it may see. */
interface Asker { staffId: number; role: StaffRole; requestId: string }

/**
 * The lookup and its `player.lookup` audit row (subject the player, or `phone`/the phone when nobody has it, so
 * probing phones shows too). The row is written before the answer: no player data leaves without it.
 */
export async function lookupPlayer(db: Kysely<DB>, phone: string, asker: Asker, now: Date) {
  const p = await repo.findPlayerForLookup(db, phone);
  const audit = { staffId: asker.staffId, action: 'player.lookup', requestId: asker.requestId };
  if (!p) {
    await recordStaffAction(db, { ...audit, subjectType: 'phone', subjectId: phone, detail: { found: false } }, now);
    throw notFound('NO_DATA');
  }
  const id = Number(p.id);
  await recordStaffAction(db, { ...audit, subjectType: 'player', subjectId: String(id) }, now);
  const [wallet, games, statements] = await Promise.all([walletBalance(db, id), gamesOf(db, id), listStatements(db, id, 1, LOOKUP_MOVEMENTS)]);
  return {
    player: {
      id,
      phone: p.phone,
      name: p.name,
      status: p.status as PlayerStatus,
      currency: p.currency,
      wallet: toBaht(wallet),
      games,
      coin: Number(p.coin),
      createdAt: p.created_at,
      bank: { code: p.bank_code, accountNo: FULL_BANK_ROLES.has(asker.role) ? p.bank_account_no : maskAccountNo(p.bank_account_no), accountName: p.bank_account_name },
    },
    movements: statements.rows.map(statementLine),
  };
}

/**
 * Whether the player's inactive status is support's own doing: the newest `player.status` row set them inactive and
 * was written by a support account. A lock by payments or an admin (a fraud or payment hold), or one with no row at
 * all (the operator's command, written by hand), is theirs to lift.
 */
async function setInactiveBySupport(db: Kysely<DB> | Transaction<DB>, playerId: number): Promise<boolean> {
  const last = await repo.lastStatusChange(db, playerId);
  if (!last || last.role !== 'support' || last.detail === null) return false;
  return (JSON.parse(last.detail) as { to?: unknown }).to === 'inactive';
}

/**
 * Sets the player active or inactive with its `player.status` audit row; false when they already were (nothing
 * written). Going inactive ends their sessions in the same transaction.
 */
export async function setStatus(
  app: FastifyInstance,
  id: number,
  to: Settable,
  who: { staffId: number; role: StaffRole; reason: string; requestId: string },
  now: Date,
): Promise<boolean> {
  return app.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, id);
    const row = await repo.playerStatus(trx, id);
    if (!row) throw notFound('NO_DATA');
    const from = row.status as PlayerStatus;
    if (from === 'gone') throw conflict('PLAYER_GONE');
    // Already so: nothing to change, nothing written (no audit row for an action that did nothing).
    if (from === to) return false;
    if (to === 'active' && !FULL_BANK_ROLES.has(who.role) && !(await setInactiveBySupport(trx, id))) throw new AppError(403, 'REACTIVATE_NOT_ALLOWED');
    // The row is locked (PostgreSQL) or the transaction holds SQLite's one connection: nothing changes it meanwhile.
    await repo.setPlayerStatus(trx, id, to, now.toISOString());
    if (to === 'inactive') await app.tokens.revokeAll(id, trx);
    await recordStaffAction(trx, { staffId: who.staffId, action: 'player.status', subjectType: 'player', subjectId: String(id), reason: who.reason, detail: { from, to }, requestId: who.requestId }, now);
    return true;
  });
}
