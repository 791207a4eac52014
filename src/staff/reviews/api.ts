/** The payments-under-review staff routes (/work contract: GET/POST /api/staff/reviews..., roles payments and admin). */
import { staffApi } from '../staffApi';

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

/** A decision, or a refusal saying the list is out of date (decided meanwhile, or gone), reloads the list. */
const reloadsList = (error: { code: string } | undefined) => !error || error.code === 'REVIEW_DECIDED' || error.code === 'NO_DATA';

export const reviewsApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    /** Newest first. */
    reviews: build.query<{ reviews: Review[] }, ReviewStatus>({ query: (status) => `/api/staff/reviews?status=${status}`, providesTags: ['Reviews'] }),
    review: build.query<Review, string>({ query: (id) => review(id) }),
    /** Credits the player once through the ledger; 409 REVIEW_DECIDED, 422 REVIEW_NO_PLAYER, 404 NO_DATA, 400 REASON_REQUIRED. */
    approveReview: build.mutation<Review, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `${review(id)}/approve`, method: 'POST', body: { reason } }),
      invalidatesTags: (_r, error) => (reloadsList(error) ? ['Reviews'] : []),
    }),
    /** No money; the player sees the reason on a FAILED deposit line of their statement. */
    rejectReview: build.mutation<Review, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `${review(id)}/reject`, method: 'POST', body: { reason } }),
      invalidatesTags: (_r, error) => (reloadsList(error) ? ['Reviews'] : []),
    }),
  }),
});

export const { useReviewsQuery, useApproveReviewMutation, useRejectReviewMutation } = reviewsApi;
