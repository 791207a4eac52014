import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { OtpPurpose } from '../../db/schema-accounts';

/**
 * SQL of the OTP codes (registration and the forgotten password). Every function takes the database or a transaction
 * first.
 */
type Db = Kysely<DB>;

/** True when a registration OTP for this phone was verified after `since` (a password reset's code does not count). */
export async function phoneVerifiedSince(db: Db, phone: string, since: string): Promise<boolean> {
  const row = await db
    .selectFrom('otp_requests')
    .select('id')
    .where('phone', '=', phone)
    .where('purpose', '=', 'register')
    .where('verified_at', 'is not', null)
    .where('verified_at', '>', since)
    .executeTakeFirst();
  return !!row;
}

/**
 * Takes the phone's lock row for the rest of the transaction (row lock on PostgreSQL, the write lock on
 * SQLite), so two processes cannot both pass the send limits for one phone.
 */
export async function lockPhone(db: Db, phone: string, now: string): Promise<void> {
  await db
    .insertInto('phone_locks')
    .values({ phone, touched_at: now })
    .onConflict((oc) => oc.column('phone').doUpdateSet({ touched_at: now }))
    .execute();
}

export async function sendsSince(db: Db, phone: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('otp_requests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('phone', '=', phone)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewOtp {
  phone: string; token_hash: string; ref: string; code_hash: string; created_at: string; expires_at: string;
  /** Absent: a registration's code. */
  purpose?: OtpPurpose;
}

export async function insertOtp(db: Db, otp: NewOtp): Promise<number> {
  const row = await db.insertInto('otp_requests').values({ ...otp, attempts: 0, verified_at: null }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function deleteOtp(db: Db, id: number): Promise<void> {
  await db.deleteFrom('otp_requests').where('id', '=', id).execute();
}

/** Only the newest code of a phone can be used: older unverified ones expire now. */
export async function expireOlderOtps(db: Db, phone: string, keepId: number, now: string): Promise<void> {
  await db
    .updateTable('otp_requests')
    .set({ expires_at: now })
    .where('phone', '=', phone)
    .where('id', '!=', keepId)
    .where('verified_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

export const findOtpByTokenHash = (db: Db, tokenHash: string) =>
  db
    .selectFrom('otp_requests')
    .select(['id', 'phone', 'code_hash', 'attempts', 'expires_at', 'verified_at', 'provider_token'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();

/** The OTP provider's token for the code it sent, and its reference when the SMS shows one (replacing ours). */
export async function setProviderToken(db: Db, id: number, providerToken: string, ref?: string): Promise<void> {
  await db.updateTable('otp_requests').set({ provider_token: providerToken, ...(ref ? { ref } : {}) }).where('id', '=', id).execute();
}

/** The provider accepted this code: verified now, and the code's HMAC stored so a double submit is answered here. */
export async function markVerifiedWithCode(db: Db, id: number, codeHash: string, now: string): Promise<void> {
  await db.updateTable('otp_requests').set({ verified_at: now, code_hash: codeHash }).where('id', '=', id).where('verified_at', 'is', null).execute();
}

/** Uses up one try, atomically; false when the tries were already used up. */
export async function takeTry(db: Db, id: number, maxTries: number): Promise<boolean> {
  const r = await db
    .updateTable('otp_requests')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxTries)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markVerified(db: Db, id: number, now: string): Promise<void> {
  await db.updateTable('otp_requests').set({ verified_at: now }).where('id', '=', id).where('verified_at', 'is', null).execute();
}

/** A forgotten password's code by its token (docs/accounts.md "Forgotten password"); a registration's is not one. */
export const findResetOtp = (db: Db, tokenHash: string) =>
  db
    .selectFrom('otp_requests')
    .select(['id', 'phone', 'ref', 'verified_at', 'used_at'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', 'reset')
    .executeTakeFirst();

/** Marks a verified reset code used; false when it already was (a double submit: one of them sets the password). */
export async function markResetUsed(db: Db, id: number, now: string): Promise<boolean> {
  const r = await db.updateTable('otp_requests').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
