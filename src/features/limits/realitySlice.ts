import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded, sessionLimitReached } from '../../core/authEvents';

/**
 * What the reality check remembers (issue 15): how many checks the player acknowledged in the session that
 * started at `startedAt` (persisted, so a reload does not show an acknowledged check again but does show a due
 * one), and whether a call was refused with SESSION_LIMIT (not persisted: the next call says so again).
 *
 * Only the current session is kept: acknowledging for another session starts its count afresh.
 */
export interface RealityState {
  startedAt: string | null;
  acknowledged: number;
  sessionLimit: boolean;
}

export const initialReality: RealityState = { startedAt: null, acknowledged: 0, sessionLimit: false };

const realitySlice = createSlice({
  name: 'reality',
  initialState: initialReality,
  reducers: {
    /** The player pressed "continue" on the check that made `count` checks passed in session `startedAt`. */
    realityAcknowledged(state, { payload }: PayloadAction<{ startedAt: string; count: number }>) {
      if (!Number.isInteger(payload.count) || payload.count < 0) return state;
      if (state.startedAt !== payload.startedAt) return { ...state, startedAt: payload.startedAt, acknowledged: payload.count };
      return payload.count > state.acknowledged ? { ...state, acknowledged: payload.count } : state;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionLimitReached, (state) => (state.sessionLimit ? state : { ...state, sessionLimit: true }))
      .addCase(sessionEnded, () => initialReality);
  },
});

export const { realityAcknowledged } = realitySlice.actions;
export const realityReducer = realitySlice.reducer;

type WithReality = { reality: RealityState };

/** The checks acknowledged in session `startedAt` (0 for a session this device has not acknowledged any in). */
export const selectAcknowledged = (state: WithReality, startedAt: string): number =>
  state.reality.startedAt === startedAt ? state.reality.acknowledged : 0;

export const selectSessionLimitReached = (state: WithReality): boolean => state.reality.sessionLimit;
