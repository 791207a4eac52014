import type { Kysely } from 'kysely';
import { withId } from '../portable';

export async function up(db: Kysely<any>): Promise<void> {
  // OTPs sent for registration. token_hash: sha256 of the bearer otpToken; code_hash: HMAC of the code.
  await withId(db, db.schema.createTable('otp_requests'))
    .addColumn('phone', 'varchar(16)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('ref', 'varchar(8)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('verified_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('otp_requests_phone_created').on('otp_requests').columns(['phone', 'created_at']).execute();

  // A row per phone that OTP sends lock (upsert) so that the send limits hold across server processes.
  await db.schema
    .createTable('phone_locks')
    .addColumn('phone', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('touched_at', 'varchar(32)', (c) => c.notNull())
    .execute();

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

  await withId(db, db.schema.createTable('sms_outbox'))
    .addColumn('phone', 'varchar(16)', (c) => c.notNull())
    .addColumn('text', 'varchar(1024)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_outbox_phone').on('sms_outbox').columns(['phone', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['sms_outbox', 'login_locks', 'login_failures', 'phone_locks', 'otp_requests']) {
    await db.schema.dropTable(t).execute();
  }
}
