import type { ProfileView } from '../../core/accountApi';
import { api } from '../../core/api';
import type { Market } from '../../core/build';

/** PUT /api/account/profile (spec §7): the edit-profile modal's fields. */
export interface ProfileChange {
  name: string;
  bankCode: string;
  bankAccountName: string;
  bankAccountNo: string;
  /** The current password: sent only when the bank or the account number changes (issue 39 row 6). */
  password?: string;
}

/** A bank the player can hold an account at (GET /api/lookup/banks?market=). */
export interface ProfileBank {
  code: string;
  nameTH: string;
  nameEN?: string;
  englishNameOnly?: boolean;
}

/** PUT /api/account/changepwd answers a fresh token: every earlier one, this device's included, is revoked. */
export interface PasswordChanged {
  message: string;
  token: string;
}

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The build's market's banks, for the edit-profile modal (the register feature has its own query). */
    getProfileBanks: build.query<ProfileBank[], Market>({
      query: (market) => `/api/lookup/banks?market=${market}`,
      providesTags: ['Lookup'],
      extraOptions: { silent: true },
    }),
    /** Answers the new profile; the home's bank account comes from the wallet answer, so both are read again. */
    updateProfile: build.mutation<ProfileView, ProfileChange>({
      query: (body) => ({ url: '/api/account/profile', method: 'PUT', body }),
      invalidatesTags: ['Profile', 'Wallet'],
      // Failures are shown inside the modal, next to the form.
      extraOptions: { silent: true },
    }),
    changePassword: build.mutation<PasswordChanged, { oldPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/api/account/changepwd', method: 'PUT', body }),
      // Spec §8: failures show an error alert in the modal, not a toast.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useChangePasswordMutation, useGetProfileBanksQuery, useUpdateProfileMutation } = profileApi;
// The profile read lives with the account calls more than one feature uses (the withdraw modal reads its bank hold).
export { useGetProfileQuery } from '../../core/accountApi';
