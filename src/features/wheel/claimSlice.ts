import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import { sessionEnded } from '../../core/authEvents';
import { wheelApi, type Coupon } from './wheelApi';

/**
 * Claiming a coupon (spec §2: each claim is confirmed in a dialog; §8: a failure is an error alert), as
 * state.couponClaim, injected with the wheel's chunk (claimStore.ts):
 *
 *   idle --asked(coupon)--> confirming --declined--> idle
 *                                      --claim sent (that coupon)--> claiming --answered--> claimed --dismissed--> idle
 *                                                                             --refused---> failed  --dismissed--> idle
 *   any --couponsLeft (the list went) / session ended--> idle
 *
 * The setup, the coupons and the wallet reload through the claim's tags when it succeeds (spec §4). The machine
 * follows the claim call's own RTK Query actions: answers are matched by the request id that started the claim,
 * and anything the state does not expect leaves it unchanged.
 */
export type ClaimFlow =
  | { status: 'idle' }
  | { status: 'confirming'; coupon: Coupon }
  | { status: 'claiming'; coupon: Coupon; requestId: string }
  | { status: 'claimed'; coupon: Coupon }
  | { status: 'failed'; coupon: Coupon; code: string };

export const initialClaimFlow: ClaimFlow = { status: 'idle' };

const claimSlice = createSlice({
  name: 'couponClaim',
  initialState: initialClaimFlow as ClaimFlow,
  reducers: {
    claimAsked(state, { payload }: PayloadAction<Coupon>): ClaimFlow {
      return state.status === 'idle' ? { status: 'confirming', coupon: payload } : state;
    },
    claimDeclined(state): ClaimFlow {
      return state.status === 'confirming' ? initialClaimFlow : state;
    },
    claimDismissed(state): ClaimFlow {
      return state.status === 'claimed' || state.status === 'failed' ? initialClaimFlow : state;
    },
    /** The coupon list went (the wheel closed): the next one starts afresh (an answer on its way is then ignored). */
    couponsLeft: (): ClaimFlow => initialClaimFlow,
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, (): ClaimFlow => initialClaimFlow)
      // POST /api/spinwheel/coupon/claim for the coupon being confirmed.
      .addMatcher(wheelApi.endpoints.claimCoupon.matchPending, (state, action): ClaimFlow =>
        state.status === 'confirming' && action.meta.arg.originalArgs === state.coupon._id
          ? { status: 'claiming', coupon: state.coupon, requestId: action.meta.requestId }
          : state,
      )
      .addMatcher(wheelApi.endpoints.claimCoupon.matchFulfilled, (state, action): ClaimFlow => {
        if (state.status !== 'claiming' || state.requestId !== action.meta.requestId) return state;
        return { status: 'claimed', coupon: action.payload?.coupon ?? state.coupon };
      })
      .addMatcher(wheelApi.endpoints.claimCoupon.matchRejected, (state, action): ClaimFlow => {
        if (state.status !== 'claiming' || state.requestId !== action.meta.requestId) return state;
        return { status: 'failed', coupon: state.coupon, code: errorCode(action.payload ?? action.error) };
      });
  },
});

export const { claimAsked, claimDeclined, claimDismissed, couponsLeft } = claimSlice.actions;
export const claimReducer = claimSlice.reducer;
