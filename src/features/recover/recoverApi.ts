import { api } from '../../core/api';
import type { Locale } from '../../lib/locale';

/** POST /api/account/forgot answers this for every phone of the right format, registered or not. */
export interface ResetCodeSent {
  otpRef: string;
  otpToken: string;
}

/**
 * A forgotten password (docs/accounts.md "Forgotten password"): a reset code by SMS, its check (the OTP plugin's
 * verify, with its 5 tries), then the new password. Failures show on the recovery page, not as toasts.
 */
export const recoverApi = api.injectEndpoints({
  endpoints: (build) => ({
    requestPasswordReset: build.mutation<ResetCodeSent, { phoneNumber: string; lang: Locale }>({
      query: (body) => ({ url: '/api/account/forgot', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    verifyResetCode: build.mutation<{ code: string }, { otpToken: string; otpCode: string }>({
      query: (body) => ({ url: '/api/otp/verify', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    resetPassword: build.mutation<{ message: string }, { otpToken: string; newPassword: string }>({
      query: (body) => ({ url: '/api/account/reset', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
  }),
});

export const { useRequestPasswordResetMutation, useVerifyResetCodeMutation, useResetPasswordMutation } = recoverApi;
