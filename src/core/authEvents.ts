import { createAction } from '@reduxjs/toolkit';

/**
 * The session ended: the player logged out, the server refused the token (spec §8), or a public page was
 * visited while holding a token (spec §4). Defined here, not in the session feature, so the base API and the
 * router can announce it without importing the feature; the session slice reacts to it.
 */
export type SessionEndReason = 'logout' | 'rejected' | 'public-page';
export const sessionEnded = createAction<SessionEndReason>('session/ended');

/**
 * The server issued a fresh token for the current session (a password change revokes every earlier token and
 * answers a new one, docs/accounts.md). Announced by the feature that made the call; the session slice keeps
 * the new token where the old one was (remember-me unchanged).
 */
export const tokenReplaced = createAction<string>('session/tokenReplaced');

/**
 * A call was refused with SESSION_LIMIT: the session is older than the player's own session limit (issue 15).
 * The user layout then shows a dialog whose only action is logging out (features/limits/SessionLimitDialog).
 */
export const sessionLimitReached = createAction('session/limitReached');
