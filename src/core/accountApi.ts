import { api } from './api';

/** A bank as the account calls name it (spec §3 BankAccount.bank). */
export interface BankNames {
  nameTH: string;
  nameEN: string;
}

/** The player's registered bank account (spec §3 BankAccount). */
export interface BankAccount {
  bankAccountName: string;
  bankAccountNo: string;
  bankCode: string;
  currency?: string;
  bank: BankNames;
  /** The profile's answer only: withdrawals wait until then after a bank change (issue 39 row 6); null: no hold. */
  withdrawHoldUntil?: string | null;
}

/** GET /api/account/profile, and the answer of every profile change (docs/accounts.md "Profile view"). */
export interface ProfileView {
  profile: { _id: string; username: string; name: string; createdAt: string };
  bankAccount: BankAccount | null;
}

export interface BankAccountNameChange {
  bankCode: string;
  bankAccountName: string;
}

/**
 * Account calls more than one feature uses: the bank account name is corrected from the profile and from the
 * deposit's KBANK copy flow (spec §4), so the endpoint lives here rather than in either feature; the profile is read
 * by the profile screen and by the withdraw modal (the hold after a bank change).
 */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The profile screen's data; the withdraw modal reads its bank hold when a withdrawal is refused for it. */
    getProfile: build.query<ProfileView, void>({
      query: () => '/api/account/profile',
      providesTags: ['Profile'],
      // Spec §8: a profile load failure only hides the loader.
      extraOptions: { silent: true },
    }),
    updateBankAccountName: build.mutation<ProfileView, BankAccountNameChange>({
      query: (body) => ({ url: '/api/account/bankAccountName', method: 'PUT', body }),
      // The home screen shows the bank account from the wallet answer, the profile from its own.
      invalidatesTags: ['Profile', 'Wallet'],
    }),
  }),
});

export const { useUpdateBankAccountNameMutation, useGetProfileQuery } = accountApi;
