import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { StaffRole, StaffStatus } from '../../db/schema-staff';

/** SQL of the staff accounts and their sessions. Every function takes the database or a transaction first. */
type Db = Kysely<DB>;

export const findStaffByUsername = (db: Db, username: string) =>
  db.selectFrom('staff_users').select(['id', 'username', 'name', 'role', 'status', 'password_hash']).where('username', '=', username).executeTakeFirst();

export const findStaffById = (db: Db, id: number) =>
  db.selectFrom('staff_users').select(['id', 'username', 'name', 'role', 'status']).where('id', '=', id).executeTakeFirst();

export const listStaff = (db: Db) =>
  db.selectFrom('staff_users').select(['id', 'username', 'name', 'role', 'status', 'created_at']).orderBy('id').execute();

export async function countStaff(db: Db): Promise<number> {
  const row = await db.selectFrom('staff_users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewStaff { username: string; name: string; password_hash: string; role: StaffRole; now: string }

/** The one place a staff row is written (the operator command, the demo seed and test support all come here). */
export async function insertStaff(db: Db, s: NewStaff): Promise<number> {
  const { now, ...values } = s;
  const row = await db
    .insertInto('staff_users')
    .values({ ...values, status: 'active', totp_secret: null, created_at: now })
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
      'staff_users.username', 'staff_users.name', 'staff_users.role', 'staff_users.status',
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
