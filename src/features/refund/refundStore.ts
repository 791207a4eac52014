import type { AppDispatch, RootState } from '../../app/store';
import { api } from '../../core/api';
import { injectSlice } from '../../core/lazySlices';
import { refundApi } from './refundApi';
import { initialRefundFlow, refundReducer, selectRefundChanged, type RefundFlow } from './refundSlice';

/**
 * The receive machine, injected into the store when the refund modal's chunk loads (the login bundle does not
 * carry it). Until an action has passed after the injection the state is undefined: the selector falls back to
 * the start.
 */
injectSlice({ reducerPath: 'refund', reducer: refundReducer });

export const selectRefundFlow = (state: RootState): RefundFlow => state.refund ?? initialRefundFlow;

/** Receive: sent only when ready (one receive at a time, one per opening); returns the request, or null. */
export const receiveRequested = () => (dispatch: AppDispatch, getState: () => RootState) => {
  if (selectRefundFlow(getState()).status !== 'ready') return null;
  return dispatch(refundApi.endpoints.receiveRefund.initiate(undefined, { track: false }));
};

/** The modal is closing: a received refund reloads the wallet (spec §4: closed with a true flag). */
export const refundClosing = () => (dispatch: AppDispatch, getState: () => RootState) => {
  if (selectRefundChanged(selectRefundFlow(getState()))) dispatch(api.util.invalidateTags(['Wallet']));
};
