import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Receiving the refund in the modal:
 *
 *   ready --started--> receiving --answered--> received (the modal's close flag: the wallet reloads on close)
 *                                --refused---> ready (the red toast told why)
 *
 * One receive per opening: `received` is final. Answers are matched by the request id that asked; anything
 * else leaves the state unchanged.
 */
export type RefundFlow = { status: 'ready' } | { status: 'receiving'; requestId: string } | { status: 'received'; amount: number };

export const initialRefundFlow: RefundFlow = { status: 'ready' };

const refundFlow = createSlice({
  name: 'refund/receive',
  initialState: initialRefundFlow as RefundFlow,
  reducers: {
    receiveStarted(state, { payload }: PayloadAction<{ requestId: string }>): RefundFlow {
      return state.status === 'ready' ? { status: 'receiving', requestId: payload.requestId } : state;
    },
    receiveAnswered(state, { payload }: PayloadAction<{ requestId: string; amount: number }>): RefundFlow {
      return state.status === 'receiving' && state.requestId === payload.requestId ? { status: 'received', amount: payload.amount } : state;
    },
    receiveRefused(state, { payload }: PayloadAction<{ requestId: string }>): RefundFlow {
      return state.status === 'receiving' && state.requestId === payload.requestId ? initialRefundFlow : state;
    },
  },
});

export const { receiveStarted, receiveAnswered, receiveRefused } = refundFlow.actions;
export const refundFlowReducer = refundFlow.reducer;

/** Spec §4: the refund modal closes with a true flag once money moved, and then the wallet reloads. */
export const selectRefundChanged = (flow: RefundFlow): boolean => flow.status === 'received';
