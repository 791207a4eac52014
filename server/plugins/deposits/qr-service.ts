import crypto from 'node:crypto';
import { nowIso } from '../../db';
import { AppError, conflict, notFound } from '../../errors';
import { parseWireBaht, toBaht } from '../../ledger/money';
import { promptPayPayload, qrSvg } from './domain/promptpay';
import { GatewayError } from '../../adapters/payments';
import type { QrDepositsTable } from '../../db/schema-deposits';
import type { DepositRules } from './domain/rules';
import type { DepositsContext } from './context';
import { isUniqueViolation } from '../../db/portable';
import { endLiveQr, findLastQr, findLiveQr, findPlayer, findQr, insertQr, readDepositRules } from './repository';
import { lockPlayer } from '../../ledger';
import { checkDepositAllowed } from '../play-limits';
import { qrReviewNotice, type ReviewNotice } from './review-line';

/**
 * QR deposits (RULES.md "Deposits", spec §2/§5/§9): one live QR per player, creating one cancels the
 * others; KBANK carries a PromptPay payload for the operator's id, WW and E2P the gateway's payload.
 * A QR is paid once, by the signed webhook (webhook-service.ts), and only while it is live.
 */
export const QR_BANKS = ['KBANK', 'WW', 'E2P'] as const;
export type QrBank = (typeof QR_BANKS)[number];
export const isQrBank = (v: string): v is QrBank => (QR_BANKS as readonly string[]).includes(v);

/** How a QR that is no longer live ended (a LIVE row past its time counts as EXPIRED). */
export type QrOutcome = 'PAID' | 'EXPIRED' | 'CANCELLED' | 'REVIEW';

/** The player's most recent QR of a bank and how it ended. */
export interface LastQr {
  qrcodeId: string;
  status: QrOutcome;
  /** The QR's money sent to staff (paid with another amount, late, after a cancel, held by a limit): issue 40. */
  review?: ReviewNotice;
}

export interface QrRecord {
  qrcodeId: string | null;
  hasQrcode: boolean;
  bankCode: string | null;
  /** SVG markup of the QR image. */
  qrcode: string | null;
  /** The EMVCo payload the image carries (for deep links and checks); null for a gateway's own image. */
  payload: string | null;
  /** The gateway's QR image when it answers no payload (Opn): the SPA shows it instead of `qrcode`. Absent otherwise. */
  imageUrl?: string | null;
  /** Baht. */
  amount: number | null;
  /** Seconds left until the QR stops being payable. */
  expireIn: number;
  message: string;
  /**
   * GET without a live QR only: the outcome of the player's most recent QR of that bank (null: none), so the
   * SPA tells a paid QR from one cancelled elsewhere, expired or sent to review.
   */
  last?: LastQr | null;
}

export const noQr = (message = ''): QrRecord => ({
  qrcodeId: null,
  hasQrcode: false,
  bankCode: null,
  qrcode: null,
  payload: null,
  amount: null,
  expireIn: 0,
  message,
});

/** A refused create: 422 with the QR record shape, so both the error handling and hasQrcode=false apply. */
export class QrRefused extends AppError {
  constructor(
    statusCode: number,
    public readonly record: QrRecord,
  ) {
    super(statusCode, record.message);
  }
}
const refuse = (status = 422, code = 'QR_FAIL') => new QrRefused(status, noQr(code));

/** The player's deposit limits (issue 15): a QR whose amount would pass one is refused, 422 DEPOSIT_LIMIT. */
async function checkLimits(trx: Parameters<typeof checkDepositAllowed>[0], playerId: number, amount: number, now: Date): Promise<void> {
  try {
    await checkDepositAllowed(trx, playerId, amount, now);
  } catch (e) {
    if (e instanceof AppError && e.code === 'DEPOSIT_LIMIT') throw refuse(e.statusCode, e.code);
    throw e;
  }
}

function minimumSatang(rules: DepositRules, bank: QrBank): number {
  const baht = bank === 'KBANK' ? rules.qrMinimum : bank === 'WW' ? rules.wwMinimum : rules.e2pMinimum;
  // KBANK: "> 0 and the configured minimum": never below one satang whatever the setting says.
  return Math.max(1, Math.round(baht * 100));
}

/**
 * A gateway that answers only an image (Opn) has no payload to store: the row's payload column keeps the image's URL
 * behind this prefix (no EMVCo payload starts with it), so the QR record shows the image instead of drawing one.
 */
export const IMAGE_PAYLOAD_PREFIX = 'image:';

async function toRecord(row: QrDepositsTable, now: Date): Promise<QrRecord> {
  const image = row.payload.startsWith(IMAGE_PAYLOAD_PREFIX) ? row.payload.slice(IMAGE_PAYLOAD_PREFIX.length) : null;
  return {
    qrcodeId: row.id,
    hasQrcode: true,
    bankCode: row.bank_code,
    qrcode: image ? null : await qrSvg(row.payload),
    payload: image ? null : row.payload,
    ...(image ? { imageUrl: image } : {}),
    amount: toBaht(Number(row.amount)),
    expireIn: Math.max(0, Math.ceil((Date.parse(row.expires_at) - now.getTime()) / 1000)),
    message: '',
  };
}

/**
 * The player's live QR for this bank, or hasQrcode=false (a live QR of another bank does not count) with
 * `last`: how the player's most recent QR of this bank ended.
 */
