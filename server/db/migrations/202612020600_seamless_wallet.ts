import type { Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Issue 42: the seamless wallet (docs/seamless-wallet.md). An aggregator (Hub88's Operator Wallet API) debits and
 * credits the player's wallet per bet, win and rollback; nothing is transferred to a game account.
 * - games.wallet_mode: 'transfer' (every game so far) or 'seamless'; aggregator ('hub88') and aggregator_game_code
 *   (the aggregator's game_code, e.g. 'clt_dragonrising') name the game at the aggregator.
 * - seamless_sessions: the game session token handed to the aggregator at launch (the Games API's token), the player,
 *   game and currency it stands for, the player's login session it was opened in (the session limit counts from
 *   that session), and when it expires (bets need a live token; wins and rollbacks do not).
 * - seamless_transactions: every transaction_uuid the aggregator sent, once per (aggregator, transaction_uuid): its
 *   kind (bet, win, rollback), round, amount in satang, what it references (a rollback's reference_transaction_uuid),
 *   its status (OK, ROLLED_BACK for a bet a rollback reversed, REFUSED for an answered error that is replayed as is)
 *   and the first answer (JSON, without request_uuid), so a retry answers exactly the first answer.
 * - bet_rounds.open: 1 while a seamless round has a bet and no closing win yet, so refunds of losses leave it for later.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').addColumn('wallet_mode', 'varchar(16)', (c) => c.notNull().defaultTo('transfer')).execute();
  await db.schema.alterTable('games').addColumn('aggregator', 'varchar(32)').execute();
  await db.schema.alterTable('games').addColumn('aggregator_game_code', 'varchar(128)').execute();
  await db.schema.alterTable('bet_rounds').addColumn('open', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('seamless_sessions')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('aggregator', 'varchar(32)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('seamless_sessions_player').on('seamless_sessions').columns(['player_id', 'created_at']).execute();

  await withId(db, db.schema.createTable('seamless_transactions'))
    .addColumn('aggregator', 'varchar(32)', (c) => c.notNull())
    .addColumn('transaction_uuid', 'varchar(128)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('round_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('reference_transaction_uuid', 'varchar(128)')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('seamless_transactions_uuid', ['aggregator', 'transaction_uuid'])
    .execute();
  // Partial: only rollbacks (and wins) reference another transaction; bets, most of the rows, stay out of it, and a
  // planner that has never analyzed the table cannot take it for a scan of every bet (docs/seamless-wallet.md).
  await db.schema
    .createIndex('seamless_transactions_reference')
    .on('seamless_transactions')
    .columns(['aggregator', 'reference_transaction_uuid'])
    .where('reference_transaction_uuid', 'is not', null)
    .execute();
  await db.schema.createIndex('seamless_transactions_player').on('seamless_transactions').columns(['player_id', 'id']).execute();
  await db.schema.createIndex('seamless_transactions_game_day').on('seamless_transactions').columns(['game_code', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('seamless_transactions').execute();
  await db.schema.dropTable('seamless_sessions').execute();
  await db.schema.alterTable('bet_rounds').dropColumn('open').execute();
  await db.schema.alterTable('games').dropColumn('aggregator_game_code').execute();
  await db.schema.alterTable('games').dropColumn('aggregator').execute();
  await db.schema.alterTable('games').dropColumn('wallet_mode').execute();
}
