import type { DB } from '../../db/schema';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { WheelCouponsTable } from '../../db/schema-invite-wheel';
import { nowIso } from '../../db';
import { badRequest, notFound, unprocessable } from '../../errors';
import { creditWallet, toBaht, writeStatement, lockPlayer } from '../../ledger';
import { currencyOf } from '../../ledger/accounts';
import type { Localized } from '../../lib/localized';
import { activeWheel, prizeUnits } from './config';
import { drawSlice, type RandomInt } from './draw';

/**
 * The spin machine's server side (RULES.md "Refund, invite, wheel", docs/invite-wheel.md): a spin takes one coin
 * and draws a slice by the configured weights; a prize becomes a coupon valid couponValidDays; a claim pays it
 * once (cash from spin_budget into the wallet, or coins).
 */
export interface WheelDeps {
  db: Kysely<DB>;
  now: () => Date;
  random: RandomInt;
}

const DAY_MS = 86_400_000;

export async function coinsOf(db: Kysely<DB> | Transaction<DB>, playerId: number): Promise<number> {
  const r = await db.selectFrom('players').select('coin').where('id', '=', playerId).executeTakeFirst();
  return Number(r?.coin ?? 0);
}

/** GET /api/spinwheel/setup */
export async function setup(db: Kysely<DB>, playerId: number) {
  const [wheel, userCoin] = await Promise.all([activeWheel(db), coinsOf(db, playerId)]);
  return {
    result: {
      activeSpinwheel: wheel && {
        name: wheel.name,
        slices: wheel.slices.map((s) => ({ code: s.code, label: s.label, labels: s.labels, bgColor: s.bgColor, textColor: s.textColor, prize: { htmlDescription: s.prize.htmlDescription } })),
      },
      userCoin,
    },
  };
}

export interface SpinResult {
  code: string;
  label: string;
  /** The label per language (config.ts WheelSlice.labels). */
  labels: Localized;
  remainingCoin: number;
  couponId: string | null;
}

/**
 * POST /api/spinwheel/spin, one transaction under the player's lock: WHEEL_INACTIVE without an active wheel;
 * one coin taken by a conditional update (NO_COIN at zero); the slice drawn; its prize stored as a coupon
 * (none for a `none` slice); the spin recorded. Of 50 spins racing on one coin, one spins.
 */
export async function spin(deps: WheelDeps, playerId: number): Promise<SpinResult> {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    const wheel = await activeWheel(trx);
    if (!wheel) throw unprocessable('WHEEL_INACTIVE');
    const taken = await trx
      .updateTable('players')
      .set((eb) => ({ coin: eb('coin', '-', 1) }))
      .where('id', '=', playerId)
      .where('coin', '>', 0)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw unprocessable('NO_COIN');
    const slice = drawSlice(wheel.slices, deps.random);
    const amount = prizeUnits(slice.prize);
    let couponId: number | null = null;
    if (slice.prize.type !== 'none') {
      const row = await trx
        .insertInto('wheel_coupons')
        .values({
          player_id: playerId,
          slice_code: slice.code,
          label: slice.label,
          prize_name: JSON.stringify(slice.prize.name),
          html_description: JSON.stringify(slice.prize.htmlDescription),
          prize_type: slice.prize.type,
          amount,
          currency: await currencyOf(trx, playerId),
          status: 'CLAIMABLE',
          expires_at: nowIso(new Date(now.getTime() + wheel.couponValidDays * DAY_MS)),
          claimed_at: null,
          created_at: nowIso(now),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      couponId = Number(row.id);
    }
    await trx
      .insertInto('wheel_spins')
      .values({ player_id: playerId, slice_code: slice.code, prize_type: slice.prize.type, amount, coupon_id: couponId, created_at: nowIso(now) })
      .execute();
    return { code: slice.code, label: slice.label, labels: slice.labels, remainingCoin: await coinsOf(trx, playerId), couponId: couponId === null ? null : String(couponId) };
  });
}

export type CouponStatusView = 'CLAIMABLE' | 'CLAIMED' | 'EXPIRED';

