import type { ColumnType, Generated } from 'kysely';

/** Tables of the accounts, OTP and SMS work (migrations 202611250002_accounts, 202611260001_guess_counters, 202612010500_bank_guard_recovery). */

/** One OTP sent to a phone. Only hashes of the bearer token and of the code are kept. */
export interface OtpRequestsTable {
  id: Generated<number>;
  phone: string;
  token_hash: string;
  ref: string;
  code_hash: string;
  /** Verification attempts so far (wrong and right); at the limit the OTP is blocked. */
  attempts: number;
  created_at: string;
  expires_at: string;
  verified_at: string | null;
  /** What the code is for (migration 202612010500): a registration's phone or a forgotten password's reset. */
  purpose: Generated<OtpPurpose>;
  /** When a verified reset code set a new password; a code sets one once. */
  used_at: string | null;
  /** The OTP provider's token for this code (migration 202612020400, SMS_PROVIDER=thaibulksms); null: our own code. */
  provider_token: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OtpPurpose = 'register' | 'reset';

/** One row per phone, touched inside a transaction to serialise OTP sends for that phone across processes. */
export interface PhoneLocksTable { phone: string; touched_at: string }

/**
 * What a guess counter guards: a login (subject: the phone as typed), a password change (subject: the player id)
 * a staff login (subject: the staff username as typed, lower-cased; docs/staff.md) or a staff login's second
 * factor (subject: the staff id; docs/staff.md "Second factor").
 */
export type GuessScope = 'login' | 'changepwd' | 'staff-login' | 'staff-totp';

/**
 * One row per guarded subject. Reservations upsert it first, which serialises them for that subject on both
 * engines; locked_until (when set and later than now) refuses every try, the right secret included.
 */
export interface GuessCountersTable { scope: GuessScope; subject: string; locked_until: string | null; touched_at: string }

/** One reserved try at a secret, counted before the check ran; a wrong guess stays as the failure. */
export interface GuessAttemptsTable { id: Generated<number>; scope: GuessScope; subject: string; created_at: string }

/** Every SMS the simulator "sent" (the demo page and the tests read the OTP here). */
export interface SmsOutboxTable { id: Generated<number>; phone: string; text: string; created_at: string }

export type AccountAuditAction = 'BANK_CHANGED' | 'PASSWORD_RESET';

/** The player's own account changes (docs/accounts.md "Audit"), append-only: written in the change's transaction. */
export interface AccountAuditTable {
  id: Generated<number>;
  player_id: number;
  action: AccountAuditAction;
  /** JSON object: what changed (bank codes and the last 4 digits of the numbers; sessions ended). */
  detail: string;
  request_id: string | null;
  created_at: string;
}

export interface AccountsTables {
  otp_requests: OtpRequestsTable;
  phone_locks: PhoneLocksTable;
  guess_counters: GuessCountersTable;
  guess_attempts: GuessAttemptsTable;
  sms_outbox: SmsOutboxTable;
  account_audit: AccountAuditTable;
}
