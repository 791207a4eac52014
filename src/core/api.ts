import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';

import { classifyError } from './apiErrors';
import { sessionEnded, sessionLimitReached } from './authEvents';
import { APP_VERSION } from './build';
import { currentUrl, loginPathFor, navigateTo } from './navigation';
import { toastError } from './notify';

/** Spec §7 and §9: every call times out after 60 s, uploads after 5 minutes. */
export const REQUEST_TIMEOUT_MS = 60_000;
export const UPLOAD_TIMEOUT_MS = 300_000;
/** The marker header that tells the backend which client is calling. */
export const CLIENT_HEADER = 'X-Client';
export const CLIENT_MARKER = `player-wallet/${APP_VERSION}`;

/**
 * Per-endpoint options (RTK Query `extraOptions`):
 * - silent: no toast for ordinary failure codes (spec §8 swallows many failures, or shows them inline);
 *   'gone' and session failures are still handled.
 * - raw: no handling at all; the caller reads the error itself (the navigation guard's site-active check).
 * - upload: the 5-minute timeout.
 */
export interface ApiExtraOptions {
  silent?: boolean;
  raw?: boolean;
  upload?: boolean;
}

/** The token the session holds in a store's state (null when logged out). */
export const sessionTokenOf = (state: unknown): string | null => (state as { session?: { token?: string | null } }).session?.token ?? null;

const origin = typeof window !== 'undefined' ? window.location.origin : 'http://localhost';

const rawBaseQuery = fetchBaseQuery({
  baseUrl: origin,
  // A function, not `fetch` itself, so the global fetch is read at call time (tests replace it).
  fetchFn: (input, init) => fetch(input, init),
  // JSON when the server says JSON, text otherwise: 'cannot verify identity' may come as plain text.
  responseHandler: 'content-type',
  prepareHeaders: (headers, { getState }) => {
    const token = sessionTokenOf(getState());
    if (token) headers.set('Authorization', `Bearer ${token}`);
    headers.set(CLIENT_HEADER, CLIENT_MARKER);
    return headers;
  },
});

/**
 * What spec §8 says happens after a failed call, for the base query and for endpoints that make their call
 * another way (the chat's uploads use XMLHttpRequest for their progress).
 */
export function reportFailure(error: FetchBaseQueryError, dispatch: (action: UnknownAction) => unknown, extraOptions: ApiExtraOptions = {}): void {
  if (extraOptions.raw) return;
  const outcome = classifyError(error);
  if (outcome.kind === 'terminated') {
    navigateTo('/terminated', { replace: true });
  } else if (outcome.kind === 'reauth') {
    dispatch(sessionEnded('rejected'));
    // Back to the page the player was on once they have logged in again (spec §2's next URL).
    navigateTo(loginPathFor(currentUrl()), { replace: true });
  } else if (outcome.code === 'SESSION_LIMIT') {
    // The session passed the player's own limit: a dialog whose only way on is logging out, not a toast.
    dispatch(sessionLimitReached());
  } else {
    // A restriction the app did not know of (taken in another tab): reload the limits, which hides the offers.
    if (outcome.code === 'PLAY_TIMEOUT' || outcome.code === 'SELF_EXCLUDED') dispatch(api.util.invalidateTags(['Limits']));
    if (!extraOptions.silent) toastError(outcome.code);
  }
}

/**
 * A call that outlived the session it was made for says nothing about the session the device has now:
 * - ended while the call was out (logout, or another call's refusal): none of its failures is the player's to see,
 *   neither a refusal (the server saw the logout's revocation first; handling it would send a player already on the
 *   way to /login back there with the page they left as next, the router's location being that page until the
 *   logout's navigation has loaded) nor the abort of the session's end (a "cannot reach the server" toast);
 * - replaced while the call was out (a password change answers a new token; a login): only its refusal is stale,
 *   and handling it would end the new session.
 */
function outlivedItsSession(error: FetchBaseQueryError, sentWith: string | null, holdsNow: string | null): boolean {
  if (sentWith === holdsNow) return false;
  if (holdsNow === null) return true;
  return classifyError(error).kind === 'reauth';
}

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions = {},
) => {
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const timeout = request.timeout ?? (extraOptions.upload ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  const sentWith = sessionTokenOf(api.getState());
  const result = await rawBaseQuery({ ...request, timeout }, api, extraOptions);
  if (result.error && !outlivedItsSession(result.error, sentWith, sessionTokenOf(api.getState()))) {
    reportFailure(result.error, api.dispatch, extraOptions);
  }
  return result;
};

/** The one API of the app; every feature adds its endpoints with `api.injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Wallet', 'Profile', 'Bonus', 'Statement', 'Slip', 'Qr', 'Lookup', 'Limits'],
  endpoints: () => ({}),
});
