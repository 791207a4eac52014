import { useCallback, useEffect } from 'react';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectMoveState } from './flowSlices';
import { closed, dismissed } from './moveFlow';
import { moveMoney, type MoveRequest } from './moveMoney';

// Shared with other features (bonus, refund); re-exported so the wallet's imports stay as they were.
export { LOADING_DELAY_MS, useDelayedFlag } from '../../components/useDelayedFlag';
export { useFormatAmount } from '../../components/useFormatAmount';
export { useNow } from '../../components/useNow';

/**
 * A modal's view of the moveFlow slice: the flow, whether a movement was sent since it opened, `run` (the
 * moveMoney thunk) and `dismiss`. The flow starts afresh when the modal closes.
 */
export function useMoneyMove() {
  const dispatch = useAppDispatch();
  const { flow, attempted } = useAppSelector(selectMoveState);
  useEffect(() => () => void dispatch(closed()), [dispatch]);
  const run = useCallback((request: MoveRequest) => dispatch(moveMoney(request)), [dispatch]);
  const dismiss = useCallback(() => dispatch(dismissed()), [dispatch]);
  return { flow, attempted, run, dismiss };
}
