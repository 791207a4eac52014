import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { nowIso } from '../../db';
import { AppError, badRequest, conflict, notFound, tooMany, unprocessable } from '../../errors';
import { toBaht } from '../../ledger/money';
import { MAX_SLIP_MEGAPIXELS, SlipReadError, bankNumberOf, extensionOf, sniffImageType, type SlipQr } from './domain/slip-qr';
import { checkImage } from '../../lib/image-header';
import { readUploadLimits } from '../../settings/upload-limits';
import { chargeUpload, hasDiskRoom, settleUpload, subjectsOf, type QuotaCharge } from '../../db/upload-quota';
import { SlipReaderBusy } from './slip-pool';
import { isInClosedHours } from './domain/slip-hours';
import type { SlipsTable } from '../../db/schema-deposits';
import type { VerifiedTransfer } from '../../adapters/slip-verify';
import { isUniqueViolation } from '../../db/portable';
import { lockPlayer } from '../../ledger';
import type { DepositsContext } from './context';
import { creditOrHold } from './credit';
import { recordPaymentReview } from './review-line';
import {
  countSlips,
  deleteSlip,
  findClaimedReference,
  findPlayer,
  findPlayerSlipByReference,
  insertSlipWithinNotMatchLimit,
  listReceivingAccounts,
  listSlips,
  readDepositRules,
  readSlipSetting,
  updateSlip,
} from './repository';
import { slipImageUrl } from './domain/slip-links';

/**
 * Slip deposits (RULES.md "Deposits"): the upload is checked by its bytes, stored outside the web root,
 * recorded as a slip, its mini-QR read on the server, the reference checked for duplicates, the transfer
 * verified through the adapter (amount, sender, receiver, time) and, when everything holds, credited.
 */
export interface SlipView {
  id: string;
  createdAt: string;
  /** Baht (0 until the verifier told the amount). */
  amount: number;
  status: 'SUCCESS' | 'FAILED' | 'IN_PROGRESS';
  note: string | null;
  link: string | null;
  reference: string | null;
}

/** Refusals a slip is recorded with, and the status each answers (409 duplicate, 422 the others). */
const STATUS_OF: Record<string, number> = { SLIP_REFNO_DUPLICATED: 409 };

export function slipView(row: SlipsTable, secret: string, now: Date): SlipView {
  return {
    id: row.id,
    createdAt: row.created_at,
    amount: toBaht(Number(row.amount)),
    status: row.status,
    note: row.note,
    link: slipImageUrl(secret, Number(row.player_id), row.id, now),
    reference: row.reference,
  };
}

/** The rules that apply before the bytes are looked at: the slip setting's switch and closed hours. */
export async function assertSlipUploadOpen(ctx: DepositsContext): Promise<void> {
  const s = await readSlipSetting(ctx.db);
  if (!s.isOpen || isInClosedHours(s.closeFrom, s.closeTo, ctx.now())) throw unprocessable('SLIP_UPLOAD_FAIL');
}

const digits = (v: string | null | undefined) => (v ?? '').replace(/[^0-9xX]/g, '').toLowerCase();

/**
 * Account numbers as banks report them: in full, or masked with x (xxx-x-x1234-x). Equal when every digit
 * shown matches and at least four are shown.
 */
export function accountMatches(registered: string, reported: string | null): boolean {
  const a = digits(registered);
  const b = digits(reported);
  if (!a || !b || a.length !== b.length) return false;
  let shown = 0;
  for (let i = 0; i < a.length; i++) {
    if (b[i] === 'x') continue;
    if (b[i] !== a[i]) return false;
    shown++;
  }
  return shown >= 4;
}

export interface UploadInput {
  playerId: number;
  bytes: Buffer;
  /** Set when the upload exceeded the cap (the bytes are then truncated). */
  truncated: boolean;
}

export async function uploadSlip(ctx: DepositsContext, input: UploadInput): Promise<SlipView> {
  const rules = await readDepositRules(ctx.db);
  if (input.truncated || input.bytes.length > rules.slipMaxBytes) throw new AppError(413, 'SLIP_INVALID_FILE');
  if (input.bytes.length === 0) throw badRequest('SLIP_NO_FILE');
  const type = sniffImageType(input.bytes);
  if (!type) throw badRequest('SLIP_INVALID_FILE');
  const player = await findPlayer(ctx.db, input.playerId);
  if (!player) throw notFound('NO_USER');
  // The upload budgets (issue 39 row 3): the disk's watermark first, then the player's budget, both before the slip
  // is recorded or a byte stored. The charge is settled to what is kept: the file, or nothing when it is not stored.
  const limits = await readUploadLimits(ctx.db);
  if (!(await hasDiskRoom(ctx.env.dataDir, limits.minFreeDiskMb))) throw unavailable();
  const charge = await chargeUpload(ctx.db, limits, subjectsOf({ playerId: input.playerId, guestId: null, address: '' }), input.bytes.length, ctx.now());
  if (!charge) throw tooMany('REQUEST_LIMIT');
  try {
    return await recordAndRead(ctx, input, player, type, rules, charge);
  } catch (e) {
    if (e instanceof NotStored) {
      await settleUpload(ctx.db, charge, 0);
      throw e.error;
    }
    throw e;
  }
}

