import type { UnknownAction } from '@reduxjs/toolkit';

/** The phases of an RTK Query request as its thunk dispatches them. */
export type Phase = 'pending' | 'fulfilled' | 'rejected';

/**
 * An endpoint's own RTK Query action in its documented shape (type, meta.requestId, meta.arg.endpointName and
 * originalArgs, timestamps), for reducer tests of slices that follow a request through `matchPending` /
 * `matchFulfilled` / `matchRejected` without a store or a server.
 */
export function endpointAction(kind: 'query' | 'mutation', endpointName: string, phase: Phase, requestId: string, originalArgs: unknown, payload?: unknown, at = 0): UnknownAction {
  return {
    type: `api/execute${kind === 'query' ? 'Query' : 'Mutation'}/${phase}`,
    payload,
    meta: {
      requestId,
      requestStatus: phase,
      arg: { type: kind, endpointName, originalArgs, ...(kind === 'mutation' ? { track: false } : {}) },
      startedTimeStamp: at,
      ...(phase === 'fulfilled' ? { fulfilledTimeStamp: at } : {}),
      ...(phase === 'rejected' ? { rejectedWithValue: true } : {}),
    },
    ...(phase === 'rejected' ? { error: { message: 'Rejected' } } : {}),
  };
}

/** A mutation's action: endpointAction('mutation', ...). */
export const mutationAction = (endpointName: string, phase: Phase, requestId: string, originalArgs?: unknown, payload?: unknown): UnknownAction =>
  endpointAction('mutation', endpointName, phase, requestId, originalArgs, payload);
