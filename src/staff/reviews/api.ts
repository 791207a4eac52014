/** The payments-under-review staff routes (/work contract: GET/POST /api/staff/reviews..., roles payments and admin). */
import { call } from '../staffApi';

export type ReviewStatus = 'OPEN' | 'APPROVED' | 'REJECTED';
export type ReviewKind =
  | 'AMOUNT_MISMATCH' | 'QR_EXPIRED' | 'QR_CANCELLED' | 'QR_ALREADY_PAID' | 'UNKNOWN_REFERENCE' | 'DEPOSIT_LIMIT' | 'SLIP_NOT_MATCH'
  // A payout result the gateway reported against the recorded one: approve makes the books follow the gateway.
  | 'PAYOUT_PAID_AFTER_FAIL' | 'PAYOUT_FAIL_AFTER_PAID';
export type ReviewSource = 'qr' | 'slip' | 'gift' | 'webhook' | 'payout';

/** Kinds whose approval follows the gateway's payout result instead of crediting a deposit. */
export const isPayoutReview = (kind: ReviewKind): kind is 'PAYOUT_PAID_AFTER_FAIL' | 'PAYOUT_FAIL_AFTER_PAID' =>
  kind === 'PAYOUT_PAID_AFTER_FAIL' || kind === 'PAYOUT_FAIL_AFTER_PAID';

export const REVIEW_STATUSES: readonly ReviewStatus[] = ['OPEN', 'APPROVED', 'REJECTED'];

/** A payment the code could not decide alone, as GET /api/staff/reviews answers it. */
export interface Review {
  /** 'rev_' + hex. */
  id: string;
  kind: ReviewKind;
  source: ReviewSource;
  /** The QR id, slip reference, voucher id or the webhook's reference. */
  reference: string;
  /** Null only for UNKNOWN_REFERENCE: such a payment can be rejected, never credited. */
  player: { id: number; phone: string; name: string } | null;
  /** What actually arrived, in baht (or kip), 2 decimals. */
  amount: number;
  currency: string;
  createdAt: string;
  status: ReviewStatus;
  decidedBy: { id: number; username: string; name: string } | null;
  decidedAt: string | null;
  reason: string | null;
}

const review = (id: string) => `/api/staff/reviews/${encodeURIComponent(id)}`;

export const reviewsApi = {
  /** Newest first. */
  list: (status: ReviewStatus) => call<{ reviews: Review[] }>('GET', `/api/staff/reviews?status=${status}`),
  get: (id: string) => call<Review>('GET', review(id)),
  /** Credits the player once through the ledger; 409 REVIEW_DECIDED, 422 REVIEW_NO_PLAYER, 404 NO_DATA, 400 REASON_REQUIRED. */
  approve: (id: string, reason: string) => call<Review>('POST', `${review(id)}/approve`, { reason }),
  /** No money; the player sees the reason on a FAILED deposit line of their statement. */
  reject: (id: string, reason: string) => call<Review>('POST', `${review(id)}/reject`, { reason }),
};
