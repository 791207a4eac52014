import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import { sessionEnded } from '../../core/authEvents';
import type { AppDispatch, RootState } from '../../app/store';
import { wheelApi, type SpinPrize } from './wheelApi';

/**
 * The spin (spec §4 Spin wheel):
 *
 *   idle --spin sent--> spinning (waiting) --answered--> spinning (landing on the prize) --wheelStopped--> prize
 *                                          --refused---> failed --failureDismissed--> idle
 *   prize --prizeClosed--> idle (the setup reloads)
 *   spinning --spinSkipped--> spinning, skipped (the wheel goes straight to the landing, at once or when answered)
 *   any --wheelClosed / session ended--> idle
 *
 * A spin is asked for only in idle and with coins left (`canSpin`, checked before anything is sent); the
 * machine itself takes a spin's start only in idle, so a second request while one runs changes nothing and its
 * answer is ignored. Answers are matched by the request id that started the spin.
 */
export type SpinState =
  | { status: 'idle' }
  | { status: 'spinning'; requestId: string; landing: SpinPrize | null; skipped?: true }
  | { status: 'prize'; prize: SpinPrize }
  | { status: 'failed'; code: string };

export const initialSpinState: SpinState = { status: 'idle' };

const spinSlice = createSlice({
  name: 'spin',
  initialState: initialSpinState as SpinState,
  reducers: {
    /** The wheel came to rest on the prize of spin `requestId`. */
    wheelStopped(state, { payload }: PayloadAction<{ requestId: string }>): SpinState {
      return state.status === 'spinning' && state.landing && state.requestId === payload.requestId ? { status: 'prize', prize: state.landing } : state;
    },
    /** The player asked to skip the animation (issue 40 item 11): the wheel lands now, or as soon as answered. */
    spinSkipped(state): SpinState {
      return state.status === 'spinning' ? { ...state, skipped: true } : state;
    },
    prizeClosed(state): SpinState {
      return state.status === 'prize' ? initialSpinState : state;
    },
    failureDismissed(state): SpinState {
      return state.status === 'failed' ? initialSpinState : state;
    },
    /** The wheel modal closed: whatever was under way, the next opening starts afresh (coupons keep the prize). */
    wheelClosed(): SpinState {
      return initialSpinState;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, () => initialSpinState)
      .addMatcher(wheelApi.endpoints.spin.matchPending, (state, action): SpinState =>
        state.status === 'idle' ? { status: 'spinning', requestId: action.meta.requestId, landing: null } : state,
      )
      .addMatcher(wheelApi.endpoints.spin.matchFulfilled, (state, action): SpinState => {
        if (state.status !== 'spinning' || state.landing || state.requestId !== action.meta.requestId) return state;
        const answer = action.payload;
        // The contract refuses with a non-2xx status; a 200 that says it failed is taken at its word too.
        if (!answer?.success || !answer.result) return { status: 'failed', code: answer?.error || 'GENERIC' };
        return { ...state, landing: answer.result };
      })
      .addMatcher(wheelApi.endpoints.spin.matchRejected, (state, action): SpinState => {
        if (state.status !== 'spinning' || state.landing || state.requestId !== action.meta.requestId) return state;
        return { status: 'failed', code: errorCode(action.payload ?? action.error) };
      });
  },
});

export const { wheelStopped, spinSkipped, prizeClosed, failureDismissed, wheelClosed } = spinSlice.actions;
export const spinReducer = spinSlice.reducer;

/** Spec §4: a spin is ignored while spinning (or while its prize or failure shows), or with zero coins or less. */
export function canSpin(state: SpinState, coins: number | null | undefined): boolean {
  return state.status === 'idle' && typeof coins === 'number' && coins > 0;
}

const selectSetupResult = wheelApi.endpoints.getSpinSetup.select();

export const selectSpin = (state: RootState): SpinState => state.spin;

/**
 * The coin count the wheel shows: the setup's until the wheel has landed, then what the spin left (spec §4: the
 * wheel lands, the coin count is shown, the prize opens); null before the setup has loaded.
 */
export function selectCoins(state: RootState): number | null {
  if (state.spin.status === 'prize') return state.spin.prize.remainingCoin;
  // The root state's cache type lists only the base API's tags, not the ones this feature adds.
  const coins = selectSetupResult(state as unknown as Parameters<typeof selectSetupResult>[0]).data?.result?.userCoin;
  return typeof coins === 'number' ? coins : null;
}

/** Asks the server for a spin, unless `canSpin` refuses; returns the request, or null when nothing was sent. */
export const spinRequested = () => (dispatch: AppDispatch, getState: () => RootState) => {
  const state = getState();
  if (!canSpin(state.spin, selectCoins(state))) return null;
  return dispatch(wheelApi.endpoints.spin.initiate(undefined, { track: false }));
};

/**
 * The wheel came to rest on spin `requestId`'s prize: only now is the coupon list asked again, so it never shows
 * the prize while the wheel still turns (issue 40 item 11; the spin itself invalidates nothing).
 */
export const wheelLanded = (requestId: string) => (dispatch: AppDispatch, getState: () => RootState) => {
  dispatch(wheelStopped({ requestId }));
  if (getState().spin.status === 'prize') dispatch(wheelApi.util.invalidateTags(['Coupon']));
};

/**
 * The prize modal closed: the wheel shows what the spin left until the setup, reloaded now, says otherwise
 * (spec §4: closing the prize modal reloads the setup).
 */
export const prizeDismissed = () => (dispatch: AppDispatch, getState: () => RootState) => {
  const spin = getState().spin;
  if (spin.status !== 'prize') return;
  dispatch(
    wheelApi.util.updateQueryData('getSpinSetup', undefined, (setup) => {
      if (setup?.result) setup.result.userCoin = spin.prize.remainingCoin;
    }),
  );
  dispatch(prizeClosed());
  dispatch(wheelApi.util.invalidateTags(['SpinSetup']));
};
