import { useCallback, useReducer, useRef } from 'react';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

import { errorCode } from '../../app/apiErrors';
import { answered, attemptFor, dismissed, initialMoveFlow, isUncertain, moveFlowReducer, refused, submitted, type MoveFlow } from './moveFlow';
import type { MoveAnswer } from './walletEndpoints';

// Shared with other features (bonus, refund); re-exported so the wallet's imports stay as they were.
export { LOADING_DELAY_MS, useDelayedFlag } from '../../components/useDelayedFlag';
export { useFormatAmount } from '../../components/useFormatAmount';
export { useNow } from '../../components/useNow';

type Trigger<Req> = (arg: Req) => { unwrap(): Promise<MoveAnswer> };

/**
 * Runs one money movement through the moveFlow machine: picks the Idempotency-Key (the unanswered attempt's
 * key again for the same body), sends, and records the answer. A second submit while one is running is ignored.
 */
export function useMoneyMove<Req extends { idempotencyKey: string }>(trigger: Trigger<Req>) {
  const [flow, send] = useReducer(moveFlowReducer, initialMoveFlow);
  const current = useRef<MoveFlow>(flow);
  current.current = flow;

  const run = useCallback(
    async (body: Omit<Req, 'idempotencyKey'>): Promise<MoveAnswer | null> => {
      const before = current.current;
      if (before.status === 'submitting' || before.status === 'succeeded') return null;
      const attempt = attemptFor(before, body);
      current.current = { status: 'submitting', attempt };
      send(submitted(attempt));
      try {
        const answer = await trigger({ ...body, idempotencyKey: attempt.key } as Req).unwrap();
        send(answered({ status: answer.status, message: answer.message }));
        return answer;
      } catch (failure) {
        const error = failure as FetchBaseQueryError | SerializedError;
        send(refused({ code: errorCode(error), uncertain: isUncertain(error) }));
        return null;
      }
    },
    [trigger],
  );
  const dismiss = useCallback(() => send(dismissed()), []);
  return { flow, run, dismiss };
}
