import { api } from '../../core/api';
import type { GameSlot } from '../../core/walletApi';
import type { Locale } from '../../lib/locale';

/** GET /api/wallet/account/{code} (spec §3 game account credentials); huayhd adds an event with form state. */
export interface GameCredentials {
  username: string;
  password: string;
  event?: { formState?: Record<string, unknown> } & Record<string, unknown>;
}

export interface TransferRequest {
  from: string;
  to: string;
  amount: number;
  /** Sent as the Idempotency-Key header: one per submission attempt, the same on a retry of that attempt. */
  idempotencyKey: string;
}

/** POST /api/wallet/transferAll: the whole wallet to one game; the answer's amount is what moved. */
export interface TransferAllRequest {
  to: string;
  idempotencyKey: string;
}

export interface WithdrawRequest {
  amount: number;
  idempotencyKey: string;
}

/** 200 SUCCESS / 202 IN_PROGRESS answers of the money-moving POSTs (docs/ledger.md). */
export interface MoveAnswer {
  status: 'SUCCESS' | 'IN_PROGRESS';
  message: string;
  amount: number;
  /** The movement's id: the receipt's reference, and the statement line's `reference`. */
  transferId?: string;
  withdrawalId?: string;
}

/** GET /api/invite/bonus (../notes/invite-wheel-contract.md): what was credited, in baht. */
export interface InviteBonusAnswer {
  message: string;
  amount: number;
}

export interface WithdrawLimits {
  withdrawMin: number;
  withdrawMax: number;
}

export interface SeamlessLaunchRequest {
  code: string;
  lang: Locale;
  /** The aggregator's game client: its touch one on a phone or tablet, its desktop one otherwise. */
  platform: 'desktop' | 'mobile';
}

/** Endpoints only the home screen uses. Money-moving calls show their own alerts, so the base query stays silent. */
export const walletEndpoints = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/wallet/activate/{code}; spec §8: a failure is swallowed silently. */
    activateGameAccount: build.mutation<GameSlot, string>({
      query: (code) => `/api/wallet/activate/${encodeURIComponent(code)}`,
      invalidatesTags: (result) => (result ? ['Wallet'] : []),
      extraOptions: { silent: true },
    }),
    getGameAccount: build.query<GameCredentials, string>({
      query: (code) => `/api/wallet/account/${encodeURIComponent(code)}`,
      providesTags: (_result, _error, code) => [{ type: 'Wallet', id: `account:${code}` }],
    }),
    /** A reset changes the password, so the credentials and the wallet's auto-login paths reload. */
    resetGamePassword: build.mutation<GameCredentials, string>({
      query: (code) => `/api/wallet/resetpassword/${encodeURIComponent(code)}`,
      invalidatesTags: (result) => (result ? ['Wallet'] : []),
    }),
    transfer: build.mutation<MoveAnswer, TransferRequest>({
      query: ({ from, to, amount, idempotencyKey }) => ({
        url: '/api/wallet/transfer',
        method: 'POST',
        body: { from, to, amount },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Wallet'],
      extraOptions: { silent: true },
    }),
    transferAll: build.mutation<MoveAnswer, TransferAllRequest>({
      query: ({ to, idempotencyKey }) => ({
        url: '/api/wallet/transferAll',
        method: 'POST',
        body: { to },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Wallet'],
      extraOptions: { silent: true },
    }),
    withdrawAll: build.mutation<MoveAnswer, WithdrawRequest>({
      query: ({ amount, idempotencyKey }) => ({
        url: '/api/wallet/withdrawAll',
        method: 'POST',
        body: { amount },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Wallet'],
      extraOptions: { silent: true },
    }),
    /** GET /api/autoLogin/{game}/{username}[/{password}] -> {link}; a mutation: every launch wants a fresh link. */
    autoLogin: build.mutation<{ link: string }, string>({
      query: (path) => path,
      extraOptions: { silent: true },
    }),
    /**
     * GET /api/seamless/launch/{code}?lang&platform -> {link}: a seamless game's URL with a fresh game session, in the
     * player's language and for their kind of device (issue 42); a mutation: every launch wants its own session.
     * Refusals (403 SELF_EXCLUDED / PLAY_TIMEOUT / SESSION_LIMIT, 404 NO_GAME, 503 SEAMLESS_OFF, 502/503
     * GAME_ACTIVATION_FAIL) are the home's alert, so the base query stays silent.
     */
    seamlessLaunch: build.mutation<{ link: string }, SeamlessLaunchRequest>({
      query: ({ code, lang, platform }) => `/api/seamless/launch/${encodeURIComponent(code)}?lang=${lang}&platform=${platform}`,
      extraOptions: { silent: true },
    }),
    getWithdrawLimits: build.query<WithdrawLimits, void>({
      query: () => '/api/lookup/withdraw',
      providesTags: ['Lookup'],
    }),
    /**
     * GET /api/invite/bonus credits the invite bonus earned so far (spec §7); the wallet reloads (spec §4). A refusal
     * (NO_INVITE_BONUS, INVITE_INACTIVE) is the base query's translated toast.
     */
    receiveInviteBonus: build.mutation<InviteBonusAnswer, void>({
      query: () => '/api/invite/bonus',
      invalidatesTags: (result) => (result ? ['Wallet', 'Statement'] : []),
    }),
    getAgreements: build.query<string[], Locale>({
      query: (lang) => `/api/lookup/agreements?lang=${lang}`, // the player's language (issue 12)
      providesTags: ['Lookup'],
      extraOptions: { silent: true },
    }),
  }),
});

export const {
  useActivateGameAccountMutation,
  useGetGameAccountQuery,
  useResetGamePasswordMutation,
  useTransferMutation,
  useTransferAllMutation,
  useWithdrawAllMutation,
  useAutoLoginMutation,
  useGetWithdrawLimitsQuery,
  useGetAgreementsQuery,
  useReceiveInviteBonusMutation,
} = walletEndpoints;
