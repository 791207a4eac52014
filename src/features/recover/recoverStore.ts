import type { RootState } from '../../app/store';
import { injectSlice } from '../../core/lazySlices';
import { initialRecover, recoverReducer, type RecoverState } from './recoverSlice';

/**
 * The recovery machine, injected into the store when the /forgot chunk loads (the login bundle does not carry it).
 * Until an action has passed after the injection the state is undefined: the selector falls back to the start.
 */
injectSlice({ reducerPath: 'recover', reducer: recoverReducer });

export const selectRecover = (state: RootState): RecoverState => state.recover ?? initialRecover;
