import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';

export type LaunchTarget = 'web' | 'android' | 'ios';

/**
 * Starting a game from the game-account modal (spec §2), as a store slice (state.gameLaunch):
 *
 *   idle / opened / blocked / failed --started--> transferring (an amount first) or linking
 *   transferring --transferSettled ok--> linking;  --transferSettled refused--> idle (moveFlow shows why)
 *   linking --linkReady opened--> opened;  --linkReady not opened--> blocked (the link to tap instead)
 *   transferring / linking --launchFailed--> failed (the error code)
 *   any --launchReset (the modal closed) / session ended--> idle
 *
 * A start while one is under way is refused. The window opened in the click is not state: the thunk in
 * launch.ts holds it. The amount typed and the password shown stay in the view.
 */
export type LaunchState =
  | { status: 'idle' }
  | { status: 'transferring' | 'linking' | 'opened'; game: string; target: LaunchTarget }
  | { status: 'blocked'; game: string; target: LaunchTarget; link: string }
  | { status: 'failed'; game: string; target: LaunchTarget; code: string };

export const initialLaunchState: LaunchState = { status: 'idle' };

export const isLaunching = (state: LaunchState) => state.status === 'transferring' || state.status === 'linking';

/** The button whose launch is under way (its busy state, shown from the tap on: issue 40 item 12), or null. */
export const launchingTarget = (state: LaunchState): LaunchTarget | null => (isLaunching(state) && 'target' in state ? state.target : null);

const launchSlice = createSlice({
  name: 'wallet/launch',
  initialState: initialLaunchState as LaunchState,
  reducers: {
    started(state, { payload }: PayloadAction<{ game: string; target: LaunchTarget; transfer: boolean }>): LaunchState {
      if (isLaunching(state)) return state;
      return { status: payload.transfer ? 'transferring' : 'linking', game: payload.game, target: payload.target };
    },
    transferSettled(state, { payload }: PayloadAction<{ ok: boolean }>): LaunchState {
      if (state.status !== 'transferring') return state;
      return payload.ok ? { ...state, status: 'linking' } : initialLaunchState;
    },
    linkReady(state, { payload }: PayloadAction<{ link: string; opened: boolean }>): LaunchState {
      if (state.status !== 'linking') return state;
      const { game, target } = state;
      return payload.opened ? { status: 'opened', game, target } : { status: 'blocked', game, target, link: payload.link };
    },
    launchFailed(state, { payload }: PayloadAction<{ code: string }>): LaunchState {
      if (state.status !== 'transferring' && state.status !== 'linking') return state;
      return { status: 'failed', game: state.game, target: state.target, code: payload.code };
    },
    launchReset(): LaunchState {
      return initialLaunchState;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, () => initialLaunchState);
  },
});

export const { started, transferSettled, linkReady, launchFailed, launchReset } = launchSlice.actions;
export const launchReducer = launchSlice.reducer;
