import type { Generated } from 'kysely';

/** Tables of the staff accounts of the /staff console (migration 202611260030_staff, docs/staff.md). */

export const STAFF_ROLES = ['support', 'payments', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type StaffStatus = 'active' | 'disabled';

/** One staff member. Usernames are stored lower-case; the password as server/lib/password.ts hashes it. */
export interface StaffUsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  password_hash: string;
  role: StaffRole;
  status: StaffStatus;
  /**
   * The second factor's secret (issue 14, server/lib/totp.ts), sealed with the game-secret key when one is
   * configured (server/plugins/staff/service.ts); null when the account has no second factor.
   */
  totp_secret: string | null;
  /** The last TOTP time-step accepted for this account (a code is usable once); null before the first. */
  totp_last_step: Generated<number | null>;
  /** When the current second factor was enrolled (migration 202612010400): failed codes before it do not count. */
  totp_enrolled_at: Generated<string | null>;
  /** Set when failed codes reached STAFF_TOTP_MAX_FAILURES in the window: no sign-in until `staff totp` resets it. */
  totp_locked_at: Generated<string | null>;
  /** 1 for the demo seed's accounts (migration 202612010300): they sign in only while DEMO is on. */
  demo: Generated<number>;
  created_at: string;
}

/** One staff token (its jti): the row is the source of truth, so logout and disable end a token before it expires. */
export interface StaffSessionsTable {
  id: string;
  staff_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/**
 * One staff action (migration 202611261700_staff_audit, docs/staff.md "Audit log"): append-only, triggers refuse
 * UPDATE and DELETE. Written by server/plugins/staff/audit.ts in the transaction of the action itself.
 */
export interface StaffAuditTable {
  id: Generated<number>;
  staff_id: number;
  /** login, login.failed, login.totp, login.totp.failed, login.totp.locked, logout, player.lookup, chat.reply, chat.close, review.approve, review.reject, payout.settle, payout.fail, player.status, ... */
  action: string;
  /** staff, review, payout, player, ... */
  subject_type: string;
  subject_id: string;
  reason: string | null;
  /** JSON text, or null. */
  detail: string | null;
  /** The HTTP request the action came with (X-Request-Id), null outside a request (operator commands). */
  request_id: string | null;
  created_at: string;
}

/** A login challenge (its jti) that signed in: a challenge opens one session only (docs/staff.md "Second factor"). */
export interface StaffLoginChallengesTable {
  id: string;
  staff_id: number;
  expires_at: string;
}

export interface StaffTables {
  staff_users: StaffUsersTable;
  staff_sessions: StaffSessionsTable;
  staff_login_challenges: StaffLoginChallengesTable;
  staff_audit: StaffAuditTable;
}
