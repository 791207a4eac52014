import { api } from '../../core/api';
import type { Market } from '../../core/build';
import type { Locale } from '../../lib/locale';

/** GET /api/lookup/banks: registrable banks (spec §3 banks lookup). */
export interface BankOption {
  code: string;
  nameTH: string;
  nameEN?: string;
  /** Payment channels (WW, E2P) are not banks a player can register; the server leaves them out already. */
  bankType?: string;
  /** The market whose players bank there (th | lao); the lookup is asked for the build's market (issue 12). */
  market?: string;
  /** The account name must be in English letters (KTB, TMB, BBL). */
  englishNameOnly?: boolean;
}

/** GET /api/lookup/sources: where the player heard of the site. */
export interface SourceOption {
  code: string;
  description: string;
}

export type Currency = 'LAK' | 'BAHT';

/** The registration payload of spec §3, as POST /api/account/validate and POST /api/account take it. */
export interface RegistrationPayload {
  name: string;
  username: string;
  password: string;
  sourceCode: string;
  inviteCode: string | null;
  bankCode: string;
  bankAccountName: string;
  bankAccountNo: string;
  /** Empty: the market's own currency (docs/accounts.md). */
  currency: Currency | '';
  /** The player ticked "I am at least {{age}} years old" (issue 15); the registration itself requires true. */
  ageConfirmed?: boolean;
}

/** What the player entered on the profile step (step 3). */
export interface ProfileDraft {
  name: string;
  password: string;
  sourceCode: string;
  inviteCode: string;
}

/** What the player entered on the bank step (step 4). */
export interface BankDraft {
  bankCode: string;
  bankAccountNo: string;
  firstName: string;
  lastName: string;
  currency: Currency | '';
  /** The age checkbox of the last step. */
  ageConfirmed?: boolean;
}

/** POST /api/otp/send answers a fresh code's reference, or OTP_VERIFIED when the phone needs none. */
export type OtpSendAnswer = { otpRef: string; otpToken: string; code?: undefined } | { code: 'OTP_VERIFIED' };

/** The request body of both registration calls: the bank account name is first and last name joined by a space. */
export function registrationPayload(phone: string, profile: ProfileDraft, bank?: BankDraft): RegistrationPayload {
  const invite = profile.inviteCode.trim();
  return {
    name: profile.name.trim(),
    username: phone,
    password: profile.password,
    sourceCode: profile.sourceCode,
    inviteCode: invite === '' ? null : invite,
    bankCode: bank?.bankCode ?? '',
    bankAccountName: bank ? joinAccountName(bank.firstName, bank.lastName) : '',
    bankAccountNo: bank?.bankAccountNo ?? '',
    currency: bank?.currency ?? '',
    // Only the registration itself (the last step, with the bank) carries the age confirmation.
    ...(bank ? { ageConfirmed: bank.ageConfirmed === true } : {}),
  };
}

/** First and last name, upper case, joined by one space. */
export function joinAccountName(firstName: string, lastName: string): string {
  return [firstName, lastName]
    .map((part) => part.toUpperCase().trim().replace(/\s+/g, ' '))
    .filter((part) => part !== '')
    .join(' ');
}

export const registerApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The banks of the build's market only: Thai banks in the Thai build, BCEL and the other Lao banks in the Lao one. */
    getBanksLookup: build.query<BankOption[], Market>({
      query: (market) => `/api/lookup/banks?market=${market}`,
      transformResponse: (banks: BankOption[]) => banks.filter((bank) => !bank.bankType || bank.bankType === 'BANK'),
      providesTags: ['Lookup'],
      extraOptions: { silent: true },
    }),
    getSourcesLookup: build.query<SourceOption[], void>({
      query: () => '/api/lookup/sources',
      providesTags: ['Lookup'],
      extraOptions: { silent: true },
    }),
    getRegisterOtpLookup: build.query<{ registerOTP: boolean }, void>({
      query: () => '/api/lookup/registerOTP',
      providesTags: ['Lookup'],
      extraOptions: { silent: true },
    }),
    // Registration failures belong to the step that made the call: shown there, not as toasts.
    /** Step 1 without OTP (issue 12): EXISTING_USER or a malformed phone is told on step 1, not after step 3. */
    checkPhone: build.mutation<{ message: string }, { username: string }>({
      query: (body) => ({ url: '/api/account/checkPhone', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    /** lang: the player's language, which the SMS is written in (issue 12). */
    sendOtp: build.mutation<OtpSendAnswer, { phoneNumber: string; lang?: Locale }>({
      query: (body) => ({ url: '/api/otp/send', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    verifyOtp: build.mutation<{ code: string }, { otpToken: string; otpCode: string }>({
      query: (body) => ({ url: '/api/otp/verify', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    validateProfile: build.mutation<{ message: string }, { phone: string; profile: ProfileDraft }>({
      query: ({ phone, profile }) => ({ url: '/api/account/validate', method: 'POST', body: registrationPayload(phone, profile) }),
      extraOptions: { silent: true },
    }),
    registerAccount: build.mutation<{ message: string }, { phone: string; profile: ProfileDraft; bank: BankDraft }>({
      query: ({ phone, profile, bank }) => ({ url: '/api/account', method: 'POST', body: registrationPayload(phone, profile, bank) }),
      extraOptions: { silent: true },
    }),
  }),
});

export const {
  useGetBanksLookupQuery,
  useGetSourcesLookupQuery,
  useGetRegisterOtpLookupQuery,
  useCheckPhoneMutation,
  useSendOtpMutation,
  useVerifyOtpMutation,
  useValidateProfileMutation,
  useRegisterAccountMutation,
} = registerApi;
