import { createSlice, type ThunkAction, type UnknownAction } from '@reduxjs/toolkit';

import { codeOf } from '../requestId';
import { freshly } from '../staffApi';
import { playersApi, type PlayerLookup } from './api';

/**
 * The player lookup of /staff/players, as a machine over the lookup endpoint's own actions:
 *
 *   any --lookup pending(requestId)--> searching --fulfilled(requestId)--> found --status set / PLAYER_GONE--> found
 *   idle | empty | notFound | failed | found --searchedEmpty--> empty
 *                                          searching --rejected(requestId)--> notFound (NO_DATA) | failed
 *   any --pageLeft--> idle
 *
 * Only the answer of the latest search counts; an empty field asks nothing, and is refused while a search runs.
 */
export type PlayerSearch =
  | { phase: 'idle' }
  | { phase: 'empty' }
  | { phase: 'searching'; requestId: string; phone: string }
  | { phase: 'notFound'; phone: string }
  | { phase: 'failed'; code: string }
  | { phase: 'found'; requestId: string; result: PlayerLookup };

const initialState = { phase: 'idle' } as PlayerSearch;

const playerSearch = createSlice({
  name: 'playerSearch',
  initialState,
  reducers: {
    searchedEmpty: (state) => (state.phase === 'searching' ? state : { phase: 'empty' }),
    /** The page was left: what it showed goes with it, and a late answer finds nothing to change. */
    pageLeft: (state) => (state.phase === 'idle' ? state : { phase: 'idle' }),
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(playersApi.endpoints.lookupPlayer.matchPending, (_state, action) => ({ phase: 'searching', requestId: action.meta.requestId, phone: action.meta.arg.originalArgs }))
      .addMatcher(playersApi.endpoints.lookupPlayer.matchFulfilled, (state, action) =>
        state.phase === 'searching' && state.requestId === action.meta.requestId ? { phase: 'found', requestId: state.requestId, result: action.payload } : state,
      )
      .addMatcher(playersApi.endpoints.lookupPlayer.matchRejected, (state, action) => {
        if (state.phase !== 'searching' || state.requestId !== action.meta.requestId) return state;
        const code = codeOf(action.payload);
        return code === 'NO_DATA' ? { phase: 'notFound', phone: state.phone } : { phase: 'failed', code };
      })
      .addMatcher(playersApi.endpoints.setPlayerStatus.matchFulfilled, (state, action) => {
        if (state.phase !== 'found' || state.result.player.id !== action.meta.arg.originalArgs.id) return state;
        state.result.player.status = action.payload.status;
      })
      .addMatcher(playersApi.endpoints.setPlayerStatus.matchRejected, (state, action) => {
        // Closed by the player meanwhile: the card shows it, with no status control.
        if (state.phase !== 'found' || state.result.player.id !== action.meta.arg.originalArgs.id || codeOf(action.payload) !== 'PLAYER_GONE') return state;
        state.result.player.status = 'gone';
      });
  },
  selectors: { selectPlayerSearch: (state) => state },
});

export const { searchedEmpty, pageLeft } = playerSearch.actions;
export const { selectPlayerSearch } = playerSearch.selectors;
export const playerSearchReducer = playerSearch.reducer;
export const playerSearchPath = playerSearch.reducerPath;

/** Looks the phone up (trimmed), or says the field is empty; false when nothing was asked. */
export const searchPlayer =
  (phone: string): ThunkAction<boolean, unknown, unknown, UnknownAction> =>
  (dispatch) => {
    const value = phone.trim();
    if (!value) {
      dispatch(searchedEmpty());
      return false;
    }
    void dispatch(playersApi.endpoints.lookupPlayer.initiate(value, freshly));
    return true;
  };
