import { sql, type Kysely } from 'kysely';
import { isPostgres, withId } from '../portable';

/**
 * Issue 14, the back office (docs/staff.md "Audit log", "Second factor"):
 * - staff_audit: one row per staff action (login, logout, review and payout decisions, player status), written in
 *   the transaction of the action itself (server/plugins/staff/audit.ts). Append-only: triggers on both engines
 *   refuse UPDATE and DELETE, so a row once written stays as written (PostgreSQL also refuses TRUNCATE).
 * - staff_users.totp_last_step: the last TOTP time-step accepted for the account, so a code is usable once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('staff_audit'))
    .addColumn('staff_id', 'bigint', (c) => c.notNull().references('staff_users.id'))
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('detail', 'text') // JSON
    .addColumn('request_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_audit_subject').on('staff_audit').columns(['subject_type', 'subject_id']).execute();
  await db.schema.createIndex('staff_audit_staff').on('staff_audit').columns(['staff_id']).execute();

  if (isPostgres(db)) {
    // Created in the current schema (search_path), like the tables: each schema has its own.
    await sql`CREATE FUNCTION staff_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'staff_audit is append-only' USING ERRCODE = 'restrict_violation'; END $$`.execute(db);
    await sql`CREATE TRIGGER staff_audit_no_change BEFORE UPDATE OR DELETE ON staff_audit
      FOR EACH ROW EXECUTE FUNCTION staff_audit_append_only()`.execute(db);
    await sql`CREATE TRIGGER staff_audit_no_truncate BEFORE TRUNCATE ON staff_audit
      FOR EACH STATEMENT EXECUTE FUNCTION staff_audit_append_only()`.execute(db);
  } else {
    await sql`CREATE TRIGGER staff_audit_no_update BEFORE UPDATE ON staff_audit
      BEGIN SELECT RAISE(ABORT, 'staff_audit is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER staff_audit_no_delete BEFORE DELETE ON staff_audit
      BEGIN SELECT RAISE(ABORT, 'staff_audit is append-only'); END`.execute(db);
  }

  await db.schema.alterTable('staff_users').addColumn('totp_last_step', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staff_users').dropColumn('totp_last_step').execute();
  await db.schema.dropTable('staff_audit').execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS staff_audit_append_only()`.execute(db);
}
