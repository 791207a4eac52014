import { sql, type Kysely } from 'kysely';
import { isPostgres, withId } from '../portable';

/**
 * Issue 39 row 6 (bank details are guarded) and issue 40 item 4 (a way back into a forgotten password),
 * docs/accounts.md "Bank details" and "Forgotten password":
 * - players.bank_hold_until: withdrawals wait until then after a change of the bank or the account number (the
 *   hold is fixed when the change is made, from BANK_CHANGE_COOLDOWN_SECONDS); null: no hold.
 * - otp_requests.purpose: 'register' (the registration's codes, as before) or 'reset' (a forgotten password's), so a
 *   code sent for one is never taken for the other; used_at: when a verified reset code set a new password (once).
 * - account_audit: the player's own account changes (a bank change, a password reset), written in the transaction
 *   of the change. Append-only like staff_audit: UPDATE and DELETE are refused on both engines (TRUNCATE on
 *   PostgreSQL), and on SQLite an insert reusing an existing id (INSERT OR REPLACE) is refused too, since REPLACE
 *   deletes the old row without firing a delete trigger.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('players').addColumn('bank_hold_until', 'varchar(32)').execute();
  await db.schema.alterTable('otp_requests').addColumn('purpose', 'varchar(16)', (c) => c.notNull().defaultTo('register')).execute();
  await db.schema.alterTable('otp_requests').addColumn('used_at', 'varchar(32)').execute();

  await withId(db, db.schema.createTable('account_audit'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull()) // JSON
    .addColumn('request_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_audit_player').on('account_audit').columns(['player_id', 'id']).execute();

  if (isPostgres(db)) {
    await sql`CREATE FUNCTION account_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'account_audit is append-only' USING ERRCODE = 'restrict_violation'; END $$`.execute(db);
    await sql`CREATE TRIGGER account_audit_no_change BEFORE UPDATE OR DELETE ON account_audit
      FOR EACH ROW EXECUTE FUNCTION account_audit_append_only()`.execute(db);
    await sql`CREATE TRIGGER account_audit_no_truncate BEFORE TRUNCATE ON account_audit
      FOR EACH STATEMENT EXECUTE FUNCTION account_audit_append_only()`.execute(db);
  } else {
    await sql`CREATE TRIGGER account_audit_no_update BEFORE UPDATE ON account_audit
      BEGIN SELECT RAISE(ABORT, 'account_audit is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER account_audit_no_delete BEFORE DELETE ON account_audit
      BEGIN SELECT RAISE(ABORT, 'account_audit is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER account_audit_no_replace BEFORE INSERT ON account_audit
      WHEN EXISTS (SELECT 1 FROM account_audit WHERE id = NEW.id)
      BEGIN SELECT RAISE(ABORT, 'account_audit is append-only'); END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_audit').execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS account_audit_append_only()`.execute(db);
  await db.schema.alterTable('otp_requests').dropColumn('used_at').execute();
  await db.schema.alterTable('otp_requests').dropColumn('purpose').execute();
  await db.schema.alterTable('players').dropColumn('bank_hold_until').execute();
}
