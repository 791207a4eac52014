/**
 * The staff console's API: its own createApi (not the player's src/core/api.ts, whose store, session and toasts are
 * the player's), with the console's session and conversation routes; each back-office page injects its own
 * endpoints (players/api.ts, reviews/api.ts, payouts/api.ts, audit/api.ts). It lives in the console's own small
 * store (store.ts), so the staff bundle carries nothing of the player's store or API layer.
 *
 * Every call: the staff token as a Bearer (session/token.ts; not for the sign-in itself), a 30 s timeout, and a
 * refusal as `{ code, status }` (the server's `{message: CODE}`, or NETWORK, TIMEOUT, GENERIC).
 */
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs } from '@reduxjs/toolkit/query/react';

import type { ChatButton, ConversationFilter, ConversationSummary, HistoryPage, StaffProfile } from './types';
import { readStaffToken } from './session/token';

/** A refusal in the server's envelope (`{message: CODE}`), or a client code: NETWORK, TIMEOUT, GENERIC. */
export interface StaffApiError {
  code: string;
  /** The HTTP status; 0 when no answer came. */
  status: number;
}

/** Codes that mean the staff session is over (expired, revoked, or not a staff token). */
export const SESSION_ENDED_CODES: ReadonlySet<string> = new Set(['invalid-token', 'UNAUTHORIZED', 'EXPIRED_AUTH_TOKEN']);

export const TIMEOUT_MS = 30_000;

let sessionEndedListener: (() => void) | null = null;

/** The session provider hears here when any call (except the login itself) answers with an ended session. */
export function onStaffSessionEnded(listener: (() => void) | null): void {
  sessionEndedListener = listener;
}

/** Per-endpoint options: `anonymous` sends no token and never ends the session (the sign-in's two steps). */
export interface StaffExtraOptions {
  anonymous?: boolean;
}

const rawBaseQuery = fetchBaseQuery({
  timeout: TIMEOUT_MS,
  // A body that is not JSON (or none) reads as null, as the server's empty answers do.
  responseHandler: async (res) => {
    const text = await res.text();
    try {
      return text ? (JSON.parse(text) as unknown) : null;
    } catch {
      return null;
    }
  },
});

const messageOf = (data: unknown): string | null => {
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : null;
};

export const staffBaseQuery: BaseQueryFn<string | FetchArgs, unknown, StaffApiError, StaffExtraOptions> = async (args, api, extraOptions = {}) => {
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = extraOptions.anonymous ? null : readStaffToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const result = await rawBaseQuery({ ...request, url: `${window.location.origin}${request.url}`, headers }, api, {});
  if (!result.error) return { data: result.data, meta: result.meta };
  const { error } = result;
  if (error.status === 'TIMEOUT_ERROR') return { error: { code: 'TIMEOUT', status: 0 } };
  if (error.status === 'FETCH_ERROR') return { error: { code: 'NETWORK', status: 0 } };
  if (typeof error.status !== 'number') return { error: { code: 'GENERIC', status: 0 } };
  const code = messageOf(error.data) ?? 'GENERIC';
  if (!extraOptions.anonymous && error.status === 401 && SESSION_ENDED_CODES.has(code)) sessionEndedListener?.();
  return { error: { code, status: error.status } };
};

const conversation = (id: string | number) => `/api/staff/conversations/${encodeURIComponent(String(id))}`;

export interface ReplyBody {
  message: string;
  message_type: 'text' | 'quick_replies';
  payload?: { quick_replies: ChatButton[] };
}

export const staffApi = createApi({
  reducerPath: 'staffApi',
  baseQuery: staffBaseQuery,
  tagTypes: ['Reviews', 'Payouts'],
  // A page shows what it loaded itself: every visit and every change of filter asks the server again, and
  // nothing is kept once no page shows it.
  keepUnusedDataFor: 0,
  refetchOnMountOrArgChange: true,
  endpoints: (build) => ({
    /** Signed in, or (an account with a second factor) a challenge for loginTotp. */
    login: build.mutation<{ token: string; staff: StaffProfile } | { totpRequired: true; challenge: string }, { username: string; password: string }>({
      query: (body) => ({ url: '/api/staff/login', method: 'POST', body }),
      extraOptions: { anonymous: true },
    }),
    loginTotp: build.mutation<{ token: string; staff: StaffProfile }, { challenge: string; code: string }>({
      query: (body) => ({ url: '/api/staff/login/totp', method: 'POST', body }),
      extraOptions: { anonymous: true },
    }),
    logout: build.mutation<{ ok: true }, void>({ query: () => ({ url: '/api/staff/logout', method: 'POST' }) }),
    me: build.query<StaffProfile, void>({ query: () => '/api/staff/me' }),
    conversations: build.query<{ conversations: ConversationSummary[] }, ConversationFilter>({ query: (status) => `/api/staff/conversations?status=${status}` }),
    history: build.query<HistoryPage, { id: string | number; limit: number; skip: number }>({
      query: ({ id, limit, skip }) => ({ url: `${conversation(id)}/history`, method: 'POST', body: { limit, skip } }),
    }),
    reply: build.mutation<{ _id: string; createdAt: string }, { id: string | number; body: ReplyBody }>({
      query: ({ id, body }) => ({ url: `${conversation(id)}/reply`, method: 'POST', body }),
    }),
    close: build.mutation<{ ok: true }, string | number>({ query: (id) => ({ url: `${conversation(id)}/close`, method: 'POST' }) }),
    markRead: build.mutation<{ read: number }, string | number>({ query: (id) => ({ url: `${conversation(id)}/read`, method: 'PUT' }) }),
  }),
});

/** A query asked once, now, for a flow that reads the answer itself (not a view of the cache). */
export const freshly = { subscribe: false, forceRefetch: true } as const;

/** A mutation whose caller reads the answer itself: not kept in the store afterwards (a long shift sends many). */
export const untracked = { track: false } as const;

/** The signed-in staff member (a stored token checked, or the socket's retry asking whether the session lives). */
export const fetchMe = () => staffApi.endpoints.me.initiate(undefined, freshly);
