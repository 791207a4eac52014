import { sql, type Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * The game-provider simulator's own state (server/adapters/games/simulator.ts). It stands in for a remote
 * provider, so it keeps its players, balances, transfers and rounds apart from the wallet's ledger and
 * never references the wallet's tables: the wallet learns about this state only through the adapter.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('sim_players'))
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('player_id', 'bigint', (c) => c.notNull())
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    // A provider hands the password back to show to the player, so it keeps it readable.
    .addColumn('password', 'varchar(64)', (c) => c.notNull())
    // Bumped on every password reset; launch tokens carry it, so a reset logs out open game pages.
    .addColumn('password_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('sim_players_game_player', ['game_code', 'player_id'])
    .addUniqueConstraint('sim_players_game_username', ['game_code', 'username'])
    .addCheckConstraint('sim_players_balance_nonneg', sql`balance >= 0`)
    .execute();

  // One row per transferId ever answered definitely; the key makes a retried transfer a replay, never a second apply.
  await db.schema
    .createTable('sim_transfers')
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('transfer_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull()) // deposit | withdraw
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull()) // settled | failed
    .addColumn('reason', 'varchar(32)')
    .addColumn('balance_after', 'bigint')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('sim_transfers_pk', ['game_code', 'transfer_id'])
    .execute();

  // Per-game round counter. Taking the next number locks this row until the round commits, so rounds become
  // visible in number order and a feed cursor never skips one that commits late.
  await db.schema
    .createTable('sim_round_counters')
    .addColumn('game_code', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('last_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('sim_rounds')
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('bet', 'bigint', (c) => c.notNull())
    .addColumn('win', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('symbols', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('sim_rounds_pk', ['game_code', 'seq'])
    .execute();
  await db.schema.createIndex('sim_rounds_player').on('sim_rounds').columns(['game_code', 'username']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['sim_rounds', 'sim_round_counters', 'sim_transfers', 'sim_players']) {
    await db.schema.dropTable(t).execute();
  }
}
