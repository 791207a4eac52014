import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';
import type { ReceiptData } from '../../components/receipt';

/**
 * One money movement (transfer, transfer of the whole wallet, or withdrawal) from a modal, as a store slice
 * (state.moveFlow) so Redux DevTools shows and replays it:
 *
 *   editing --submitted--> submitting --answered--> succeeded (with its receipt)
 *                                     --refused---> failed --dismissed--> editing
 *   succeeded --dismissed--> editing
 *   any --closed (the modal closed) / session ended--> editing, nothing attempted
 *
 * An attempt that got no definite answer (network, timeout, 5xx, key still in use) remembers its
 * Idempotency-Key and body: sending the same body again reuses that key, so the server applies it at most once.
 * Any other answer ends the attempt; the next submission gets a fresh key. `attempted` says a movement was sent
 * since the modal opened, so closing it reloads the wallet (spec §4). The thunk that drives it, the key choice
 * and the uncertainty rule are in moveMoney.ts: the store, and so the /login bundle, loads only this reducer.
 */
export interface Attempt {
  key: string;
  body: string;
}

export type MoveFlow =
  | { status: 'editing'; retry: Attempt | null }
  | { status: 'submitting'; attempt: Attempt }
  | { status: 'succeeded'; outcome: 'SUCCESS' | 'IN_PROGRESS'; message: string; receipt: ReceiptData }
  | { status: 'failed'; code: string; retry: Attempt | null };

export interface MoveState {
  flow: MoveFlow;
  attempted: boolean;
}

export const initialMoveFlow: MoveFlow = { status: 'editing', retry: null };
export const initialMoveState: MoveState = { flow: initialMoveFlow, attempted: false };

const moveFlow = createSlice({
  name: 'wallet/move',
  initialState: initialMoveState,
  reducers: {
    submitted(state, action: PayloadAction<Attempt>): MoveState {
      const { flow } = state;
      return flow.status === 'editing' || flow.status === 'failed' ? { flow: { status: 'submitting', attempt: action.payload }, attempted: true } : state;
    },
    answered(state, action: PayloadAction<{ status: 'SUCCESS' | 'IN_PROGRESS'; message: string; receipt: ReceiptData }>): MoveState {
      if (state.flow.status !== 'submitting') return state;
      const { status, message, receipt } = action.payload;
      return { ...state, flow: { status: 'succeeded', outcome: status, message, receipt } };
    },
    refused(state, action: PayloadAction<{ code: string; uncertain: boolean }>): MoveState {
      const { flow } = state;
      if (flow.status !== 'submitting') return state;
      return { ...state, flow: { status: 'failed', code: action.payload.code, retry: action.payload.uncertain ? flow.attempt : null } };
    },
    dismissed(state): MoveState {
      const { flow } = state;
      if (flow.status === 'failed') return { ...state, flow: { status: 'editing', retry: flow.retry } };
      if (flow.status === 'succeeded') return { ...state, flow: initialMoveFlow };
      return state;
    },
    /** The modal closed: the next one starts afresh (an answer still on its way is then ignored). */
    closed(): MoveState {
      return initialMoveState;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, () => initialMoveState);
  },
});

export const { submitted, answered, refused, dismissed, closed } = moveFlow.actions;
export const moveFlowReducer = moveFlow.reducer;
