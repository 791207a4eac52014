import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../portable';

/**
 * Issue 39 row 12 and its lower items (docs/staff.md "Second factor", "Audit log"):
 * - staff_users.totp_enrolled_at: when the current second factor was enrolled (`staff totp`, `staff add`); failed
 *   codes before it no longer count toward the lockout. Null for secrets enrolled before this migration.
 * - staff_users.totp_locked_at: set when the failed codes of the window reach the limit; the account signs in no
 *   more until `staff totp <username>` gives it a new secret (which clears it).
 * - staff_login_challenges: the challenges (their jti) that signed in, so a challenge works for one sign-in only.
 * - staff_audit stays append-only against REPLACE too: SQLite's `INSERT OR REPLACE` deletes the old row without
 *   firing the DELETE trigger (recursive_triggers is off), so an insert of an id that exists is refused here. On
 *   PostgreSQL UPDATE, DELETE and TRUNCATE are revoked from everyone, the owner included: a role that owns the
 *   table can grant them back or drop the triggers, so production runs the server as a role that does not own
 *   it (docs/operations.md "Database roles").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staff_users').addColumn('totp_enrolled_at', 'varchar(32)').execute();
  await db.schema.alterTable('staff_users').addColumn('totp_locked_at', 'varchar(32)').execute();

  await db.schema
    .createTable('staff_login_challenges')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('staff_id', 'bigint', (c) => c.notNull().references('staff_users.id'))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_login_challenges_expires').on('staff_login_challenges').column('expires_at').execute();

  if (isPostgres(db)) {
    await sql`REVOKE UPDATE, DELETE, TRUNCATE ON staff_audit FROM PUBLIC`.execute(db);
    await sql`REVOKE UPDATE, DELETE, TRUNCATE ON staff_audit FROM CURRENT_USER`.execute(db);
  } else {
    await sql`CREATE TRIGGER staff_audit_no_replace BEFORE INSERT ON staff_audit
      WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM staff_audit WHERE id = NEW.id)
      BEGIN SELECT RAISE(ABORT, 'staff_audit is append-only'); END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`GRANT UPDATE, DELETE, TRUNCATE ON staff_audit TO CURRENT_USER`.execute(db);
  else await sql`DROP TRIGGER IF EXISTS staff_audit_no_replace`.execute(db);
  await db.schema.dropTable('staff_login_challenges').execute();
  await db.schema.alterTable('staff_users').dropColumn('totp_locked_at').execute();
  await db.schema.alterTable('staff_users').dropColumn('totp_enrolled_at').execute();
}
