import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

import { errorCode } from '../../app/apiErrors';
import type { AppDispatch, RootState } from '../../app/store';
import { walletApi } from '../../app/walletApi';
import { receiptFromMove } from '../../components/receipt';
import { answered, attemptFor, isUncertain, refused, submitted } from './moveFlow';
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
    const before = getState().moveFlow.flow;
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
