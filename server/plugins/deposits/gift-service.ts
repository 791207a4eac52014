import crypto from 'node:crypto';
import { nowIso } from '../../db';
import { AppError, conflict, notFound, unprocessable } from '../../errors';
import { parseBaht, toBaht } from '../../ledger/money';
import { openGiftLink } from './domain/giftlink';
import type { GiftRedeemFailure } from '../../adapters/gift';
import { lockPlayer } from '../../ledger';
import type { DepositsContext } from './context';
import { creditOrHold } from './credit';
import { isUniqueViolation } from '../../db/portable';
import { deleteGift, findPlayer, insertGift, readDepositRules, updateGift } from './repository';
import { checkDepositAllowed } from '../play-limits';

/**
 * Mobile-wallet gift links (RULES.md "Deposits"): decrypt with the shared key, accept only voucher links
 * (TRUELINK_INVALID), a voucher once (TRUELINK_DUPLICATE), at least the gift minimum [2 baht], redeem
 * through the adapter, credit the wallet. The voucher row is claimed before the redeemer is called, so two
 * concurrent sends of one link redeem it once. Deposit limits (issue 15): the voucher's amount is checked and
 * reserved on the row (counted as deposited) under the player's lock before the redeemer is called, so parallel
 * links cannot pass a limit together and a refused voucher is not taken.
 */
const CODE_OF: Record<GiftRedeemFailure, string> = {
  VOUCHER_NOT_FOUND: 'TRUELINK_INVALID',
  VOUCHER_EXPIRED: 'TRUELINK_INVALID',
  CANNOT_GET_OWN_VOUCHER: 'TRUELINK_INVALID',
  VOUCHER_OUT_OF_STOCK: 'TRUELINK_DUPLICATE',
  SERVICE_UNAVAILABLE: 'UNKNOW_ERROR',
};
const statusOf = (code: string) => (code === 'TRUELINK_DUPLICATE' ? 409 : code === 'UNKNOW_ERROR' ? 503 : 422);

export interface GiftResult {
  status: 'SUCCESS';
  /** Baht credited. */
  amount: number;
  message: 'SUCCESS';
}

export async function redeemGiftLink(ctx: DepositsContext, playerId: number, encrypted: string): Promise<GiftResult> {
  const opened = openGiftLink(encrypted);
  if (!opened.ok) throw unprocessable('TRUELINK_INVALID');
  const player = await findPlayer(ctx.db, playerId);
  if (!player) throw notFound('NO_USER');
  if (player.currency !== 'THB') throw unprocessable('TRUELINK_INVALID');
  const rules = await readDepositRules(ctx.db);
  const id = `gft_${crypto.randomBytes(12).toString('hex')}`;
  const now = nowIso(ctx.now());
  try {
    await insertGift(ctx.db, { id, player_id: playerId, voucher_id: opened.voucherId, status: 'IN_PROGRESS', amount: 0, currency: player.currency, reason: null, created_at: now, updated_at: now });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('TRUELINK_DUPLICATE');
    throw e;
  }

  // Refusals before any money moved free the voucher again only when the cause may pass (an outage).
  const refuse = async (reason: GiftRedeemFailure | 'BELOW_MINIMUM'): Promise<never> => {
    const code = reason === 'BELOW_MINIMUM' ? 'TRUELINK_INVALID' : CODE_OF[reason];
    if (reason === 'SERVICE_UNAVAILABLE') await deleteGift(ctx.db, id);
    else await updateGift(ctx.db, id, { status: 'FAILED', reason, updated_at: nowIso(ctx.now()) });
    throw new AppError(statusOf(code), code);
  };

  const seen = await ctx.gift.inspect(opened.voucherId, ctx.call);
  if (!seen.ok) return refuse(seen.reason);
  if (seen.amountSatang < (parseBaht(rules.giftMinimum) ?? 200)) return refuse('BELOW_MINIMUM');

  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockPlayer(trx, playerId);
      await checkDepositAllowed(trx, playerId, seen.amountSatang, ctx.now());
      await trx.updateTable('gift_redemptions').set({ amount: seen.amountSatang, updated_at: nowIso(ctx.now()) }).where('id', '=', id).execute();
    });
  } catch (e) {
    // Refused before the redeemer: the voucher is not taken, and stays free for later.
    await deleteGift(ctx.db, id);
    throw e;
  }

  const redeemed = await ctx.gift.redeem(opened.voucherId, ctx.env.giftReceiverMobile, ctx.call);
  if (!redeemed.ok) return refuse(redeemed.reason);

  // The money is ours now: credit it. Should this fail, the row stays IN_PROGRESS with the voucher for staff.
  // The row leaves IN_PROGRESS first, so the limit check does not count its own reservation; the voucher may
  // hold more than inspected, or the limit was lowered meanwhile: then it is held (IN_PROGRESS, DEPOSIT_LIMIT).
  const done = await ctx.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    await trx.updateTable('gift_redemptions').set({ status: 'SUCCESS', amount: redeemed.amountSatang, updated_at: nowIso(ctx.now()) }).where('id', '=', id).execute();
    const credit = { playerId, amount: redeemed.amountSatang, currency: player.currency, source: 'TRUEMONEY', refId: `gift:${opened.voucherId}` };
    const outcome = await creditOrHold(trx, rules, credit, { source: 'gift', refId: id, now: ctx.now() });
    if (outcome.held) await trx.updateTable('gift_redemptions').set({ status: 'IN_PROGRESS', reason: 'DEPOSIT_LIMIT' }).where('id', '=', id).execute();
    return outcome;
  });
  if (done.held) throw unprocessable('DEPOSIT_LIMIT');
  return { status: 'SUCCESS', amount: toBaht(redeemed.amountSatang), message: 'SUCCESS' };
}
