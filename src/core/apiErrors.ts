import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

import { REAUTH_CODES } from '../../shared/errorCodes';

/** What spec §8 says the app does with a failed response. */
export type ErrorOutcome =
  | { kind: 'terminated' }
  | { kind: 'reauth' }
  | { kind: 'message'; code: string };

function isFetchError(error: unknown): error is FetchBaseQueryError {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/**
 * The code a failure carries: the server's {message}, a plain-text body, or a client code for failures that
 * never got an answer (NETWORK, TIMEOUT) or answered something unreadable (GENERIC).
 */
export function errorCode(error: FetchBaseQueryError | SerializedError | undefined | null): string {
  if (!error) return 'GENERIC';
  if (!isFetchError(error)) return error.message ?? 'GENERIC';
  if (error.status === 'FETCH_ERROR') return 'NETWORK';
  if (error.status === 'TIMEOUT_ERROR') return 'TIMEOUT';
  const data = error.data;
  if (typeof data === 'string' && data.trim() !== '') return data.trim();
  if (typeof data === 'object' && data !== null && 'message' in data) {
    const message = (data as { message: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return 'GENERIC';
}

/** Spec §8: 'gone' -> /terminated; invalid token or 'cannot verify identity' -> /login; anything else a message. */
export function classifyError(error: FetchBaseQueryError | SerializedError | undefined | null): ErrorOutcome {
  const code = errorCode(error);
  if (code === 'gone') return { kind: 'terminated' };
  if (REAUTH_CODES.has(code) || code.toLowerCase().includes('cannot verify identity')) return { kind: 'reauth' };
  return { kind: 'message', code };
}
