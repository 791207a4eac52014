import { createSlice } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import { sessionEnded, tokenReplaced } from '../../core/authEvents';
import { sessionApi } from './sessionApi';

/**
 * The login machine: idle (maybe with the last error code) -> submitting -> loggedIn, or back to idle with
 * an error. The token lives beside it; it is persisted with `remember` (see app/persist.ts). A session the server
 * refused ends in idle with `expired`, so the login screen says why the player is there; the next submission
 * clears it. Not persisted: after a reload the reason is no longer news.
 */
export type LoginState =
  | { status: 'idle'; error: string | null; expired?: true }
  | { status: 'submitting'; requestId: string }
  | { status: 'loggedIn' };

export interface SessionState {
  token: string | null;
  remember: boolean;
  login: LoginState;
}

export const initialSession: SessionState = { token: null, remember: false, login: { status: 'idle', error: null } };

/** A logged-in session, for a rehydrated token and for tests. */
export function loggedInSession(token: string, remember = false): SessionState {
  return { token, remember, login: { status: 'loggedIn' } };
}

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSession,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, (state, action) => {
        // A submission in flight decides for itself; an idle machine has nothing to end.
        if (state.login.status !== 'loggedIn') return state;
        // Only the server's refusal is news to the player; a logout or a visit to a public page is their own doing.
        if (action.payload === 'rejected') return { ...initialSession, login: { status: 'idle', error: null, expired: true } };
        return { ...initialSession };
      })
      .addCase(tokenReplaced, (state, action) => {
        // Only a logged-in session has a token to replace; remember-me (and so the storage) stays as chosen.
        if (state.login.status !== 'loggedIn' || action.payload === '') return state;
        return { token: action.payload, remember: state.remember, login: { status: 'loggedIn' } };
      })
      .addMatcher(sessionApi.endpoints.login.matchPending, (state, action) => {
        if (state.login.status !== 'idle') return state;
        return {
          token: null,
          remember: action.meta.arg.originalArgs.remember,
          login: { status: 'submitting', requestId: action.meta.requestId },
        };
      })
      .addMatcher(sessionApi.endpoints.login.matchFulfilled, (state, action) => {
        if (state.login.status !== 'submitting' || state.login.requestId !== action.meta.requestId) return state;
        return { token: action.payload.token, remember: state.remember, login: { status: 'loggedIn' } };
      })
      .addMatcher(sessionApi.endpoints.login.matchRejected, (state, action) => {
        if (state.login.status !== 'submitting' || state.login.requestId !== action.meta.requestId) return state;
        return { token: null, remember: state.remember, login: { status: 'idle', error: errorCode(action.payload ?? action.error) } };
      });
  },
  selectors: {
    selectToken: (state) => state.token,
    selectIsLoggedIn: (state) => state.token !== null,
    selectLoginStatus: (state) => state.login.status,
    selectLoginError: (state) => (state.login.status === 'idle' ? state.login.error : null),
    selectRemember: (state) => state.remember,
    /** The last session ended because the server refused its token (and no login was tried since). */
    selectSessionExpired: (state) => state.login.status === 'idle' && state.login.expired === true,
  },
});

export const { selectToken, selectIsLoggedIn, selectLoginStatus, selectLoginError, selectRemember, selectSessionExpired } = sessionSlice.selectors;
export const sessionReducer = sessionSlice.reducer;
export default sessionSlice;
