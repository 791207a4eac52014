import type { AppDispatch, RootState } from '../../app/store';
import { injectSlice } from '../../core/lazySlices';
import { claimReducer, initialClaimFlow, type ClaimFlow } from './claimSlice';
import { wheelApi } from './wheelApi';

/**
 * The coupon claim machine, injected into the store when the wheel's chunk loads (the login bundle does not carry
 * it). Until an action has passed after the injection the state is undefined: the selector falls back to idle.
 */
injectSlice({ reducerPath: 'couponClaim', reducer: claimReducer });

export const selectClaimFlow = (state: RootState): ClaimFlow => state.couponClaim ?? initialClaimFlow;

/** The claim confirmed: sent only while its dialog asks (one claim at a time); returns the request, or null. */
export const claimConfirmed = () => (dispatch: AppDispatch, getState: () => RootState) => {
  const flow = selectClaimFlow(getState());
  if (flow.status !== 'confirming') return null;
  return dispatch(wheelApi.endpoints.claimCoupon.initiate(flow.coupon._id, { track: false }));
};
