import crypto from 'node:crypto';
import { nowIso } from '../../db';
import { AppError, conflict, notFound, unprocessable } from '../../errors';
import { parseBaht, toBaht } from '../../ledger/money';
import { openGiftLink } from '../../deposits/giftlink';
import type { GiftRedeemFailure } from '../../adapters/gift';
import type { DepositsContext } from './context';
import { creditDeposit } from './credit';
import { deleteGift, findPlayer, insertGift, isUniqueViolation, readDepositRules, updateGift } from './repository';

/**
 * Mobile-wallet gift links (RULES.md "Deposits"): decrypt with the shared key, accept only voucher links
 * (TRUELINK_INVALID), a voucher once (TRUELINK_DUPLICATE), at least the gift minimum [2 baht], redeem
 * through the adapter, credit the wallet. The voucher row is claimed before the redeemer is called, so two
 * concurrent sends of one link redeem it once.
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

  const seen = await ctx.gift.inspect(opened.voucherId);
  if (!seen.ok) return refuse(seen.reason);
  if (seen.amountSatang < (parseBaht(rules.giftMinimum) ?? 200)) return refuse('BELOW_MINIMUM');

  const redeemed = await ctx.gift.redeem(opened.voucherId, ctx.env.giftReceiverMobile);
  if (!redeemed.ok) return refuse(redeemed.reason);

  // The money is ours now: credit it. Should this fail, the row stays IN_PROGRESS with the voucher for staff.
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('gift_redemptions').set({ status: 'SUCCESS', amount: redeemed.amountSatang, updated_at: nowIso(ctx.now()) }).where('id', '=', id).execute();
    await creditDeposit(trx, rules, { playerId, amount: redeemed.amountSatang, currency: player.currency, source: 'TRUEMONEY', refId: `gift:${opened.voucherId}` });
  });
  return { status: 'SUCCESS', amount: toBaht(redeemed.amountSatang), message: 'SUCCESS' };
}
