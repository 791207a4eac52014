import { createSlice } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';
import { refundApi } from './refundApi';

/**
 * Receiving the refund in the modal (state.refund, injected with the modal's chunk: refundStore.ts):
 *
 *   ready --receive sent--> receiving --answered--> received (the modal's close flag: the wallet reloads on close)
 *                                     --refused---> ready (the red toast told why)
 *   any --refundLeft (the modal went) / session ended--> ready
 *
 * One receive per opening: `received` is final until the modal goes. The machine follows the receive call's own
 * RTK Query actions; answers are matched by the request id that started the receive, and anything else leaves
 * the state unchanged.
 */
export type RefundFlow = { status: 'ready' } | { status: 'receiving'; requestId: string } | { status: 'received'; amount: number };

export const initialRefundFlow: RefundFlow = { status: 'ready' };

const refundSlice = createSlice({
  name: 'refund',
  initialState: initialRefundFlow as RefundFlow,
  reducers: {
    /** The modal went: the next opening starts afresh (an answer still on its way is then ignored). */
    refundLeft: (): RefundFlow => initialRefundFlow,
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, (): RefundFlow => initialRefundFlow)
      .addMatcher(refundApi.endpoints.receiveRefund.matchPending, (state, action): RefundFlow =>
        state.status === 'ready' ? { status: 'receiving', requestId: action.meta.requestId } : state,
      )
      .addMatcher(refundApi.endpoints.receiveRefund.matchFulfilled, (state, action): RefundFlow =>
        state.status === 'receiving' && state.requestId === action.meta.requestId ? { status: 'received', amount: Number(action.payload?.amount ?? 0) } : state,
      )
      .addMatcher(refundApi.endpoints.receiveRefund.matchRejected, (state, action): RefundFlow =>
        state.status === 'receiving' && state.requestId === action.meta.requestId ? initialRefundFlow : state,
      );
  },
});

export const { refundLeft } = refundSlice.actions;
export const refundReducer = refundSlice.reducer;

/** Spec §4: the refund modal closes with a true flag once money moved, and then the wallet reloads. */
export const selectRefundChanged = (flow: RefundFlow): boolean => flow.status === 'received';
