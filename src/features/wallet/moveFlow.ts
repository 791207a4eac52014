import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

import { errorCode } from '../../app/apiErrors';

/**
 * One money movement (transfer or withdrawal) from a modal, as a state machine:
 *
 *   editing --submitted--> submitting --answered--> succeeded
 *                                     --refused---> failed --dismissed--> editing
 *
 * An attempt that got no definite answer (network, timeout, 5xx, key still in use) remembers its
 * Idempotency-Key and body: sending the same body again reuses that key, so the server applies it at most once.
 * Any other answer ends the attempt; the next submission gets a fresh key.
 */
export interface Attempt {
  key: string;
  body: string;
}

export type MoveFlow =
  | { status: 'editing'; retry: Attempt | null }
  | { status: 'submitting'; attempt: Attempt }
  | { status: 'succeeded'; outcome: 'SUCCESS' | 'IN_PROGRESS'; message: string }
  | { status: 'failed'; code: string; retry: Attempt | null };

export const initialMoveFlow: MoveFlow = { status: 'editing', retry: null };

const moveFlow = createSlice({
  name: 'wallet/move',
  initialState: initialMoveFlow as MoveFlow,
  reducers: {
    submitted(state, action: PayloadAction<Attempt>): MoveFlow {
      return state.status === 'editing' || state.status === 'failed' ? { status: 'submitting', attempt: action.payload } : state;
    },
    answered(state, action: PayloadAction<{ status: 'SUCCESS' | 'IN_PROGRESS'; message: string }>): MoveFlow {
      return state.status === 'submitting' ? { status: 'succeeded', outcome: action.payload.status, message: action.payload.message } : state;
    },
    refused(state, action: PayloadAction<{ code: string; uncertain: boolean }>): MoveFlow {
      if (state.status !== 'submitting') return state;
      return { status: 'failed', code: action.payload.code, retry: action.payload.uncertain ? state.attempt : null };
    },
    dismissed(state): MoveFlow {
      if (state.status === 'failed') return { status: 'editing', retry: state.retry };
      if (state.status === 'succeeded') return initialMoveFlow;
      return state;
    },
  },
});

export const { submitted, answered, refused, dismissed } = moveFlow.actions;
export const moveFlowReducer = moveFlow.reducer;

/** A fresh key; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The attempt to send for this body: the unanswered one again when the body is the same, else a new key. */
export function attemptFor(flow: MoveFlow, body: object, makeKey: () => string = newIdempotencyKey): Attempt {
  const text = JSON.stringify(body);
  const retry = flow.status === 'editing' || flow.status === 'failed' ? flow.retry : null;
  return retry && retry.body === text ? retry : { key: makeKey(), body: text };
}

/** Whether a failure leaves the outcome unknown (the money may or may not have moved). */
export function isUncertain(error: FetchBaseQueryError | SerializedError | undefined): boolean {
  if (!error || !('status' in error)) return true;
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') return true;
  if (typeof error.status === 'number') return error.status >= 500 || (error.status === 409 && errorCode(error) === 'KEY_INVALID');
  return false;
}
