import type { RootState } from '../../app/store';
import { injectSlice } from '../../core/lazySlices';
import { initialLaunchState, launchReducer, type LaunchState } from './launchSlice';
import { initialMoveState, moveFlowReducer, type MoveState } from './moveFlow';

/**
 * The wallet's flow slices (issue 12), injected into the store when this lazy chunk loads (core/lazySlices.ts): state.moveFlow and
 * state.gameLaunch then show in Redux DevTools like any other slice. Until an action has passed after the
 * injection the state is undefined, so the selectors fall back to the initial state.
 */
injectSlice({ reducerPath: 'moveFlow', reducer: moveFlowReducer });
injectSlice({ reducerPath: 'gameLaunch', reducer: launchReducer });

export const selectMoveState = (state: RootState): MoveState => state.moveFlow ?? initialMoveState;
export const selectLaunch = (state: RootState): LaunchState => state.gameLaunch ?? initialLaunchState;
