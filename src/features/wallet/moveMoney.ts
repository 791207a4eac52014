import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import type { AppDispatch, RootState } from '../../app/store';
import { walletApi } from '../../core/walletApi';
import { receiptFromMove } from '../../components/receipt';
import { selectMoveState } from './flowSlices';
import { answered, refused, submitted, type Attempt, type MoveFlow } from './moveFlow';
import { WALLET_CODE } from './selectors';
import { walletEndpoints, type MoveAnswer } from './walletEndpoints';

/** The money movements the modals send, with the body each sends (the Idempotency-Key is added here). */
export type MoveRequest =
  | { kind: 'transfer'; body: { from: string; to: string; amount: number } }
  /** The whole wallet to a game (POST /api/wallet/transferAll): the server reads the balance, so nothing races it. */
  | { kind: 'transferAll'; body: { to: string } }
  | { kind: 'withdraw'; body: { amount: number } };

/**
 * Sends one movement through the moveFlow slice: picks the Idempotency-Key (the unanswered attempt's key again
 * for the same body), sends, and records the answer with its receipt. Refused (null, nothing sent) while one is
 * running or after a success, until the flow is dismissed.
 */
export const moveMoney =
  (request: MoveRequest, now: () => Date = () => new Date()) =>
  async (dispatch: AppDispatch, getState: () => RootState): Promise<MoveAnswer | null> => {
    const before = selectMoveState(getState()).flow;
    if (before.status === 'submitting' || before.status === 'succeeded') return null;
    const attempt = attemptFor(before, { kind: request.kind, ...request.body });
    dispatch(submitted(attempt));
    try {
      const key = { idempotencyKey: attempt.key };
      const { endpoints } = walletEndpoints;
      const answer =
        request.kind === 'transfer'
          ? await dispatch(endpoints.transfer.initiate({ ...request.body, ...key }, { track: false })).unwrap()
          : request.kind === 'transferAll'
            ? await dispatch(endpoints.transferAll.initiate({ ...request.body, ...key }, { track: false })).unwrap()
            : await dispatch(endpoints.withdrawAll.initiate({ ...request.body, ...key }, { track: false })).unwrap();
      const accounts =
        request.kind === 'withdraw'
          ? { from: WALLET_CODE, to: walletApi.endpoints.getWallet.select()(getState()).data?.bankAccount?.bankCode ?? '' }
          : { from: request.kind === 'transfer' ? request.body.from : WALLET_CODE, to: request.body.to };
      const receipt = receiptFromMove(request.kind === 'withdraw' ? 'withdraw' : 'transfer', accounts, answer, now().toISOString());
      dispatch(answered({ status: answer.status, message: answer.message, receipt }));
      return answer;
    } catch (failure) {
      const error = failure as FetchBaseQueryError | SerializedError;
      dispatch(refused({ code: errorCode(error), uncertain: isUncertain(error) }));
      return null;
    }
  };

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
