import type { LocalizedText } from '../lib/localized';
import { api } from './api';

/** Where the active bonus stands: turnover done and its target; it fails at a total balance <= failAt. Baht. */
export interface BonusProgress {
  code: string;
  name: LocalizedText;
  kind: 'bonus' | 'promotion';
  amount: number;
  startAmount: number;
  turnover: number;
  target: number;
  percentFail: number;
  failAt: number;
  createdAt: string;
}

/** GET /api/bonus/check/active (spec §3 Bonus active response, with the progress beyond it). */
export interface ActiveBonus {
  status: boolean;
  type: 'limit' | 'day' | 'week' | 'promotion' | null;
  progress: BonusProgress | null;
}

/**
 * The active bonus. More than one feature shows it (issue 40: the bonus page, and the home and the withdraw modal,
 * where its withdrawal lock is said before the player tries), so the endpoint lives here. The progress moves with
 * play (turnover) and with the balances, so it is reloaded with the wallet: anything that reloads the wallet
 * (refresh, transfers) reloads it too.
 */
export const activeBonusApi = api.injectEndpoints({
  endpoints: (build) => ({
    getActiveBonus: build.query<ActiveBonus, void>({
      query: () => '/api/bonus/check/active',
      providesTags: [{ type: 'Bonus', id: 'ACTIVE' }, 'Wallet'],
      // Spec §8: a failed load only hides the loader.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetActiveBonusQuery } = activeBonusApi;
