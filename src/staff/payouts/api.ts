/** The payouts-in-progress staff routes (GET/POST /api/staff/payouts..., roles payments and admin). */
import { staffApi } from '../staffApi';

/** What the payout provider says, asked when the list loads; UNKNOWN when it failed or took over 3 s. */
export type ProviderStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'UNKNOWN';

export interface Payout {
  id: string;
  player: { id: number; phone: string; name: string };
  /** Baht (or kip), 2 decimals. */
  amount: number;
  currency: string;
  bankCode: string;
  bankAccountNo: string;
  bankAccountName: string;
  requestedAt: string;
  ageMinutes: number;
  providerStatus: ProviderStatus;
}

const payout = (id: string) => `/api/staff/payouts/${encodeURIComponent(id)}`;

/** A decision, or a refusal saying the list is out of date (settled meanwhile, or gone), reloads the list. */
const reloadsList = (error: { code: string } | undefined) =>
  !error || error.code === 'PAYOUT_SETTLED' || error.code === 'PAYOUT_NOT_FAILED' || error.code === 'NO_DATA';

export const payoutsApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    /** overdue: only those older than the expected time (the server's PAYOUT_EXPECTED_MINUTES); else every IN_PROGRESS. */
    payouts: build.query<{ payouts: Payout[] }, boolean>({ query: (overdue) => `/api/staff/payouts?overdue=${overdue ? 1 : 0}`, providesTags: ['Payouts'] }),
    /** Paid: the money left. 409 PAYOUT_SETTLED when no longer in progress, 404 NO_DATA, 400 REASON_REQUIRED. */
    settlePayout: build.mutation<{ id: string; status: 'SUCCESS' | 'FAILED' }, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `${payout(id)}/settle`, method: 'POST', body: { reason } }),
      invalidatesTags: (_r, error) => (reloadsList(error) ? ['Payouts'] : []),
    }),
    /** Failed: the money goes back to the player's wallet. */
    failPayout: build.mutation<{ id: string; status: 'SUCCESS' | 'FAILED' }, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `${payout(id)}/fail`, method: 'POST', body: { reason } }),
      invalidatesTags: (_r, error) => (reloadsList(error) ? ['Payouts'] : []),
    }),
  }),
});

export const { usePayoutsQuery, useSettlePayoutMutation, useFailPayoutMutation } = payoutsApi;
