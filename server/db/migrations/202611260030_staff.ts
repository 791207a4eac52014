import type { Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Issue 10: staff accounts (the /staff console) and their sessions, apart from players: a staff member is not a
 * player, has no wallet, and signs in with a token players' routes refuse. docs/staff.md.
 *
 * staff_users.totp_secret stays null until issue 14 adds the second factor; role and status are text so a
 * later issue adds values without a migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('staff_users'))
    .addColumn('username', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull()) // support | payments | admin
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // active | disabled
    .addColumn('totp_secret', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey()) // the token's jti (a uuid)
    .addColumn('staff_id', 'bigint', (c) => c.notNull().references('staff_users.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').columns(['staff_id', 'revoked_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_sessions').execute();
  await db.schema.dropTable('staff_users').execute();
}
