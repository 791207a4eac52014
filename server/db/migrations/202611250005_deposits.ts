import type { Kysely } from 'kysely';

/**
 * Deposits (docs/deposits.md): QR deposits, payment webhook events, uploaded slips, gift-voucher
 * redemptions, and the demo bank's transfer record. Money is bigint satang, times ISO-8601 UTC text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('qr_deposits')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey()) // the qrcodeId, the gateway's reference
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('bank_code', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // LIVE | PAID | CANCELLED | EXPIRED | REVIEW
    // One live QR per player, enforced by the database even under concurrent creates.
    .addColumn('live_player_id', 'bigint', (c) => c.unique())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('paid_amount', 'bigint')
    .addColumn('paid_event_id', 'varchar(128)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('qr_deposits_player').on('qr_deposits').columns(['player_id', 'created_at']).execute();
  await db.schema.createIndex('qr_deposits_status').on('qr_deposits').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('reference', 'varchar(128)', (c) => c.notNull())
    .addColumn('amount', 'bigint')
    .addColumn('body_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(32)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_events_reference').on('payment_events').column('reference').execute();

  await db.schema
    .createTable('slips')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // IN_PROGRESS | SUCCESS | FAILED
    .addColumn('note', 'varchar(64)')
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('reference', 'varchar(64)')
    .addColumn('sending_bank', 'varchar(8)')
    .addColumn('reference_claim', 'varchar(64)', (c) => c.unique())
    .addColumn('file_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sender_account', 'varchar(64)')
    .addColumn('receiver_account', 'varchar(64)')
    .addColumn('transferred_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slips_player').on('slips').columns(['player_id', 'created_at']).execute();
  await db.schema.createIndex('slips_reference').on('slips').columns(['reference']).execute();

  await db.schema
    .createTable('gift_redemptions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('voucher_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('reason', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gift_redemptions_player').on('gift_redemptions').columns(['player_id', 'created_at']).execute();

  await db.schema
    .createTable('demo_bank_transfers')
    .addColumn('trans_ref', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('sending_bank', 'varchar(8)', (c) => c.notNull())
    .addColumn('sender_bank_code', 'varchar(16)', (c) => c.notNull())
    .addColumn('sender_account_no', 'varchar(32)', (c) => c.notNull())
    .addColumn('sender_account_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('receiver_bank_code', 'varchar(16)')
    .addColumn('receiver_account_no', 'varchar(64)')
    .addColumn('receiver_promptpay_id', 'varchar(32)')
    .addColumn('receiver_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('transferred_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['demo_bank_transfers', 'gift_redemptions', 'slips', 'payment_events', 'qr_deposits']) {
    await db.schema.dropTable(t).execute();
  }
}
