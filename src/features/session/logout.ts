import { createAsyncThunk } from '@reduxjs/toolkit';

import { sessionEnded } from '../../app/authEvents';
import { navigateTo } from '../../app/navigation';
import { sessionApi } from './sessionApi';

/**
 * Log out: ask the server to revoke the token, then forget it and go to /login even when the call fails
 * (offline, token already refused): the player asked to leave, so the device must not stay logged in.
 */
export const logout = createAsyncThunk('session/logout', async (_: void, { dispatch }) => {
  try {
    await dispatch(sessionApi.endpoints.logout.initiate()).unwrap();
  } catch {
    // The local session ends anyway.
  }
  dispatch(sessionEnded('logout'));
  navigateTo('/login', { replace: true });
});
