import type { Generated } from 'kysely';

/** Tables of the accounts, OTP and SMS work (migration 202611250002_accounts). */

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
}

/** One row per phone, touched inside a transaction to serialise OTP sends for that phone across processes. */
export interface PhoneLocksTable { phone: string; touched_at: string }

/** A failed login for a phone (whether or not a player has that phone). */
export interface LoginFailuresTable { id: Generated<number>; phone: string; created_at: string }

/** A phone whose logins are refused until locked_until. */
export interface LoginLocksTable { phone: string; locked_until: string }

/** Every SMS the simulator "sent" (the demo page and the tests read the OTP here). */
export interface SmsOutboxTable { id: Generated<number>; phone: string; text: string; created_at: string }

export interface AccountsTables {
  otp_requests: OtpRequestsTable;
  phone_locks: PhoneLocksTable;
  login_failures: LoginFailuresTable;
  login_locks: LoginLocksTable;
  sms_outbox: SmsOutboxTable;
}
