import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

import { errorCode } from '../../app/apiErrors';
import { useAppSelector } from '../../app/hooks';
import { selectLocale } from '../../app/prefs';
import { formatAmount } from '../../lib/format';
import { answered, attemptFor, dismissed, initialMoveFlow, isUncertain, moveFlowReducer, refused, submitted, type MoveFlow } from './moveFlow';
import type { MoveAnswer } from './walletEndpoints';

/** Spec §9: loading indicators appear only when the work takes longer than 200 ms. */
export const LOADING_DELAY_MS = 200;

/** `active`, but only once it has stayed true for `delay` ms. */
export function useDelayedFlag(active: boolean, delay = LOADING_DELAY_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), delay);
    return () => clearTimeout(timer);
  }, [active, delay]);
  return active && shown;
}

/** The current time, renewed every `every` ms (relative times stay true while the page is open). */
export function useNow(every = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}

/** Amounts in the player's language: at least 2 decimals, or a dash when not a number. */
export function useFormatAmount(): (value: unknown) => string {
  const locale = useAppSelector(selectLocale);
  return useCallback((value: unknown) => formatAmount(value, locale), [locale]);
}

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
