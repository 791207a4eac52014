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
  /** The second factor's secret; null until issue 14 adds TOTP. */
  totp_secret: string | null;
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

export interface StaffTables {
  staff_users: StaffUsersTable;
  staff_sessions: StaffSessionsTable;
}
