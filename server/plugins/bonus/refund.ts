import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import { unprocessable } from '../../errors';
import { creditWallet, parseBaht, writeStatement, lockPlayer } from '../../ledger';
import { currencyOf } from '../../ledger/accounts';
import { bonusFailedSince, findActiveBonus, lastRefund, unrefundedNetLoss } from './repository';
import { readRefundSettings, refundInfo, type RefundSettings } from './settings';
import type { Localized } from './definitions';

/**
 * Refund of losses (RULES.md "Refund, invite, wheel", docs/bonus.md "Refund"): the net loss (bets - wins) of the
 * player's stored rounds that no refund counted yet, times refundSuccess%, or refundFail% when a bonus of the
 * player failed since the last refund. Paid from refund_budget. Each round is counted by one refund at most
 * (bet_rounds.refund_id), so a round the feed delivers late is counted by the next refund.
 */

/** Percent to basis points (5 -> 500, 0.5 -> 50). */
const bp = (percent: number) => parseBaht(percent) ?? 0;
const refundOf = (netLoss: number, percentBp: number) => (netLoss > 0 ? Math.floor((netLoss * percentBp) / 10_000) : 0);

export interface RefundCheck {
  result: boolean;
  bonus: boolean;
  info: Localized;
  /** Satang. */
  refundAmount: number;
  refundSuccess: number;
  refundFail: number;
}

async function percentFor(db: Kysely<DB>, playerId: number, s: RefundSettings): Promise<{ percent: number; bonusFailed: boolean }> {
  const last = await lastRefund(db, playerId);
  const bonusFailed = await bonusFailedSince(db, playerId, last?.created_at ?? null);
  return { percent: bonusFailed ? s.refundFail : s.refundSuccess, bonusFailed };
}

/** GET /api/refund/check: what receive would pay now (nothing while switched off). */
export async function checkRefund(db: Kysely<DB>, playerId: number): Promise<RefundCheck> {
  const s = await readRefundSettings(db);
  const active = !!(await findActiveBonus(db, playerId));
  let amount = 0;
  if (s.isActive) {
    const { percent } = await percentFor(db, playerId, s);
    amount = refundOf(await unrefundedNetLoss(db, playerId), bp(percent));
  }
  return { result: amount > 0, bonus: active, info: refundInfo(s), refundAmount: amount, refundSuccess: s.refundSuccess, refundFail: s.refundFail };
}

/**
 * GET /api/refund/receive: in one transaction under the player's lock, REFUND_INACTIVE (switched off),
 * REFUND_CONDITION (a bonus is active), then the rounds not yet refunded are claimed by a new refund row and
 * summed; REFUND_MINIMUM when that pays nothing (the claim rolls back, so a net win carries forward);
 * otherwise the credit from refund_budget and a `bonus` statement line linked as refund. Returns satang.
 */
export async function receiveRefund(db: Kysely<DB>, playerId: number, now: Date): Promise<number> {
  const s = await readRefundSettings(db);
  if (!s.isActive) throw unprocessable('REFUND_INACTIVE');
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    if (await findActiveBonus(trx, playerId)) throw unprocessable('REFUND_CONDITION');
    const { percent, bonusFailed } = await percentFor(trx, playerId, s);
    const currency = await currencyOf(trx, playerId);
    const at = nowIso(now);
    const row = await trx
      .insertInto('refunds')
      .values({ player_id: playerId, currency, amount: 0, net_loss: 0, percent_bp: bp(percent), bonus_failed: bonusFailed ? 1 : 0, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    // Claim first, then sum what was claimed: exactly the rounds this refund counts, even with the feed writing. A
    // seamless round still open (its bet taken, its win to come: bet_rounds.open) waits for the next refund.
    await trx.updateTable('bet_rounds').set({ refund_id: id }).where('player_id', '=', playerId).where('refund_id', 'is', null).where('open', '=', 0).execute();
    const sum = await trx
      .selectFrom('bet_rounds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb('bet', '-', eb.ref('win'))), eb.val(0)).as('s'))
      .where('refund_id', '=', id)
      .executeTakeFirstOrThrow();
    const netLoss = Number(sum.s);
    const amount = refundOf(netLoss, bp(percent));
    if (amount <= 0) throw unprocessable('REFUND_MINIMUM');
    await trx.updateTable('refunds').set({ amount, net_loss: netLoss }).where('id', '=', id).execute();
    await creditWallet(trx, { playerId, amount, from: 'refund_budget', kind: 'refund', reference: `refund:${id}` });
    await writeStatement(trx, {
      playerId,
      type: 'bonus',
      status: 'SUCCESS',
      from: 'REFUND',
      to: 'WALLET',
      amount,
      currency,
      refType: 'refund',
      refId: String(id),
      linked: { type: 'refund', description: `${percent}%` },
    });
    return amount;
  });
}

/** POST /api/refund: the player's refunds, newest first. */
export async function listRefunds(db: Kysely<DB>, playerId: number, page: number, limit: number) {
  const total = await db.selectFrom('refunds').select((eb) => eb.fn.countAll<number>().as('n')).where('player_id', '=', playerId).executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('refunds')
    .select(['amount', 'created_at'])
    .where('player_id', '=', playerId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { total: Number(total.n), rows: rows.map((r) => ({ amount: Number(r.amount), createdAt: r.created_at })) };
}
