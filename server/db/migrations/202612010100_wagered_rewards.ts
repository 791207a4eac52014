import { sql, type Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Issue 39 rows 1, 7 and 11 (docs/bonus.md "Clear and failure", docs/invite-wheel.md "Wagered deposits"):
 * - user_bonuses.debt: the part of a cleared or failed bonus that could not be taken back yet (it sat at a game or
 *   in transit); withdrawals are refused with BONUS_DEBT until it is collected.
 * - deposit_turnover: one row per deposit and reward (wheel coins, the invite earning) that waits until the player
 *   has wagered `required` satang in rounds played after the deposit; `met_at` when that happened.
 * - invite_earnings.qualified_at: when the earning became receivable (the invitee wagered the deposit, the
 *   inviter's daily cap applied). Earnings written before this migration were receivable under the old rule and
 *   stay so (qualified at their creation).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_bonuses').addColumn('debt', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  // Every wagering pass looks for open debts and waiting earnings: indexed, not a scan of every bonus or earning.
  await db.schema.createIndex('user_bonuses_debt').on('user_bonuses').columns(['debt', 'player_id']).execute();

  await withId(db, db.schema.createTable('deposit_turnover'))
    .addColumn('player_id', 'bigint', (c) => c.notNull().references('players.id'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull()) // coins | invite
    .addColumn('deposit_ref', 'varchar(160)', (c) => c.notNull())
    .addColumn('deposited_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('required', 'bigint', (c) => c.notNull())
    .addColumn('wagered', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('coins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('met_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('deposit_turnover_ref', ['deposit_ref', 'purpose'])
    .execute();
  await db.schema.createIndex('deposit_turnover_open').on('deposit_turnover').columns(['player_id', 'met_at', 'id']).execute();

  await db.schema.alterTable('invite_earnings').addColumn('qualified_at', 'varchar(32)').execute();
  await sql`update invite_earnings set qualified_at = created_at`.execute(db);
  await db.schema.createIndex('invite_earnings_waiting').on('invite_earnings').columns(['qualified_at', 'inviter_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('invite_earnings_waiting').execute();
  await db.schema.alterTable('invite_earnings').dropColumn('qualified_at').execute();
  await db.schema.dropTable('deposit_turnover').execute();
  await db.schema.dropIndex('user_bonuses_debt').execute();
  await db.schema.alterTable('user_bonuses').dropColumn('debt').execute();
}