export async function getQr(ctx: DepositsContext, playerId: number, bank: QrBank): Promise<QrRecord> {
  const now = ctx.now();
  const at = nowIso(now);
  const live = await findLiveQr(ctx.db, playerId);
  if (live && live.bank_code === bank && live.expires_at > at) return toRecord(live, now);
  const row = await findLastQr(ctx.db, playerId, bank);
  const last = row ? lastOf(row, at) : null;
  // Only a QR that ended can have money under review (a payment of a live QR credits it or ends it).
  const review = last ? await qrReviewNotice(ctx.db, last.qrcodeId) : null;
  return { ...noQr(), last: last && review ? { ...last, review } : last };
}

function lastOf(row: QrDepositsTable, now: string): LastQr | null {
  if (row.status !== 'LIVE') return { qrcodeId: row.id, status: row.status };
  // Still LIVE in the table: past its time it is expired; a live one here was created after the check
  // above (another device), so there is no outcome to tell yet.
  return row.expires_at <= now ? { qrcodeId: row.id, status: 'EXPIRED' } : null;
}

export async function createQr(ctx: DepositsContext, playerId: number, bank: QrBank, rawAmount: unknown): Promise<QrRecord> {
  const amount = parseWireBaht(rawAmount);
  if (amount === null || amount <= 0) throw refuse(400);
  const rules = await readDepositRules(ctx.db);
  if (amount < minimumSatang(rules, bank) || amount > Math.round(rules.qrMaximum * 100)) throw refuse();
  const player = await findPlayer(ctx.db, playerId);
  if (!player) throw notFound('NO_USER');
  // PromptPay and the gateway's wallets settle in baht only.
  if (player.currency !== 'THB') throw refuse();

  const now = ctx.now();
  // Before the gateway is asked for a QR; checked again below under the player's lock, where it counts.
  await ctx.db.transaction().execute((trx) => checkLimits(trx, playerId, amount, now));
  const id = `qr_${crypto.randomBytes(12).toString('hex')}`;
  let expiresAt = new Date(now.getTime() + rules.qrValidityMinutes * 60_000);
  let payload: string;
  if (bank === 'KBANK') {
    payload = promptPayPayload(ctx.env.promptPayId, amount);
  } else {
    try {
      const qr = await ctx.gateway.createQr({ channel: bank, reference: id, amountSatang: amount, expiresAt }, ctx.call);
      payload = qr.imageUrl ? `${IMAGE_PAYLOAD_PREFIX}${qr.imageUrl}` : qr.payload;
      if (qr.expiresAt < expiresAt) expiresAt = qr.expiresAt;
    } catch (e) {
      if (!(e instanceof GatewayError)) ctx.log.error({ err: e }, 'payment gateway createQr failed');
      throw refuse(502);
    }
  }

  const row: QrDepositsTable = {
    id,
    player_id: playerId,
    bank_code: bank,
    amount,
    currency: player.currency,
    payload,
    status: 'LIVE',
    live_player_id: playerId,
    expires_at: nowIso(expiresAt),
    paid_amount: null,
    paid_event_id: null,
    created_at: nowIso(now),
    updated_at: nowIso(now),
  };
  let replaced: QrDepositsTable | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      replaced = await ctx.db.transaction().execute(async (trx) => {
        // One create at a time per player: on PostgreSQL the player's row lock queues concurrent creates,
        // so each ends the one before it instead of racing for the live slot (SQLite already serializes).
        await lockPlayer(trx, playerId);
        await checkLimits(trx, playerId, amount, now);
        const old = await endLiveQr(trx, playerId, nowIso(now));
        await insertQr(trx, row);
        return old;
      });
      break;
    } catch (e) {
      // Refused under the lock: the gateway's QR is not used.
      if (e instanceof QrRefused && bank !== 'KBANK') void ctx.gateway.cancelQr(id, ctx.call).catch(() => undefined);
      // Two creates at once: the other one took the live slot; end it and take it (the newest QR wins).
      if (!isUniqueViolation(e) || attempt >= 3) throw e;
    }
  }
  if (replaced && replaced.bank_code !== 'KBANK') void ctx.gateway.cancelQr(replaced.id, ctx.call).catch(() => undefined);
  return toRecord(row, now);
}

/**
 * Cancels a QR. The path names the qrcodeId (spec §7); a bank code is also understood (the live QR of that
 * bank). Cancelling what is no longer live answers the same; a paid QR cannot be cancelled.
 */
export async function cancelQr(ctx: DepositsContext, playerId: number, idOrBank: string): Promise<QrRecord> {
  const now = nowIso(ctx.now());
  let qr: QrDepositsTable | undefined;
  if (isQrBank(idOrBank)) {
    const live = await findLiveQr(ctx.db, playerId);
    qr = live && live.bank_code === idOrBank ? live : undefined;
    if (!qr) return noQr();
  } else {
    qr = await findQr(ctx.db, idOrBank);
    if (!qr || Number(qr.player_id) !== playerId) throw notFound('NO_DATA');
  }
  if (qr.status === 'PAID' || qr.status === 'REVIEW') throw conflict('QR_FAIL');
  if (qr.status === 'LIVE') {
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('qr_deposits')
        .set({ status: qr!.expires_at <= now ? 'EXPIRED' : 'CANCELLED', live_player_id: null, updated_at: now })
        .where('id', '=', qr!.id)
        .where('status', '=', 'LIVE')
        .execute();
    });
    if (qr.bank_code !== 'KBANK') void ctx.gateway.cancelQr(qr.id, ctx.call).catch(() => undefined);
  }
  return { ...noQr(), qrcodeId: qr.id, bankCode: qr.bank_code };
}

