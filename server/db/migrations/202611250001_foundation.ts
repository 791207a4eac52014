import type { Kysely } from 'kysely';
import { withId } from '../portable';

export async function up(db: Kysely<any>): Promise<void> {
  // Operator settings and lookup documents (info, notice, contact, conditions, ...), one JSON value per key.
  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('banks')
    .addColumn('code', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('name_th', 'varchar(128)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(128)', (c) => c.notNull())
    .addColumn('bank_type', 'varchar(16)', (c) => c.notNull().defaultTo('BANK')) // BANK | PAYMENT
    .addColumn('english_name_only', 'integer', (c) => c.notNull().defaultTo(0)) // KTB, TMB, BBL
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('sources')
    .addColumn('code', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('description', 'varchar(256)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // The operator's receiving channels listed by the deposit lookup.
  await withId(db, db.schema.createTable('deposit_channels'))
    .addColumn('kind', 'varchar(8)', (c) => c.notNull()) // bank | wallet
    .addColumn('bank_code', 'varchar(16)')
    .addColumn('mode', 'varchar(16)', (c) => c.notNull()) // AUTO | MANUAL | gift
    .addColumn('account_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('account_no', 'varchar(64)')
    .addColumn('currency', 'varchar(8)')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // The game catalogue; each row is one provider's game the player can open an account with.
  await db.schema
    .createTable('games')
    .addColumn('code', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('category', 'varchar(8)', (c) => c.notNull()) // slot | sport | lotto
    .addColumn('ft_wallet_slot', 'double precision', (c) => c.notNull().defaultTo(1))
    .addColumn('logo', 'varchar(256)', (c) => c.notNull())
    .addColumn('background', 'varchar(256)', (c) => c.notNull())
    .addColumn('has_web', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('android', 'varchar(256)')
    .addColumn('ios', 'varchar(256)')
    .addColumn('login_with_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('players'))
    .addColumn('phone', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(256)', (c) => c.notNull())
    .addColumn('bank_code', 'varchar(16)', (c) => c.notNull().references('banks.code'))
    .addColumn('bank_account_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('bank_account_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull().defaultTo('THB')) // THB | LAK
    .addColumn('source_code', 'varchar(32)')
    .addColumn('inviter_id', 'bigint', (c) => c.references('players.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active')) // active | inactive | gone
    .addColumn('coin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // One row per issued token (jti); logout and password change revoke them.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('sessions_player').on('sessions').column('player_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['sessions', 'players', 'games', 'deposit_channels', 'sources', 'banks', 'settings']) {
    await db.schema.dropTable(t).execute();
  }
}
