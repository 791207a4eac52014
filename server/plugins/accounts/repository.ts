import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** SQL of the accounts plugin. Every function takes the database or a transaction first. */
type Db = Kysely<DB>;

export const findBank = (db: Db, code: string) =>
  db.selectFrom('banks').select(['code', 'bank_type', 'english_name_only']).where('code', '=', code).executeTakeFirst();

export async function sourceExists(db: Db, code: string): Promise<boolean> {
  return !!(await db.selectFrom('sources').select('code').where('code', '=', code).executeTakeFirst());
}

export const findPlayerByPhone = (db: Db, phone: string) =>
  db.selectFrom('players').select(['id', 'password_hash', 'status']).where('phone', '=', phone).executeTakeFirst();

export const findPlayerById = (db: Db, id: number) =>
  db.selectFrom('players').select(['id', 'password_hash', 'status', 'bank_code']).where('id', '=', id).executeTakeFirst();

export async function playerExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('players').select('id').where('id', '=', id).executeTakeFirst());
}

export async function phoneTaken(db: Db, phone: string): Promise<boolean> {
  return !!(await db.selectFrom('players').select('id').where('phone', '=', phone).executeTakeFirst());
}

export async function bankAccountTaken(db: Db, bankAccountNo: string, exceptPlayerId?: number): Promise<boolean> {
  let q = db.selectFrom('players').select('id').where('bank_account_no', '=', bankAccountNo);
  if (exceptPlayerId !== undefined) q = q.where('id', '!=', exceptPlayerId);
  return !!(await q.executeTakeFirst());
}

export interface NewPlayer {
  phone: string; name: string; password_hash: string; bank_code: string; bank_account_name: string;
  bank_account_no: string; currency: 'THB' | 'LAK'; source_code: string | null; inviter_id: number | null; now: string;
}

/** The one place a player row is written (registration, the demo seed and test support all come here). */
export async function insertPlayer(db: Db, p: NewPlayer): Promise<number> {
  const { now, ...values } = p;
  const row = await db
    .insertInto('players')
    .values({ ...values, status: 'active', coin: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateProfile(
  db: Db, id: number, p: { name: string; bank_code: string; bank_account_name: string; bank_account_no: string; now: string },
): Promise<void> {
  const { now, ...values } = p;
  await db.updateTable('players').set({ ...values, updated_at: now }).where('id', '=', id).execute();
}

export async function updateBankAccountName(db: Db, id: number, name: string, now: string): Promise<void> {
  await db.updateTable('players').set({ bank_account_name: name, updated_at: now }).where('id', '=', id).execute();
}

export async function updatePasswordHash(db: Db, id: number, hash: string, now: string): Promise<void> {
  await db.updateTable('players').set({ password_hash: hash, updated_at: now }).where('id', '=', id).execute();
}

export const profileRow = (db: Db, id: number) =>
  db
    .selectFrom('players')
    .innerJoin('banks', 'banks.code', 'players.bank_code')
    .select([
      'players.id', 'players.phone', 'players.name', 'players.created_at', 'players.bank_code', 'players.bank_account_name',
      'players.bank_account_no', 'players.currency', 'banks.name_th', 'banks.name_en',
    ])
    .where('players.id', '=', id)
    .executeTakeFirst();

// Login throttling: failures are rows keyed on the phone as typed, so the limit holds across processes.

export async function loginLockedUntil(db: Db, phone: string, now: string): Promise<string | null> {
  const row = await db.selectFrom('login_locks').select('locked_until').where('phone', '=', phone).where('locked_until', '>', now).executeTakeFirst();
  return row?.locked_until ?? null;
}

/** Records a failure and answers how many the phone has had since `since` (this one included). */
export async function addLoginFailure(db: Db, phone: string, now: string, since: string): Promise<number> {
  // Old rows of this phone no longer count for anything.
  await db.deleteFrom('login_failures').where('phone', '=', phone).where('created_at', '<=', since).execute();
  await db.insertInto('login_failures').values({ phone, created_at: now }).execute();
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('phone', '=', phone)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function lockLogin(db: Db, phone: string, until: string): Promise<void> {
  await db
    .insertInto('login_locks')
    .values({ phone, locked_until: until })
    .onConflict((oc) => oc.column('phone').doUpdateSet({ locked_until: until }))
    .execute();
  // The lock replaces the failures that caused it: once it lifts the phone starts afresh.
  await db.deleteFrom('login_failures').where('phone', '=', phone).execute();
}

export async function clearLoginFailures(db: Db, phone: string): Promise<void> {
  await db.deleteFrom('login_failures').where('phone', '=', phone).execute();
  await db.deleteFrom('login_locks').where('phone', '=', phone).execute();
}

/** Which unique column a failed insert or update hit, on SQLite or PostgreSQL; null when it was something else. */
export function uniqueViolation(err: unknown): 'phone' | 'bank_account_no' | null {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  const sqlite = e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  const pg = e.code === '23505';
  if (!sqlite && !pg) return null;
  const text = `${e.constraint ?? ''} ${e.detail ?? ''} ${e.message ?? ''}`;
  if (/bank_account_no/.test(text)) return 'bank_account_no';
  if (/phone/.test(text)) return 'phone';
  return null;
}
