import type { Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Issue 15: responsible play (docs/responsible-play.md). The player's own limits (deposit and loss per day, week
 * and month, session minutes) with the raise or removal that waits 24 h; the reality-check interval; time-outs and
 * self-exclusions (never updated or deleted: each ends by its ends_at); the append-only audit trail the player reads;
 * deposits that arrived beyond a limit and are held for staff; and when the player confirmed their age.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('play_limits')
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    // deposit_day | deposit_week | deposit_month | loss_day | loss_week | loss_month | session
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'bigint') // satang (minutes for session); null: no limit
    .addColumn('pending_set', 'integer', (c) => c.notNull().defaultTo(0)) // 1: pending_value takes over at pending_at
    .addColumn('pending_value', 'bigint') // null with pending_set 1: the limit is removed at pending_at
    .addColumn('pending_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('play_limits_pk', ['player_id', 'kind'])
    .execute();

  await db.schema
    .createTable('play_settings')
    .addColumn('player_id', 'bigint', (c) => c.primaryKey().references('players.id'))
    .addColumn('reality_minutes', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('play_restrictions'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull()) // TIMEOUT | EXCLUSION
    .addColumn('period', 'varchar(8)', (c) => c.notNull()) // 24h | 7d | 30d | 6m | 1y | 5y
    .addColumn('starts_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ends_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('play_restrictions_player').on('play_restrictions').columns(['player_id', 'ends_at']).execute();

  await withId(db, db.schema.createTable('play_audit'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull()) // JSON
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('play_audit_player').on('play_audit').columns(['player_id', 'id']).execute();

  await db.schema
    .createTable('deposit_holds')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey()) // 'hld_' + 128 random bits, hex
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('source', 'varchar(8)', (c) => c.notNull()) // qr | slip | gift
    .addColumn('ref_id', 'varchar(128)', (c) => c.notNull().unique()) // the qr, slip or gift id: held once
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull()) // DEPOSIT_LIMIT
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // HELD (issue 14 adds APPROVED | REJECTED)
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deposit_holds_player').on('deposit_holds').column('player_id').execute();

  await db.schema.alterTable('players').addColumn('age_confirmed_at', 'varchar(32)').execute();

  // The usage sums of every limit check (server/plugins/play-limits/windows.ts) read a player's rows by time.
  await db.schema.createIndex('bet_rounds_player_played').on('bet_rounds').columns(['player_id', 'played_at']).execute();
  await db.schema.createIndex('statements_player_created').on('statements').columns(['player_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('statements_player_created').execute();
  await db.schema.dropIndex('bet_rounds_player_played').execute();
  await db.schema.alterTable('players').dropColumn('age_confirmed_at').execute();
  for (const t of ['deposit_holds', 'play_audit', 'play_restrictions', 'play_settings', 'play_limits']) await db.schema.dropTable(t).execute();
}
