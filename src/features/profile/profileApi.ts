import type { ProfileView } from '../../app/accountApi';
import { api } from '../../app/api';

/** PUT /api/account/changepwd answers a fresh token: every earlier one, this device's included, is revoked. */
export interface PasswordChanged {
  message: string;
  token: string;
}

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<ProfileView, void>({
      query: () => '/api/account/profile',
      providesTags: ['Profile'],
      // Spec §8: a profile load failure only hides the loader.
      extraOptions: { silent: true },
    }),
    changePassword: build.mutation<PasswordChanged, { oldPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/api/account/changepwd', method: 'PUT', body }),
      // Spec §8: failures show an error alert in the modal, not a toast.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetProfileQuery, useChangePasswordMutation } = profileApi;
