import { api } from './api';

/** Spec §3 game account entry, as GET /api/wallet lists it. Amounts are baht (major units). */
export type GameCategory = 'slot' | 'sport' | 'lotto';

export interface GameSlot {
  code: string;
  name: string;
  category: GameCategory;
  isActive: boolean;
  amount: number;
  /** The factor the home card multiplies the amount by, to show the provider's own credit unit. */
  ftWalletSlot: number;
  logo: string;
  background: string;
  /** The auto-login path (/api/autoLogin/{game}/{username}[/{password}]) or null: no web client or no account. */
  web: string | null;
  android: string | null;
  ios: string | null;
  /**
   * Issue 42: the game plays from the wallet itself (the aggregator debits and credits it per bet): it has no game
   * account and never a balance or a `web` path; it opens with GET /api/seamless/launch/{code}. Absent: a transfer game.
   */
  seamless?: boolean;
}

export interface BankAccount {
  bankAccountName: string;
  bankAccountNo: string;
  bankCode: string;
  bank: { nameTH: string; nameEN: string };
}

/** GET /api/wallet (spec §3 wallet response). */
export interface WalletResponse {
  profile: { name: string; username: string; _id: string; coin: number };
  bankAccount: BankAccount;
  wallet: { amount: number };
  invite: { amount: number; success: number; fail: number };
  slots: GameSlot[];
}

/**
 * The wallet endpoints other features read or refresh. Anything that moves money invalidates the 'Wallet' tag,
 * and GET /api/wallet reloads (spec §4 Wallet reload).
 */
export const walletApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWallet: build.query<WalletResponse, void>({
      query: () => '/api/wallet',
      providesTags: ['Wallet'],
      // Spec §8: wallet load errors are only logged.
      extraOptions: { silent: true },
      async onQueryStarted(_arg, { queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch (failure) {
          console.warn('wallet load failed', failure);
        }
      },
    }),
    /**
     * GET /api/wallet/refresh/slot: asks every provider for its balance; then the wallet reloads. Both answers set
     * last_sync (the prefs slice matches them by endpoint name: keep the names in step with app/prefs.ts).
     */
    refreshGameBalances: build.mutation<WalletResponse, void>({
      query: () => '/api/wallet/refresh/slot',
      invalidatesTags: (result) => (result ? ['Wallet'] : []),
    }),
    /** GET /api/spinwheel/active: whether the wheel widget replaces refresh-all. */
    getSpinActive: build.query<{ isActive: boolean }, void>({
      query: () => '/api/spinwheel/active',
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetWalletQuery, useRefreshGameBalancesMutation, useGetSpinActiveQuery } = walletApi;