const unavailable = () => new AppError(503, 'UPLOAD_UNAVAILABLE');

/** A refusal before the file was kept (or after it was removed again): the budget gets its bytes back. */
class NotStored extends Error {
  constructor(readonly error: AppError) {
    super(error.code);
  }
}

async function recordAndRead(
  ctx: DepositsContext,
  input: UploadInput,
  player: NonNullable<Awaited<ReturnType<typeof findPlayer>>>,
  type: NonNullable<ReturnType<typeof sniffImageType>>,
  rules: Awaited<ReturnType<typeof readDepositRules>>,
  charge: QuotaCharge,
): Promise<SlipView> {

  const id = `slp_${crypto.randomBytes(12).toString('hex')}`;
  const fileName = `${crypto.randomBytes(16).toString('hex')}.${extensionOf(type)}`;
  const created = ctx.now();
  const row: SlipsTable = {
    id,
    player_id: input.playerId,
    status: 'IN_PROGRESS',
    note: null,
    amount: 0,
    currency: player.currency,
    reference: null,
    sending_bank: null,
    reference_claim: null,
    file_name: fileName,
    content_type: type,
    size: input.bytes.length,
    sender_account: null,
    receiver_account: null,
    transferred_at: null,
    created_at: nowIso(created),
    updated_at: nowIso(created),
  };
  // A player who keeps uploading other people's slips (NOT_MATCH) is stopped before any slip work; the
  // upload is recorded IN_PROGRESS in the same counted step, so parallel uploads cannot pass the limit.
  const since = nowIso(new Date(created.getTime() - rules.slipNotMatchWindowMinutes * 60_000));
  if (!(await insertSlipWithinNotMatchLimit(ctx.db, row, since, rules.slipNotMatchLimit))) throw new NotStored(tooMany('REQUEST_LIMIT'));
  // Stored under a random name outside the web root: every upload is kept for staff review.
  try {
    await fs.mkdir(ctx.env.uploadsDir, { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(ctx.env.uploadsDir, fileName), input.bytes, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    await deleteSlip(ctx.db, id);
    throw e;
  }
  await settleUpload(ctx.db, charge, input.bytes.length);

  const fail = async (note: string, extra: Partial<SlipsTable> = {}, claim = false): Promise<never> => {
    const set: Partial<SlipsTable> = { ...extra, status: 'FAILED', note, updated_at: nowIso(ctx.now()) };
    if (claim && row.reference) set.reference_claim = row.reference;
    try {
      await updateSlip(ctx.db, id, set);
    } catch (e) {
      // Someone else decided this reference meanwhile: then this upload is its duplicate.
      if (!claim || !isUniqueViolation(e)) throw e;
      await updateSlip(ctx.db, id, { ...set, reference_claim: null, note: 'SLIP_REFNO_DUPLICATED' });
      throw conflict('SLIP_REFNO_DUPLICATED');
    }
    throw new AppError(STATUS_OF[note] ?? 422, note);
  };

  // The header decides before any decoder runs (issue 39 row 2): an interlaced PNG (pngjs inflates it without a
  // bound) or a picture announcing more than MAX_SLIP_MEGAPIXELS never reaches a slip reader.
  const head = checkImage(input.bytes, { maxPixels: MAX_SLIP_MEGAPIXELS * 1e6, maxSide: 0x7fffffff, refuseInterlacedPng: true });
  if (head.problem) return fail(head.problem === 'malformed' ? 'INVALID_SLIP' : 'IMG_SIZE_UNABLE_TO_PROCESS');

  let qr: SlipQr;
  try {
    qr = await ctx.slips.read(input.bytes, rules.slipMaxBytes);
  } catch (e) {
    if (e instanceof SlipReadError) return fail(e.code === 'SLIP_INVALID_FILE' ? 'INVALID_SLIP' : e.code);
    if (e instanceof SlipReaderBusy) {
      // Too many slips wait for a reader: nothing of this upload stays (the player sends it again in a moment).
      await deleteSlip(ctx.db, id);
      await fs.rm(path.join(ctx.env.uploadsDir, fileName), { force: true });
      throw new NotStored(unavailable());
    }
    throw e;
  }
  row.reference = qr.transRef;
  await updateSlip(ctx.db, id, { reference: qr.transRef, sending_bank: qr.sendingBank });

  if (await findClaimedReference(ctx.db, qr.transRef)) return fail('SLIP_REFNO_DUPLICATED');

  const verified = await ctx.verifier.verify({ sendingBank: qr.sendingBank, transRef: qr.transRef, payload: qr.payload }, ctx.call);
  if (!verified.ok) {
    // Not found at the bank (or a bank mismatch) is an invalid slip; an outage is unknown and may be retried.
    return fail(verified.reason === 'SERVICE_UNAVAILABLE' ? 'UNKNOW_ERROR' : 'INVALID_SLIP');
  }
  const t = verified.transfer;
  const facts: Partial<SlipsTable> = {
    amount: t.amountSatang,
    sender_account: `${t.sender.bankCode}:${t.sender.accountNo}`,
    receiver_account: t.receiver.accountNo ?? t.receiver.promptPayId,
    transferred_at: nowIso(t.transferredAt),
  };
  if (!(await receiverIsOperator(ctx, t))) return fail('DEST_ACC_INVALID', facts, true);
  const senderBank = bankNumberOf(player.bank_code);
  if (!accountMatches(player.bank_account_no, t.sender.accountNo) || (senderBank !== null && senderBank !== qr.sendingBank)) {
    // About the uploader, not the slip: recorded against them for review, the reference stays free for its owner.
    // The staff review (one per bank reference) is written with the slip's outcome, in one transaction.
    await ctx.db.transaction().execute(async (trx) => {
      await updateSlip(trx, id, { ...facts, status: 'FAILED', note: 'NOT_MATCH', updated_at: nowIso(ctx.now()) });
      // With its statement line in progress (issue 40): the money the slip shows is the player's to see until staff decide.
      await recordPaymentReview(trx, { kind: 'SLIP_NOT_MATCH', source: 'slip', reference: qr.transRef, subjectId: id, playerId: input.playerId, amount: t.amountSatang, currency: player.currency, now: created, from: player.bank_code });
    });
    return fail('NOT_MATCH', facts);
  }
  const setting = await readSlipSetting(ctx.db);
  const age = ctx.now().getTime() - t.transferredAt.getTime();
  if (age > setting.uploadWindowMinutes * 60_000) return fail('EXPIRED_SLIP', facts, true);
  if (age < -5 * 60_000) return fail('INVALID_SLIP', facts); // dated in the future: not a real transfer
  // Thai bank slips are baht transfers: a wallet in another currency cannot take them 1:1.
  if (t.amountSatang <= 0 || player.currency !== 'THB') return fail('INVALID_SLIP', facts);

  let held = false;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockPlayer(trx, input.playerId);
      // Claim the reference first: of two uploads of one slip, the second fails here and credits nothing.
      await trx
        .updateTable('slips')
        .set({ ...facts, reference_claim: qr.transRef, status: 'SUCCESS', note: null, updated_at: nowIso(ctx.now()) })
        .where('id', '=', id)
        .execute();
      const credit = { playerId: input.playerId, amount: t.amountSatang, currency: player.currency, source: player.bank_code, refId: `slip:${qr.transRef}` };
      const done = await creditOrHold(trx, rules, credit, { source: 'slip', refId: id, now: ctx.now() });
      if (done.held) {
        // The transfer was made, so the money is held for staff (not credited, not lost); the reference stays
        // claimed so the slip cannot be sent again.
        held = true;
        await trx.updateTable('slips').set({ status: 'IN_PROGRESS', note: 'DEPOSIT_LIMIT', updated_at: nowIso(ctx.now()) }).where('id', '=', id).execute();
      }
    });
  } catch (e) {
    if (isUniqueViolation(e)) return fail('SLIP_REFNO_DUPLICATED', facts);
    throw e;
  }
  if (held) throw unprocessable('DEPOSIT_LIMIT');
  return slipView({ ...row, ...facts, status: 'SUCCESS', note: null, reference: qr.transRef } as SlipsTable, ctx.secret, ctx.now());
}

