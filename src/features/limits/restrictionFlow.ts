import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import { sessionEnded } from '../../core/authEvents';
import type { RestrictionKind } from '../../core/playLimits';

/**
 * Taking a time-out or a self-exclusion (issue 15): two explicit confirmations before anything is sent.
 *
 *   idle --restrictionChosen--> confirm1 --firstConfirmed(endsAt)--> confirm2 --takeRestriction sent--> submitting
 *   submitting --answered--> done | --refused--> failed
 *   confirm1 | confirm2 --confirmCancelled--> idle;  done | failed --resultDismissed--> idle;  any --session ended--> idle
 *
 * Any other event leaves the state as it is (a second choice while confirming, a cancel while submitting, an
 * answer to another request). The request is matched by endpoint name and request id, so this slice (in the
 * first screen's store) does not pull the limits feature's endpoints into the first download.
 */
export interface RestrictionChoice {
  kind: RestrictionKind;
  period: string;
}

export type RestrictionFlow =
  | { status: 'idle' }
  | ({ status: 'confirm1' } & RestrictionChoice)
  | ({ status: 'confirm2'; endsAt: string } & RestrictionChoice)
  | ({ status: 'submitting'; endsAt: string; requestId: string } & RestrictionChoice)
  | ({ status: 'done'; endsAt: string } & RestrictionChoice)
  | ({ status: 'failed'; code: string } & RestrictionChoice);

export const initialRestrictionFlow: RestrictionFlow = { status: 'idle' };

/** The endpoint that sends POST /api/limits/restriction (features/limits/limitsApi.ts). */
export const TAKE_RESTRICTION_ENDPOINT = 'takeRestriction';

interface RequestAction extends UnknownAction {
  payload?: unknown;
  error?: { message?: string };
  meta: { requestId: string; arg: { endpointName: string } };
}

function requestOf(phase: 'pending' | 'fulfilled' | 'rejected') {
  const type = `api/executeMutation/${phase}`;
  return (action: UnknownAction): action is RequestAction =>
    action.type === type && (action as Partial<RequestAction>).meta?.arg?.endpointName === TAKE_RESTRICTION_ENDPOINT;
}

const choiceOf = (state: RestrictionChoice): RestrictionChoice => ({ kind: state.kind, period: state.period });

const restrictionFlowSlice = createSlice({
  name: 'restrictionFlow',
  initialState: initialRestrictionFlow as RestrictionFlow,
  reducers: {
    /** A period button was pressed: the first confirmation asks. */
    restrictionChosen(state, { payload }: PayloadAction<RestrictionChoice>): RestrictionFlow {
      return state.status === 'idle' ? { status: 'confirm1', ...choiceOf(payload) } : state;
    },
    /** The first confirmation was accepted; the second names the end date (`endsAt`, ISO). */
    firstConfirmed(state, { payload }: PayloadAction<{ endsAt: string }>): RestrictionFlow {
      return state.status === 'confirm1' ? { status: 'confirm2', ...choiceOf(state), endsAt: payload.endsAt } : state;
    },
    confirmCancelled(state): RestrictionFlow {
      return state.status === 'confirm1' || state.status === 'confirm2' ? initialRestrictionFlow : state;
    },
    resultDismissed(state): RestrictionFlow {
      return state.status === 'done' || state.status === 'failed' ? initialRestrictionFlow : state;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, () => initialRestrictionFlow)
      .addMatcher(requestOf('pending'), (state, action): RestrictionFlow =>
        state.status === 'confirm2' ? { ...state, status: 'submitting', requestId: action.meta.requestId } : state,
      )
      .addMatcher(requestOf('fulfilled'), (state, action): RestrictionFlow => {
        if (state.status !== 'submitting' || state.requestId !== action.meta.requestId) return state;
        const answer = action.payload as { restriction?: { endsAt?: string } | null } | undefined;
        return { status: 'done', ...choiceOf(state), endsAt: answer?.restriction?.endsAt ?? state.endsAt };
      })
      .addMatcher(requestOf('rejected'), (state, action): RestrictionFlow => {
        if (state.status !== 'submitting' || state.requestId !== action.meta.requestId) return state;
        const code = errorCode((action.payload ?? action.error) as Parameters<typeof errorCode>[0]);
        return { status: 'failed', ...choiceOf(state), code };
      });
  },
});

export const { restrictionChosen, firstConfirmed, confirmCancelled, resultDismissed } = restrictionFlowSlice.actions;
export const restrictionFlowReducer = restrictionFlowSlice.reducer;

export const selectRestrictionFlow = (state: { restrictionFlow: RestrictionFlow }): RestrictionFlow => state.restrictionFlow;
