import type { Generated } from 'kysely';

/**
 * Tables of the invite bonus and the prize wheel (migration 202611260020_invite_wheel, docs/invite-wheel.md).
 * Money is satang; what moves is in the ledger (invite_budget, spin_budget), these rows say why.
 */

/**
 * Why an invitee's first deposit earned nothing (null: it earned): invites were switched off, the inviter's
 * account was not active, the inviter named themself, the two wallets are in different currencies, the
 * invitee's bank account was an earlier invitee's at their first deposit, or the first deposit was made before
 * invites existed; `cap`: the inviter's daily cap was used up on the day it qualified. `bank` is also written at payout,
 * when the invitee's current bank account is another earning's.
 */
export type InviteEarningNote = 'off' | 'closed' | 'self' | 'currency' | 'bank' | 'before' | 'cap';

/** One row per invitee, written in the transaction that credits the invitee's first deposit. */
export interface InviteEarningsTable {
  id: Generated<number>;
  inviter_id: number;
  /** Unique: only the first deposit of an invitee earns. */
  invitee_id: number;
  /** The deposit's reference (deposit:{refId}); 'before' for the backfill of deposits made before invites. */
  deposit_ref: string;
  deposit_amount: number;
  /** Satang the inviter earned: deposit x percent (rounded down), at most the cap; 0 with a note. */
  amount: number;
  /** The inviter's wallet currency (the earning is paid there). */
  currency: string;
  percent_bp: number;
  note: InviteEarningNote | null;
  /** The invitee's bank account number at the deposit: one bank account earns an inviter once. */
  bank_account_no: string | null;
  /** The receipt that paid it, null until received. */
  receipt_id: number | null;
  created_at: string;
  /** When it became receivable: the invitee wagered the deposit and the daily cap applied; null until then. */
  qualified_at: string | null;
}

/** One GET /api/invite/bonus that paid: the sum of the earnings it claimed. */
export interface InviteReceiptsTable {
  id: Generated<number>;
  player_id: number;
  currency: string;
  amount: number;
  earnings: number;
  created_at: string;
}

export type WheelPrizeType = 'cash' | 'coin' | 'none';
export type CouponStatus = 'CLAIMABLE' | 'CLAIMED';

/** Every spin: the coin it took and the slice the server drew. */
export interface WheelSpinsTable {
  id: Generated<number>;
  player_id: number;
  slice_code: string;
  prize_type: WheelPrizeType;
  /** Satang (cash) or coins (coin); 0 for none. */
  amount: number;
  coupon_id: number | null;
  created_at: string;
}

/**
 * A prize won on the wheel, with the prize as it was at the spin (the operator may change the wheel later).
 * EXPIRED is not stored: a CLAIMABLE coupon past expires_at is expired.
 */
export interface WheelCouponsTable {
  id: Generated<number>;
  player_id: number;
  slice_code: string;
  label: string;
  /** JSON {th, la, en}. */
  prize_name: string;
  /** JSON {th, la, en}. */
  html_description: string;
  prize_type: WheelPrizeType;
  /** Satang (cash, in the player's wallet currency) or coins (coin). */
  amount: number;
  currency: string;
  status: CouponStatus;
  expires_at: string;
  claimed_at: string | null;
  created_at: string;
}

export interface InviteWheelTables {
  invite_earnings: InviteEarningsTable;
  invite_receipts: InviteReceiptsTable;
  wheel_spins: WheelSpinsTable;
  wheel_coupons: WheelCouponsTable;
}
