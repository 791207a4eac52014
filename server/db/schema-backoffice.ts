/** Back office tables (issue 14, migration 202611261720_payment_reviews, docs/staff.md "Back office"). */

export type ReviewKind =
  | 'AMOUNT_MISMATCH' | 'QR_EXPIRED' | 'QR_CANCELLED' | 'QR_ALREADY_PAID' | 'UNKNOWN_REFERENCE' | 'DEPOSIT_LIMIT' | 'SLIP_NOT_MATCH'
  // A gateway's payout result contradicting the one recorded (issue 39 row 4): paid after we recorded it failed (the
  // money went back to the wallet too), failed after we recorded it paid (the player's money is gone).
  | 'PAYOUT_PAID_AFTER_FAIL' | 'PAYOUT_FAIL_AFTER_PAID';
export type ReviewSource = 'qr' | 'slip' | 'gift' | 'webhook' | 'payout';
export type ReviewStatus = 'OPEN' | 'APPROVED' | 'REJECTED';

/** Money that arrived and was not credited automatically: staff approve (credit once) or reject it. */
export interface PaymentReviewsTable {
  /** 'rev_' + 128 random bits, hex. */
  id: string;
  kind: ReviewKind;
  source: ReviewSource;
  /** The qrcodeId, the slip's bank transaction reference, the gift voucher id, or an unknown webhook reference. */
  reference: string;
  /**
   * The payment event that brought the money (webhook kinds), '' otherwise. Part of the unique key (source,
   * reference, kind, event_id): two payments of one QR after it expired are two reviews; one slip transfer
   * uploaded several times by players who do not own it is one.
   */
  event_id: string;
  /** What the review settles: the qr id (QR kinds), the hold id (DEPOSIT_LIMIT), the slip id (SLIP_NOT_MATCH), the withdrawal id (PAYOUT_*). */
  subject_id: string | null;
  player_id: number | null;
  /** Satang: what actually arrived. */
  amount: number;
  currency: string;
  status: ReviewStatus;
  decided_by: number | null;
  decided_at: string | null;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface BackofficeTables {
  payment_reviews: PaymentReviewsTable;
}
