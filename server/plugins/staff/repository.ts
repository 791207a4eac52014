import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { isPostgres } from '../../db/portable';
import type { StaffRole, StaffStatus } from '../../db/schema-staff';

/** SQL of the staff accounts and their sessions. Every function takes the database or a transaction first. */
type Db = Kysely<DB>;

export const findStaffByUsername = (db: Db, username: string) =>
  db.selectFrom('staff_users').select(['id', 'username', 'name', 'role', 'status', 'password_hash', 'totp_secret', 'totp_locked_at', 'demo']).where('username', '=', username).executeTakeFirst();

/** What the login's second step needs: the account's state and its (sealed) TOTP secret. */
export const findStaffForTotp = (db: Db, id: number) =>
  db.selectFrom('staff_users').select(['id', 'username', 'name', 'role', 'status', 'totp_secret', 'totp_enrolled_at', 'totp_locked_at', 'demo']).where('id', '=', id).executeTakeFirst();

export const findStaffById = (db: Db, id: number) =>
  db.selectFrom('staff_users').select(['id', 'username', 'name', 'role', 'status']).where('id', '=', id).executeTakeFirst();

export const listStaff = (db: Db) =>
  db.selectFrom('staff_users').select(['id', 'username', 'name', 'role', 'status', 'totp_locked_at', 'created_at']).orderBy('id').execute();

export async function countStaff(db: Db): Promise<number> {
  const row = await db.selectFrom('staff_users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewStaff { username: string; name: string; password_hash: string; role: StaffRole; now: string; /** Sealed (./totp.ts). */ totp_secret?: string | null }

/** The one place a staff row is written (the operator command, the demo seed and test support all come here). */
export async function insertStaff(db: Db, s: NewStaff): Promise<number> {
  const { now, totp_secret = null, ...values } = s;
  const row = await db
    .insertInto('staff_users')
    .values({ ...values, status: 'active', totp_secret, totp_enrolled_at: totp_secret === null ? null : now, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Sets the status; false when no staff has that username. */
export async function setStaffStatus(db: Db, username: string, status: StaffStatus): Promise<number | null> {
  const row = await db.updateTable('staff_users').set({ status }).where('username', '=', username).returning('id').executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** True when a failed insert hit the unique username (SQLite or PostgreSQL). */
export function isDuplicateUsername(err: unknown): boolean {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  const unique = e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === '23505';
  return unique && /username/.test(`${e.constraint ?? ''} ${e.detail ?? ''} ${e.message ?? ''}`);
}

/**
 * Enrols (or replaces) the account's second factor: the last accepted step is forgotten, a lock of failed codes is
 * lifted and the failures before `now` no longer count. Null: no such username.
 */
export async function setTotpSecret(db: Db, username: string, sealed: string, now: string): Promise<number | null> {
  const row = await db
    .updateTable('staff_users')
    .set({ totp_secret: sealed, totp_last_step: null, totp_enrolled_at: now, totp_locked_at: null })
    .where('username', '=', username)
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * Takes a TOTP time-step as used: true only when it is later than the last accepted one, so each code (and any
 * earlier one) works once, even for two requests at the same time (one conditional UPDATE). An account disabled
 * or locked meanwhile takes none.
 */
export async function acceptTotpStep(db: Db, staffId: number, step: number): Promise<boolean> {
  const r = await db
    .updateTable('staff_users')
    .set({ totp_last_step: step })
    .where('id', '=', staffId)
    .where('status', '=', 'active')
    .where('totp_locked_at', 'is', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Row lock on the staff member for the rest of the transaction (PostgreSQL; SQLite's one writer serializes already). */
export async function lockStaff(trx: Db, staffId: number): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom('staff_users').select('id').where('id', '=', staffId).forUpdate().execute();
}

/** Failed TOTP codes of the account written to the audit log after `since` (the lockout's window). */
export async function countTotpFailures(db: Db, staffId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('staff_audit')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('staff_id', '=', staffId)
    .where('action', '=', 'login.totp.failed')
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Locks the second factor (until `staff totp`); false when it was locked already. */
export async function lockTotp(db: Db, staffId: number, now: string): Promise<boolean> {
  const r = await db.updateTable('staff_users').set({ totp_locked_at: now }).where('id', '=', staffId).where('totp_locked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** True when this challenge (its jti) has signed in already. */
export async function challengeUsed(db: Db, jti: string): Promise<boolean> {
  return (await db.selectFrom('staff_login_challenges').select('id').where('id', '=', jti).executeTakeFirst()) !== undefined;
}

/**
 * Takes a challenge for the sign-in it is used for: false when another sign-in took it (the row's key; on
 * PostgreSQL a parallel insert waits for the first to commit). Challenges past their expiry are dropped here, as
 * an expired one is refused by its signature check anyway.
 */
export async function takeChallenge(db: Db, c: { id: string; staff_id: number; expires_at: string }, now: string): Promise<boolean> {
  await db.deleteFrom('staff_login_challenges').where('expires_at', '<', now).execute();
  const row = await db.insertInto('staff_login_challenges').values(c).onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
  return row !== undefined;
}

// ---- audit log -------------------------------------------------------------------------------------

/** GET /api/staff/audit: newest first, below `before` when given, with who did it. */
export const listAudit = (db: Db, limit: number, before: number | null) => {
  let q = db
    .selectFrom('staff_audit as a')
    .innerJoin('staff_users as s', 's.id', 'a.staff_id')
    .select(['a.id', 'a.staff_id', 's.username', 's.name', 'a.action', 'a.subject_type', 'a.subject_id', 'a.reason', 'a.detail', 'a.created_at'])
    .orderBy('a.id', 'desc')
    .limit(limit);
  if (before !== null) q = q.where('a.id', '<', before);
  return q.execute();
};

// ---- sessions -------------------------------------------------------------------------------------

export async function insertSession(db: Db, s: { id: string; staff_id: number; created_at: string; expires_at: string }): Promise<void> {
  await db.insertInto('staff_sessions').values({ ...s, revoked_at: null }).execute();
}

/** The session behind a token with its staff member's current state, or undefined. */
export const sessionWithStaff = (db: Db, sessionId: string) =>
  db
    .selectFrom('staff_sessions')
    .innerJoin('staff_users', 'staff_users.id', 'staff_sessions.staff_id')
    .select([
      'staff_sessions.staff_id', 'staff_sessions.expires_at', 'staff_sessions.revoked_at',
      'staff_users.username', 'staff_users.name', 'staff_users.role', 'staff_users.status', 'staff_users.totp_locked_at',
    ])
    .where('staff_sessions.id', '=', sessionId)
    .executeTakeFirst();

export async function revokeSession(db: Db, sessionId: string, now: string): Promise<void> {
  await db.updateTable('staff_sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Ends every live session of a staff member; returns how many. */
export async function revokeAllSessions(db: Db, staffId: number, now: string): Promise<number> {
  const r = await db.updateTable('staff_sessions').set({ revoked_at: now }).where('staff_id', '=', staffId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
