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
 * deposit's KBANK copy flow (spec §4), so the endpoint lives here rather than in either feature.
 */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateBankAccountName: build.mutation<ProfileView, BankAccountNameChange>({
      query: (body) => ({ url: '/api/account/bankAccountName', method: 'PUT', body }),
      // The home screen shows the bank account from the wallet answer, the profile from its own.
      invalidatesTags: ['Profile', 'Wallet'],
    }),
  }),
});

export const { useUpdateBankAccountNameMutation } = accountApi;
