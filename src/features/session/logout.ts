import { createAsyncThunk, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';
import { navigateTo } from '../../core/navigation';
import { sessionApi } from './sessionApi';
import { selectToken, type SessionState } from './sessionSlice';

/** Asks the server to revoke the stored token; any failure (offline, refused, timed out) is ignored. */
async function revoke(dispatch: ThunkDispatch<unknown, unknown, UnknownAction>): Promise<void> {
  try {
    await dispatch(sessionApi.endpoints.logout.initiate()).unwrap();
  } catch {
    // The local session ends anyway.
  }
}

/**
 * Log out: ask the server to revoke the token, then forget it and go to /login even when the call fails
 * (offline, token already refused): the player asked to leave, so the device must not stay logged in.
 */
export const logout = createAsyncThunk('session/logout', async (_: void, { dispatch }) => {
  await revoke(dispatch);
  dispatch(sessionEnded('logout'));
  navigateTo('/login', { replace: true });
});

/**
 * Spec §4: a public page visited while holding a token ends the session. The server revokes the token first
 * (POST /api/logout with it, so a copied token dies with it), then the device forgets it, also when that call
 * fails: the player stays on the public page they asked for. The navigation guard awaits this, so the page
 * shows with the session already gone. The session's end clears the API cache and aborts running requests,
 * which is why the revoke is not started alongside it.
 */
export const endSessionForPublicPage = createAsyncThunk<void, void, { state: { session: SessionState } }>(
  'session/publicPage',
  async (_: void, { dispatch }) => {
    await revoke(dispatch);
    dispatch(sessionEnded('public-page'));
  },
  { condition: (_, { getState }) => selectToken(getState()) !== null },
);
