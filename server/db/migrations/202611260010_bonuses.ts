import type { Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Issue 8: bonuses, promotion codes, the wagering engine's rounds and cursors, refunds (docs/bonus.md).
 * Money is bigint satang, percentages basis points, the turnover multiple hundredths. Budgets are ledger
 * accounts (bonus_budget:{code}, refund_budget), never columns here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bonus_definitions')
    .addColumn('code', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull()) // bonus | promotion
    .addColumn('type', 'varchar(8)', (c) => c.notNull()) // limit | day | week
    .addColumn('max_received', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('notice', 'text', (c) => c.notNull())
    .addColumn('banners', 'text', (c) => c.notNull())
    .addColumn('percent_bp', 'integer', (c) => c.notNull())
    .addColumn('cap', 'bigint', (c) => c.notNull())
    .addColumn('turnover_x100', 'integer', (c) => c.notNull())
    .addColumn('percent_fail_bp', 'integer', (c) => c.notNull())
    .addColumn('budget', 'bigint')
    .addColumn('valid_from', 'varchar(32)')
    .addColumn('valid_to', 'varchar(32)')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('user_bonuses'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().references('bonus_definitions.code'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // ACTIVE | SUCCESS | FAILED | CLEARED
    // One active bonus per player, enforced by the database as well as by the activation's checks.
    .addColumn('active_player_id', 'bigint', (c) => c.unique())
    // A promotion is received once per player.
    .addColumn('once_key', 'varchar(64)', (c) => c.unique())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('start_amount', 'bigint', (c) => c.notNull())
    .addColumn('target', 'bigint', (c) => c.notNull())
    .addColumn('percent_fail_bp', 'integer', (c) => c.notNull())
    .addColumn('fail_at', 'bigint', (c) => c.notNull())
    .addColumn('needs_check', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cleared_amount', 'bigint')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_bonuses_player').on('user_bonuses').columns(['player_id', 'code', 'created_at']).execute();
  await db.schema.createIndex('user_bonuses_status').on('user_bonuses').columns(['status', 'needs_check']).execute();

  await db.schema
    .createTable('bet_feed_cursors')
    .addColumn('game_code', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('cursor', 'varchar(128)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('refunds'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('net_loss', 'bigint', (c) => c.notNull())
    .addColumn('percent_bp', 'integer', (c) => c.notNull())
    .addColumn('bonus_failed', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refunds_player').on('refunds').columns(['player_id', 'id']).execute();

  await withId(db, db.schema.createTable('bet_rounds'))
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('round_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('player_id', 'bigint', (c) => c.references('players.id'))
    .addColumn('bet', 'bigint', (c) => c.notNull())
    .addColumn('win', 'bigint', (c) => c.notNull())
    .addColumn('played_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_bonus_id', 'bigint', (c) => c.references('user_bonuses.id'))
    .addColumn('refund_id', 'bigint', (c) => c.references('refunds.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('bet_rounds_round', ['game_code', 'round_id'])
    .execute();
  await db.schema.createIndex('bet_rounds_player_refund').on('bet_rounds').columns(['player_id', 'refund_id']).execute();
  await db.schema.createIndex('bet_rounds_user_bonus').on('bet_rounds').column('user_bonus_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['bet_rounds', 'refunds', 'bet_feed_cursors', 'user_bonuses', 'bonus_definitions']) {
    await db.schema.dropTable(t).execute();
  }
}
