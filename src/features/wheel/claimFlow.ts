import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { Coupon } from './wheelApi';

/**
 * Claiming a coupon (spec §2: each claim is confirmed in a dialog; §8: a failure is an error alert):
 *
 *   idle --asked(coupon)--> confirming --declined--> idle
 *                                      --started---> claiming --answered--> claimed --dismissed--> idle
 *                                                             --refused---> failed  --dismissed--> idle
 *
 * The setup, the coupons and the wallet reload through the claim's tags when it succeeds (spec §4). Answers
 * are matched by the request id that asked; anything the state does not expect leaves it unchanged.
 */
export type ClaimFlow =
  | { status: 'idle' }
  | { status: 'confirming'; coupon: Coupon }
  | { status: 'claiming'; coupon: Coupon; requestId: string }
  | { status: 'claimed'; coupon: Coupon }
  | { status: 'failed'; coupon: Coupon; code: string };

export const initialClaimFlow: ClaimFlow = { status: 'idle' };

const claimFlow = createSlice({
  name: 'wheel/claim',
  initialState: initialClaimFlow as ClaimFlow,
  reducers: {
    claimAsked(state, { payload }: PayloadAction<Coupon>): ClaimFlow {
      return state.status === 'idle' ? { status: 'confirming', coupon: payload } : state;
    },
    claimDeclined(state): ClaimFlow {
      return state.status === 'confirming' ? initialClaimFlow : state;
    },
    claimStarted(state, { payload }: PayloadAction<{ requestId: string }>): ClaimFlow {
      return state.status === 'confirming' ? { status: 'claiming', coupon: state.coupon, requestId: payload.requestId } : state;
    },
    claimAnswered(state, { payload }: PayloadAction<{ requestId: string; coupon?: Coupon }>): ClaimFlow {
      if (state.status !== 'claiming' || state.requestId !== payload.requestId) return state;
      return { status: 'claimed', coupon: payload.coupon ?? state.coupon };
    },
    claimRefused(state, { payload }: PayloadAction<{ requestId: string; code: string }>): ClaimFlow {
      if (state.status !== 'claiming' || state.requestId !== payload.requestId) return state;
      return { status: 'failed', coupon: state.coupon, code: payload.code };
    },
    claimDismissed(state): ClaimFlow {
      return state.status === 'claimed' || state.status === 'failed' ? initialClaimFlow : state;
    },
  },
});

export const { claimAsked, claimDeclined, claimStarted, claimAnswered, claimRefused, claimDismissed } = claimFlow.actions;
export const claimFlowReducer = claimFlow.reducer;
