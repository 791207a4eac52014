import { AppError, gone, unauthorized } from '../errors';

/** A session as read with its player: what refuses an authenticated request (assertSessionOpen). */
export interface SessionState {
  revoked_at: string | null;
  expires_at: string;
  /** The player's status. */
  status: string;
}

/**
 * 401 invalid-token (no such session, or revoked), 401 EXPIRED_AUTH_TOKEN, 410 for a deleted player, 401
 * INACTIVE_USER: the checks of every authenticated request, wherever the session was read.
 */
export function assertSessionOpen(s: SessionState | undefined): void {
  if (!s || s.revoked_at) throw unauthorized('invalid-token');
  if (s.expires_at <= new Date().toISOString()) throw unauthorized('EXPIRED_AUTH_TOKEN');
  if (s.status === 'gone') throw gone();
  if (s.status !== 'active') throw new AppError(401, 'INACTIVE_USER');
}
