import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';

/**
 * Receiving a bonus from its modal:
 *
 *   ready --started--> activating --answered--> activated (the alert names the amount credited; OK closes)
 *                                 --refused---> failed --started--> activating (try again)
 *                                                      --dismissed-> ready
 *   any --activationLeft (the modal went) / session ended--> ready
 *
 * The machine is state.bonusActivation, injected with the /user/bonus chunk (bonusStore.ts, which also makes the call).
 * Answers are matched by the request id that asked; anything else leaves the state unchanged.
 */
export type ActivationFlow =
  | { status: 'ready' }
  | { status: 'activating'; requestId: string }
  /** amount: the bonus credited to the wallet, in baht (the activation's answer; issue 40 item 11). */
  | { status: 'activated'; amount: number }
  | { status: 'failed'; error: string };

export const initialActivationFlow: ActivationFlow = { status: 'ready' };

const activationFlow = createSlice({
  name: 'bonus/activation',
  initialState: initialActivationFlow as ActivationFlow,
  reducers: {
    activationStarted(state, { payload }: PayloadAction<{ requestId: string }>): ActivationFlow {
      return state.status === 'ready' || state.status === 'failed' ? { status: 'activating', requestId: payload.requestId } : state;
    },
    activationAnswered(state, { payload }: PayloadAction<{ requestId: string; amount: number }>): ActivationFlow {
      return state.status === 'activating' && state.requestId === payload.requestId ? { status: 'activated', amount: payload.amount } : state;
    },
    activationRefused(state, { payload }: PayloadAction<{ requestId: string; error: string }>): ActivationFlow {
      return state.status === 'activating' && state.requestId === payload.requestId ? { status: 'failed', error: payload.error } : state;
    },
    activationDismissed(state): ActivationFlow {
      return state.status === 'failed' ? initialActivationFlow : state;
    },
    /** The modal went: the next opening starts afresh (an answer still on its way is then ignored). */
    activationLeft(state): ActivationFlow {
      return state.status === 'ready' ? state : initialActivationFlow;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, (state): ActivationFlow => (state.status === 'ready' ? state : initialActivationFlow));
  },
});

export const { activationStarted, activationAnswered, activationRefused, activationDismissed, activationLeft } = activationFlow.actions;
export const activationFlowReducer = activationFlow.reducer;
