import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';

/**
 * Cancelling the active bonus (spec §4, §8): a confirm dialog first; a failure shows a danger dialog.
 *
 *   idle --asked--> confirming --declined--> idle
 *                              --started---> clearing --answered--> idle (toast; the active state and list reload)
 *                                                     --refused---> failed --dismissed--> idle
 *   any --cancelLeft (the panel went) / session ended--> idle
 *
 * The machine is state.bonusCancel, injected with the /user/bonus chunk (bonusStore.ts, which also makes the call).
 * Answers are matched by the request id that asked; anything else leaves the state unchanged.
 */
export type CancelFlow =
  | { status: 'idle' }
  | { status: 'confirming' }
  | { status: 'clearing'; requestId: string }
  | { status: 'failed'; error: string };

export const initialCancelFlow: CancelFlow = { status: 'idle' };

const cancelFlow = createSlice({
  name: 'bonus/cancel',
  initialState: initialCancelFlow as CancelFlow,
  reducers: {
    cancelAsked(state): CancelFlow {
      return state.status === 'idle' ? { status: 'confirming' } : state;
    },
    cancelDeclined(state): CancelFlow {
      return state.status === 'confirming' ? initialCancelFlow : state;
    },
    clearStarted(state, { payload }: PayloadAction<{ requestId: string }>): CancelFlow {
      return state.status === 'confirming' ? { status: 'clearing', requestId: payload.requestId } : state;
    },
    clearAnswered(state, { payload }: PayloadAction<{ requestId: string }>): CancelFlow {
      return state.status === 'clearing' && state.requestId === payload.requestId ? initialCancelFlow : state;
    },
    clearRefused(state, { payload }: PayloadAction<{ requestId: string; error: string }>): CancelFlow {
      return state.status === 'clearing' && state.requestId === payload.requestId ? { status: 'failed', error: payload.error } : state;
    },
    failureDismissed(state): CancelFlow {
      return state.status === 'failed' ? initialCancelFlow : state;
    },
    /** The panel went (the bonus ended, or the player left the screen): its dialogs go with it. */
    cancelLeft(state): CancelFlow {
      return state.status === 'idle' ? state : initialCancelFlow;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, (state): CancelFlow => (state.status === 'idle' ? state : initialCancelFlow));
  },
});

export const { cancelAsked, cancelDeclined, clearStarted, clearAnswered, clearRefused, failureDismissed, cancelLeft } = cancelFlow.actions;
export const cancelFlowReducer = cancelFlow.reducer;
