import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Receiving the invite bonus from the home (spec §4): one call at a time; a tap while one is under way is refused.
 *
 *   idle --inviteReceiveStarted--> receiving (its request id)
 *   receiving --inviteReceiveEnded (same request)--> idle
 */
export type InviteReceive = { status: 'idle' } | { status: 'receiving'; requestId: string };

/**
 * The home's state (state.home, injected with the wallet's chunk: homeStore.ts). `refusals` counts the taps refused
 * during a time-out or self-exclusion (issue 15): from the first one the refusal is said instead of the notice, and
 * each one moves the focus to it again. Both start afresh each time the home is shown (`homeLeft`).
 */
export interface HomeState {
  refusals: number;
  invite: InviteReceive;
}

export const initialHomeState: HomeState = { refusals: 0, invite: { status: 'idle' } };

const homeSlice = createSlice({
  name: 'wallet/home',
  initialState: initialHomeState as HomeState,
  reducers: {
    /** A deposit, transfer or game button was tapped while play is restricted. */
    playRefused(state) {
      state.refusals += 1;
    },
    inviteReceiveStarted(state, { payload }: PayloadAction<{ requestId: string }>) {
      if (state.invite.status !== 'idle') return;
      state.invite = { status: 'receiving', requestId: payload.requestId };
    },
    /** The receive call answered, either way (a refusal is the base query's toast). */
    inviteReceiveEnded(state, { payload }: PayloadAction<{ requestId: string }>) {
      if (state.invite.status !== 'receiving' || state.invite.requestId !== payload.requestId) return;
      state.invite = { status: 'idle' };
    },
    /** The home left the screen. */
    homeLeft(state): HomeState {
      return state.refusals === 0 && state.invite.status === 'idle' ? state : initialHomeState;
    },
  },
});

export const { playRefused, inviteReceiveStarted, inviteReceiveEnded, homeLeft } = homeSlice.actions;
export const homeReducer = homeSlice.reducer;
