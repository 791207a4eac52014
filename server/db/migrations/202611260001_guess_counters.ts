import { sql, type Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Limits on guessing a secret (docs/accounts.md "Guess limits"): every check of a login password or of the
 * old password of a password change is reserved here, atomically, before the slow check runs, so no more
 * than the limit can ever be checked however the requests are timed (issue 11).
 *
 * guess_counters: one row per (scope, subject), e.g. ('login', the phone as typed) or ('changepwd', the
 * player id). Reservations upsert it first, which serialises them (row lock to commit on PostgreSQL, the
 * write lock on SQLite); it also holds the lock time. guess_attempts: one row per reserved try, counted
 * over the sliding window. They replace login_failures and login_locks, whose rows are carried over.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('guess_counters')
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'varchar(64)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('touched_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('guess_counters_pk', ['scope', 'subject'])
    .execute();

  await withId(db, db.schema.createTable('guess_attempts'))
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('guess_attempts_subject_created').on('guess_attempts').columns(['scope', 'subject', 'created_at']).execute();

  // Locks and failures in force when the server is upgraded keep holding.
  await sql`insert into guess_counters (scope, subject, locked_until, touched_at)
    select 'login', phone, locked_until, locked_until from login_locks`.execute(db);
  await sql`insert into guess_attempts (scope, subject, created_at)
    select 'login', phone, created_at from login_failures`.execute(db);
  await db.schema.dropTable('login_failures').execute();
  await db.schema.dropTable('login_locks').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('login_failures'))
    .addColumn('phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_phone_created').on('login_failures').columns(['phone', 'created_at']).execute();
  await db.schema
    .createTable('login_locks')
    .addColumn('phone', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('locked_until', 'varchar(32)', (c) => c.notNull())
    .execute();
  await sql`insert into login_locks (phone, locked_until)
    select subject, locked_until from guess_counters where scope = 'login' and locked_until is not null`.execute(db);
  await sql`insert into login_failures (phone, created_at)
    select subject, created_at from guess_attempts where scope = 'login'`.execute(db);
  await db.schema.dropTable('guess_attempts').execute();
  await db.schema.dropTable('guess_counters').execute();
}
