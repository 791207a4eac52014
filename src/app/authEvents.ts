import { createAction } from '@reduxjs/toolkit';

/**
 * The session ended: the player logged out, the server refused the token (spec §8), or a public page was
 * visited while holding a token (spec §4). Defined here, not in the session feature, so the base API and the
 * router can announce it without importing the feature; the session slice reacts to it.
 */
export type SessionEndReason = 'logout' | 'rejected' | 'public-page';
export const sessionEnded = createAction<SessionEndReason>('session/ended');
