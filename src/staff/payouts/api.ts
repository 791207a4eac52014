/** The payouts-in-progress staff routes (GET/POST /api/staff/payouts..., roles payments and admin). */
import { call } from '../staffApi';

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

export const payoutsApi = {
  /** overdue: only those older than the expected time (the server's PAYOUT_EXPECTED_MINUTES); else every IN_PROGRESS. */
  list: (overdue: boolean) => call<{ payouts: Payout[] }>('GET', `/api/staff/payouts?overdue=${overdue ? 1 : 0}`),
  /** Paid: the money left. 409 PAYOUT_SETTLED when no longer in progress, 404 NO_DATA, 400 REASON_REQUIRED. */
  settle: (id: string, reason: string) => call<{ id: string; status: 'SUCCESS' | 'FAILED' }>('POST', `${payout(id)}/settle`, { reason }),
  /** Failed: the money goes back to the player's wallet. */
  fail: (id: string, reason: string) => call<{ id: string; status: 'SUCCESS' | 'FAILED' }>('POST', `${payout(id)}/fail`, { reason }),
};
