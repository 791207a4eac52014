import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { AccountAuditAction, GuessScope } from '../../db/schema-accounts';

/** SQL of the accounts plugin. Every function takes the database or a transaction first. */
type Db = Kysely<DB>;

export const findBank = (db: Db, code: string) =>
  db.selectFrom('banks').select(['code', 'bank_type', 'english_name_only']).where('code', '=', code).executeTakeFirst();

export async function sourceExists(db: Db, code: string): Promise<boolean> {
  return !!(await db.selectFrom('sources').select('code').where('code', '=', code).executeTakeFirst());
}

export const findPlayerByPhone = (db: Db, phone: string) =>
  db.selectFrom('players').select(['id', 'password_hash', 'status', 'demo']).where('phone', '=', phone).executeTakeFirst();

export const findPlayerById = (db: Db, id: number) =>
  db
    .selectFrom('players')
    .select(['id', 'phone', 'password_hash', 'status', 'bank_code', 'bank_account_no'])
    .where('id', '=', id)
    .executeTakeFirst();

/** A player who can invite: exists and is active (a gone or inactive account is closed). */
export async function openPlayerExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('players').select('id').where('id', '=', id).where('status', '=', 'active').executeTakeFirst());
}

export async function phoneTaken(db: Db, phone: string): Promise<boolean> {
  return !!(await db.selectFrom('players').select('id').where('phone', '=', phone).executeTakeFirst());
}

export async function bankAccountTaken(db: Db, bankAccountNo: string, exceptPlayerId?: number): Promise<boolean> {
  let q = db.selectFrom('players').select('id').where('bank_account_no', '=', bankAccountNo);
  if (exceptPlayerId !== undefined) q = q.where('id', '!=', exceptPlayerId);
  return !!(await q.executeTakeFirst());
}

export async function updateProfile(
  db: Db,
  id: number,
  p: { name: string; bank_code: string; bank_account_name: string; bank_account_no: string; now: string; bank_hold_until?: string },
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
      'players.bank_account_no', 'players.currency', 'players.bank_hold_until', 'banks.name_th', 'banks.name_en',
    ])
    .where('players.id', '=', id)
    .executeTakeFirst();

/** One row of the player's own audit trail (docs/accounts.md "Audit"), in the transaction of the change it records. */
export async function insertAccountAudit(
  db: Db,
  a: { playerId: number; action: AccountAuditAction; detail: Record<string, unknown>; requestId?: string; now: string },
): Promise<void> {
  await db
    .insertInto('account_audit')
    .values({ player_id: a.playerId, action: a.action, detail: JSON.stringify(a.detail), request_id: a.requestId ?? null, created_at: a.now })
    .execute();
}

// Guess limits (docs/accounts.md "Guess limits"): every check of a guessable secret is reserved here first.

export interface GuessTimes {
  now: string;
  /** Tries at or before this no longer count (now minus the window). */
  since: string;
  /** When the try that reaches the limit locks the subject until. */
  lockUntil: string;
}

/**
 * Reserves one try at a guessable secret for (scope, subject) before the check runs. False when the limit is
 * used up (the subject is locked, or `max` tries were already reserved within the window): then nothing is
 * written and the secret must not be checked. The try that reaches `max` locks the subject until
 * `lockUntil` and replaces the tries that caused it, so once the lock lifts the subject starts afresh.
 *
 * Atomic on both engines, however requests are timed: the upsert of the subject's counter row comes first
 * and serialises reservations for it (on PostgreSQL a row lock held to commit, so the count below sees every
 * earlier reservation; on SQLite the write lock, and Kysely's single connection runs one transaction at a
 * time). Pass the database, not a transaction: it runs its own, so the reservation is committed (and seen by
 * every other request and process) before the caller's slow check starts.
 */
export async function reserveGuess(db: Db, scope: GuessScope, subject: string, at: GuessTimes, max: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const counter = await trx
      .insertInto('guess_counters')
      .values({ scope, subject, locked_until: null, touched_at: at.now })
      .onConflict((oc) => oc.columns(['scope', 'subject']).doUpdateSet({ touched_at: at.now }))
      .returning('locked_until')
      .executeTakeFirstOrThrow();
    if (counter.locked_until !== null && counter.locked_until > at.now) return false;

    const mine = trx.deleteFrom('guess_attempts').where('scope', '=', scope).where('subject', '=', subject);
    // Tries out of the window no longer count for anything.
    await mine.where('created_at', '<=', at.since).execute();
    const row = await trx
      .selectFrom('guess_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scope', '=', scope)
      .where('subject', '=', subject)
      .where('created_at', '>', at.since)
      .executeTakeFirstOrThrow();
    const taken = Number(row.n);
    if (taken >= max) return false;

    if (taken + 1 < max) {
      await trx.insertInto('guess_attempts').values({ scope, subject, created_at: at.now }).execute();
    } else {
      // This try is the last the limit allows: it is checked, and everything after it waits for the lock.
      await trx.updateTable('guess_counters').set({ locked_until: at.lockUntil }).where('scope', '=', scope).where('subject', '=', subject).execute();
      await mine.execute();
    }
    return true;
  });
}

/** The right secret was given: the subject's tries and any lock are forgotten. Runs in the caller's transaction. */
export async function clearGuesses(db: Db, scope: GuessScope, subject: string): Promise<void> {
  // The counter row first: on PostgreSQL this waits for a reservation in progress, so it is cleared too.
  await db.deleteFrom('guess_counters').where('scope', '=', scope).where('subject', '=', subject).execute();
  await db.deleteFrom('guess_attempts').where('scope', '=', scope).where('subject', '=', subject).execute();
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
