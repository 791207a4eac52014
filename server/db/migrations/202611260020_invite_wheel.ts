import { sql, type Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Issue 9: the invite bonus (what each invitee's first deposit earned the inviter, and the receipts that paid it)
 * and the prize wheel (spins and the coupons they won). Money is bigint satang; budgets are the ledger accounts
 * invite_budget and spin_budget, never columns here. docs/invite-wheel.md.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('invite_receipts'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('earnings', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invite_receipts_player').on('invite_receipts').columns(['player_id', 'id']).execute();

  await withId(db, db.schema.createTable('invite_earnings'))
    .addColumn('inviter_id', 'bigint', (c) => c.notNull().references('players.id'))
    // One row per invitee: only the first deposit earns, even when two deposits of the invitee race.
    .addColumn('invitee_id', 'bigint', (c) => c.notNull().unique().references('players.id'))
    .addColumn('deposit_ref', 'varchar(160)', (c) => c.notNull())
    .addColumn('deposit_amount', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('percent_bp', 'integer', (c) => c.notNull())
    .addColumn('note', 'varchar(16)') // off | closed | self | currency | bank | before; null: earned
    .addColumn('bank_account_no', 'varchar(32)')
    .addColumn('receipt_id', 'bigint', (c) => c.references('invite_receipts.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invite_earnings_inviter').on('invite_earnings').columns(['inviter_id', 'receipt_id']).execute();
  await db.schema.createIndex('invite_earnings_bank').on('invite_earnings').column('bank_account_no').execute();

  await backfillInviteEarnings(db);

  await withId(db, db.schema.createTable('wheel_coupons'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('slice_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('label', 'varchar(64)', (c) => c.notNull())
    .addColumn('prize_name', 'text', (c) => c.notNull())
    .addColumn('html_description', 'text', (c) => c.notNull())
    .addColumn('prize_type', 'varchar(8)', (c) => c.notNull()) // cash | coin | none
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // CLAIMABLE | CLAIMED
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('claimed_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wheel_coupons_player').on('wheel_coupons').columns(['player_id', 'id']).execute();

  await withId(db, db.schema.createTable('wheel_spins'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('slice_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('prize_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('coupon_id', 'bigint', (c) => c.references('wheel_coupons.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wheel_spins_player').on('wheel_spins').columns(['player_id', 'id']).execute();
}

/**
 * Invitees who deposited before invites existed made their first deposit then: a row that earned nothing (note
 * 'before'), so a later deposit is not taken for their first and they count as invitees who deposited.
 */
export async function backfillInviteEarnings(db: Kysely<any>): Promise<void> {
  await sql`
    insert into invite_earnings (inviter_id, invitee_id, deposit_ref, deposit_amount, amount, currency, percent_bp, note, bank_account_no, created_at)
    select p.inviter_id, p.id, 'before', 0, 0, i.currency, 0, 'before', p.bank_account_no, min(j.created_at)
    from players p
    join players i on i.id = p.inviter_id
    join journal_entries j on j.player_id = p.id and j.kind = 'deposit'
    where p.inviter_id is not null and not exists (select 1 from invite_earnings e where e.invitee_id = p.id)
    group by p.id, p.inviter_id, i.currency, p.bank_account_no
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['wheel_spins', 'wheel_coupons', 'invite_earnings', 'invite_receipts']) {
    await db.schema.dropTable(t).execute();
  }
}
