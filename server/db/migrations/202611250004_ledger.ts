import { sql, type Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * The double-entry ledger, game accounts and transfers, withdrawals, statements and idempotency keys
 * (docs/ledger.md). Money is bigint satang; a posting's amount is signed, and each entry's postings sum to 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per account: a player's wallet, a player's balance at one game (mirrored), or a system account.
  await withId(db, db.schema.createTable('ledger_accounts'))
    .addColumn('code', 'varchar(96)', (c) => c.notNull().unique()) // wallet:12, game:12:pg, game_transit:THB
    .addColumn('kind', 'varchar(8)', (c) => c.notNull()) // wallet | game | system
    .addColumn('player_id', 'bigint', (c) => c.references('players.id'))
    .addColumn('game_code', 'varchar(32)')
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    // System accounts are sources and sinks (their balance may be below zero); player accounts never are.
    .addColumn('allow_negative', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('ledger_accounts_not_negative', sql`balance >= 0 or allow_negative = 1`)
    .execute();
  await db.schema.createIndex('ledger_accounts_player').on('ledger_accounts').column('player_id').execute();

  await withId(db, db.schema.createTable('journal_entries'))
    .addColumn('reference', 'varchar(128)', (c) => c.notNull().unique()) // an entry is applied once
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('player_id', 'bigint', (c) => c.references('players.id'))
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    // A reversal points at the entry it undoes; unique: an entry is reversed at most once.
    .addColumn('reverses_entry_id', 'bigint', (c) => c.unique().references('journal_entries.id'))
    .addColumn('memo', 'varchar(256)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('journal_entries_player').on('journal_entries').column('player_id').execute();

  await withId(db, db.schema.createTable('ledger_postings'))
    .addColumn('entry_id', 'bigint', (c) => c.notNull().references('journal_entries.id'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_before', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('account_version', 'integer', (c) => c.notNull()) // the account's version after this posting
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_postings_entry').on('ledger_postings').column('entry_id').execute();
  await db.schema.createIndex('ledger_postings_account').on('ledger_postings').columns(['account_id', 'id']).execute();

  // A player's account at one game provider (credentials the player sees in the game account modal).
  await db.schema
    .createTable('game_accounts')
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull().references('games.code'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('password', 'varchar(128)', (c) => c.notNull())
    .addColumn('event', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('game_accounts_pk', ['player_id', 'game_code'])
    .addUniqueConstraint('game_accounts_username', ['game_code', 'username'])
    .execute();

  // Wallet <-> game transfers; the id is the transferId the provider sees.
  await db.schema
    .createTable('game_transfers')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('game_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('direction', 'varchar(16)', (c) => c.notNull()) // to_game | from_game
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // pending | settled | failed
    .addColumn('claimed_until', 'varchar(32)') // whoever works on a pending row holds it until then
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(256)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('game_transfers_status').on('game_transfers').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('game_transfers_player_game').on('game_transfers').columns(['player_id', 'game_code', 'status']).execute();

  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // IN_PROGRESS | SUCCESS | FAILED
    .addColumn('bank_code', 'varchar(16)', (c) => c.notNull())
    .addColumn('bank_account_no', 'varchar(32)', (c) => c.notNull())
    .addColumn('bank_account_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('payout_requested_at', 'varchar(32)')
    .addColumn('failure_reason', 'varchar(256)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('withdrawals_status').on('withdrawals').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('withdrawals_player').on('withdrawals').column('player_id').execute();

  // What the statement page lists; written in the same transaction as the movement it describes.
  await withId(db, db.schema.createTable('statements'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('statement_type', 'varchar(16)', (c) => c.notNull()) // deposit | bonus | finish_bonus | withdraw | transfer
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // IN_PROGRESS | SUCCESS | FAILED
    .addColumn('from_account', 'varchar(32)', (c) => c.notNull())
    .addColumn('to_account', 'varchar(32)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('ref_type', 'varchar(16)', (c) => c.notNull()) // transfer | withdrawal | deposit | bonus | ...
    .addColumn('ref_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('linked_type', 'varchar(16)') // bonus | promotion | invite | refund | luckydraw
    .addColumn('linked_description', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('statements_ref', ['ref_type', 'ref_id'])
    .execute();
  await db.schema.createIndex('statements_player').on('statements').columns(['player_id', 'id']).execute();

  // Idempotency-Key per player: the first answer is kept and replayed.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('idem_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull()) // processing | done
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['player_id', 'idem_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['idempotency_keys', 'statements', 'withdrawals', 'game_transfers', 'game_accounts', 'ledger_postings', 'journal_entries', 'ledger_accounts']) {
    await db.schema.dropTable(t).execute();
  }
}
