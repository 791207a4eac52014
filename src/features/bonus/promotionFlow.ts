import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';
import type { Promotion } from './bonusApi';

/**
 * The promotion modal (spec §2, §4, §8) as a state machine:
 *
 *   idle --searchStarted--> searching --found------> found --receiveStarted--> receiving --received--> idle (closed)
 *                                     --not found--> notFound                            --refused---> receiveFailed
 *                                     --failed-----> searchFailed                        (receiveStarted again)
 *   notFound / searchFailed --searchStarted--> searching (search again)
 *   any state but idle --closed (the modal, or the search went) / session ended--> idle
 *
 * The machine is state.bonusPromotion, injected with the /user/bonus chunk (bonusStore.ts, which also makes the calls).
 * The modal is open while the state is not idle. `code` is the upper-cased code the find and activate calls
 * carry. Answers are matched by the request id that asked; anything else leaves the state unchanged.
 */
export type PromotionFlow =
  | { status: 'idle' }
  | { status: 'searching'; code: string; requestId: string }
  | { status: 'found'; code: string; promotion: Promotion }
  | { status: 'notFound'; code: string }
  | { status: 'searchFailed'; code: string; error: string }
  | { status: 'receiving'; code: string; promotion: Promotion; requestId: string }
  | { status: 'receiveFailed'; code: string; promotion: Promotion; error: string };

export const initialPromotionFlow: PromotionFlow = { status: 'idle' };

/** The find call's codes that mean there is no such promotion (expired or unknown). */
const NOT_FOUND_CODES = new Set(['NO_PROMOTION', 'NO_DATA']);

const promotionFlow = createSlice({
  name: 'bonus/promotion',
  initialState: initialPromotionFlow as PromotionFlow,
  reducers: {
    searchStarted(state, { payload }: PayloadAction<{ code: string; requestId: string }>): PromotionFlow {
      if (payload.code === '') return state;
      return state.status === 'idle' || state.status === 'notFound' || state.status === 'searchFailed'
        ? { status: 'searching', code: payload.code, requestId: payload.requestId }
        : state;
    },
    searchAnswered(state, { payload }: PayloadAction<{ requestId: string; promotion: Promotion }>): PromotionFlow {
      if (state.status !== 'searching' || state.requestId !== payload.requestId) return state;
      return { status: 'found', code: state.code, promotion: payload.promotion };
    },
    searchRefused(state, { payload }: PayloadAction<{ requestId: string; error: string }>): PromotionFlow {
      if (state.status !== 'searching' || state.requestId !== payload.requestId) return state;
      return NOT_FOUND_CODES.has(payload.error)
        ? { status: 'notFound', code: state.code }
        : { status: 'searchFailed', code: state.code, error: payload.error };
    },
    receiveStarted(state, { payload }: PayloadAction<{ requestId: string }>): PromotionFlow {
      return state.status === 'found' || state.status === 'receiveFailed'
        ? { status: 'receiving', code: state.code, promotion: state.promotion, requestId: payload.requestId }
        : state;
    },
    /** Spec §4: activating a promotion closes its modal (and the bonuses reload through their tags). */
    receiveAnswered(state, { payload }: PayloadAction<{ requestId: string }>): PromotionFlow {
      return state.status === 'receiving' && state.requestId === payload.requestId ? initialPromotionFlow : state;
    },
    receiveRefused(state, { payload }: PayloadAction<{ requestId: string; error: string }>): PromotionFlow {
      if (state.status !== 'receiving' || state.requestId !== payload.requestId) return state;
      return { status: 'receiveFailed', code: state.code, promotion: state.promotion, error: payload.error };
    },
    /** The player closed the modal (or left the search); a late answer finds the machine idle and is ignored. */
    closed(state): PromotionFlow {
      return state.status === 'idle' ? state : initialPromotionFlow;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, (state): PromotionFlow => (state.status === 'idle' ? state : initialPromotionFlow));
  },
});

export const { searchStarted, searchAnswered, searchRefused, receiveStarted, receiveAnswered, receiveRefused, closed } = promotionFlow.actions;
export const promotionFlowReducer = promotionFlow.reducer;