export interface CouponView {
  _id: string;
  prize: { name: Localized; label: string; htmlDescription: Localized };
  amount: number;
  type: WheelCouponsTable['prize_type'];
  status: CouponStatusView;
  expiresAt: string;
  createdAt: string;
}

/** A coupon past its time is expired: now at or after expires_at. */
const isExpired = (c: Pick<WheelCouponsTable, 'expires_at'>, now: Date) => nowIso(now) >= c.expires_at;

export function couponView(c: Selectable<WheelCouponsTable>, now: Date): CouponView {
  const status: CouponStatusView = c.status === 'CLAIMED' ? 'CLAIMED' : isExpired(c, now) ? 'EXPIRED' : 'CLAIMABLE';
  return {
    _id: String(c.id),
    prize: { name: JSON.parse(c.prize_name) as Localized, label: c.label, htmlDescription: JSON.parse(c.html_description) as Localized },
    amount: c.prize_type === 'cash' ? toBaht(Number(c.amount)) : Number(c.amount),
    type: c.prize_type,
    status,
    expiresAt: c.expires_at,
    createdAt: c.created_at,
  };
}

/** GET /api/spinwheel/coupon: the player's coupons, newest first. */
export async function listCoupons(db: Kysely<DB>, playerId: number, page: number, limit: number, now: Date) {
  const total = await db.selectFrom('wheel_coupons').select((eb) => eb.fn.countAll<number>().as('n')).where('player_id', '=', playerId).executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('wheel_coupons')
    .selectAll()
    .where('player_id', '=', playerId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { total: Number(total.n), coupons: rows.map((r) => couponView(r, now)) };
}

/** A coupon id as the SPA sends it (the string _id); anything else is INVALID_CODE. */
export function parseCouponId(v: unknown): number | null {
  if (typeof v !== 'string' || !/^[1-9]\d{0,14}$/.test(v)) return null;
  return Number(v);
}

/**
 * POST /api/spinwheel/coupon/claim, one transaction under the player's lock. In order: a malformed id 400
 * INVALID_CODE; unknown, another player's or already claimed 404 NO_CLAIMABLE_COUPON; a prize that pays nothing
 * 422 INVALID_COUPON_TYPE; past its time 422 COUPON_EXPIRED. Then the coupon is marked CLAIMED by a conditional
 * update and paid: cash spin_budget -> wallet (entry luckydraw:{couponId}, a `bonus` statement line linked as
 * luckydraw), coins added to players.coin. Claims do not need the wheel to be switched on.
 */
export async function claimCoupon(deps: WheelDeps, playerId: number, rawId: unknown): Promise<CouponView> {
  const id = parseCouponId(rawId);
  if (id === null) throw badRequest('INVALID_CODE');
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    const c = await trx.selectFrom('wheel_coupons').selectAll().where('id', '=', id).where('player_id', '=', playerId).executeTakeFirst();
    if (!c || c.status !== 'CLAIMABLE') throw notFound('NO_CLAIMABLE_COUPON');
    if (c.prize_type !== 'cash' && c.prize_type !== 'coin') throw unprocessable('INVALID_COUPON_TYPE');
    if (isExpired(c, now)) throw unprocessable('COUPON_EXPIRED');
    const at = nowIso(now);
    const done = await trx.updateTable('wheel_coupons').set({ status: 'CLAIMED', claimed_at: at }).where('id', '=', id).where('status', '=', 'CLAIMABLE').executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw notFound('NO_CLAIMABLE_COUPON');
    const amount = Number(c.amount);
    if (c.prize_type === 'cash') {
      await creditWallet(trx, { playerId, amount, from: 'spin_budget', kind: 'luckydraw', reference: `luckydraw:${id}` });
      await writeStatement(trx, {
        playerId,
        type: 'bonus',
        status: 'SUCCESS',
        from: 'LUCKYDRAW',
        to: 'WALLET',
        amount,
        currency: c.currency,
        refType: 'luckydraw',
        refId: String(id),
        linked: { type: 'luckydraw', description: c.label },
      });
    } else {
      await trx.updateTable('players').set((eb) => ({ coin: eb('coin', '+', amount) })).where('id', '=', playerId).execute();
    }
    return couponView({ ...c, id, status: 'CLAIMED', claimed_at: at }, now);
  });
}
