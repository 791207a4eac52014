import { api } from '../../core/api';
import { localized, type LocalizedText } from '../../lib/localized';

/** One slice of the wheel (spec §3 spin setup; ../notes/invite-wheel-contract.md). Colours are #rrggbb. */
export interface WheelSlice {
  code: string;
  label: string;
  /** The label per language (issue 40 item 13); `label` where a language has none. */
  labels?: LocalizedText;
  bgColor: string;
  textColor: string;
  prize: { htmlDescription: LocalizedText };
}

export interface ActiveWheel {
  name: LocalizedText;
  /** In wheel order, clockwise from the top, where the pointer is. */
  slices: WheelSlice[];
}

/** GET /api/spinwheel/setup. */
export interface SpinSetup {
  result: { activeSpinwheel: ActiveWheel | null; userCoin: number };
}

/** The prize the server drew (spec §3 spin result). */
export interface SpinPrize {
  code: string;
  label: string;
  labels?: LocalizedText;
  remainingCoin: number;
  /** The coupon the prize became; null for a slice without a prize. */
  couponId: string | null;
}

/** POST /api/spinwheel/spin. */
export interface SpinAnswer {
  success: boolean;
  error: string | null;
  result: SpinPrize | null;
}

export type CouponType = 'cash' | 'coin' | 'none';
export type CouponStatus = 'CLAIMABLE' | 'CLAIMED' | 'EXPIRED';

/** Spec §3 coupon. `amount` is baht for a cash prize, coins for a coin prize. */
export interface Coupon {
  _id: string;
  prize: { name: LocalizedText; label: string; htmlDescription: LocalizedText };
  amount: number;
  type: CouponType;
  status: CouponStatus;
  expiresAt: string;
  createdAt: string;
}

export interface CouponPage {
  coupons: Coupon[];
  total: number;
}

/** Spec §9: the coupon list shows 3 a page. */
export const COUPON_PAGE_SIZE = 3;

/**
 * The prize wheel's calls (spec §7). Spin and claim failures are error alerts on the wheel (spec §8), so those
 * endpoints are silent; the coupon list's failures are swallowed with its loader hidden.
 */
export const wheelApi = api.enhanceEndpoints({ addTagTypes: ['SpinSetup', 'Coupon'] }).injectEndpoints({
  endpoints: (build) => ({
    getSpinSetup: build.query<SpinSetup, void>({
      query: () => '/api/spinwheel/setup',
      providesTags: ['SpinSetup'],
      extraOptions: { silent: true },
    }),
    /**
     * The server draws the prize and takes a coin; the prize's coupon joins the list once the wheel has landed
     * (spinSlice's wheelLanded asks for the list then, not here: it would show the prize mid-spin).
     */
    spin: build.mutation<SpinAnswer, void>({
      query: () => ({ url: '/api/spinwheel/spin', method: 'POST' }),
      extraOptions: { silent: true },
    }),
    getCoupons: build.query<CouponPage, { page: number; limit?: number }>({
      query: ({ page, limit = COUPON_PAGE_SIZE }) => ({ url: '/api/spinwheel/coupon', params: { page, limit } }),
      providesTags: ['Coupon'],
      extraOptions: { silent: true },
    }),
    /** Spec §4: finishing a claim reloads the setup (a coin prize adds coins) and the wallet (a cash prize). */
    claimCoupon: build.mutation<{ message: string; coupon: Coupon }, string>({
      query: (couponId) => ({ url: '/api/spinwheel/coupon/claim', method: 'POST', body: { couponId } }),
      invalidatesTags: (answer) => (answer ? ['SpinSetup', 'Coupon', 'Wallet', 'Statement'] : []),
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetSpinSetupQuery, useGetCouponsQuery, useClaimCouponMutation } = wheelApi;

/** A slice's or a prize's label in the player's language, else the operator's one label. */
export function labelIn(item: { label: string; labels?: LocalizedText }, locale: Parameters<typeof localized>[1]): string {
  return localized(item.labels, locale) || item.label;
}