async function receiverIsOperator(ctx: DepositsContext, t: VerifiedTransfer): Promise<boolean> {
  // Real verifiers report the PromptPay id masked as the bank shows it (xxx-xxx-5678): compared like an account number.
  if (t.receiver.promptPayId && accountMatches(ctx.env.promptPayId, t.receiver.promptPayId)) return true;
  if (!t.receiver.accountNo) return false;
  const accounts = await listReceivingAccounts(ctx.db);
  return accounts.some((a) => a.account_no && bankNumberOf(a.bank_code ?? '') !== null && accountMatches(a.account_no, t.receiver.accountNo));
}

export async function listPlayerSlips(ctx: DepositsContext, playerId: number, page: number, limit: number) {
  const [rows, total] = await Promise.all([listSlips(ctx.db, playerId, page, limit), countSlips(ctx.db, playerId)]);
  const now = ctx.now();
  return { total: Number(total.n), slips: rows.map((r) => slipView(r as SlipsTable, ctx.secret, now)) };
}

export async function slipUrlByReference(ctx: DepositsContext, playerId: number, reference: string): Promise<{ url: string }> {
  const row = await findPlayerSlipByReference(ctx.db, playerId, reference);
  if (!row) throw notFound('NO_DATA');
  return { url: slipImageUrl(ctx.secret, playerId, row.id, ctx.now()) };
}
