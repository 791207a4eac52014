import type { Kysely } from 'kysely';

/**
 * Issue 13: GET /api/wallet counts the player's invitees (players whose inviter_id is the player) on every read
 * (plugins/invite/earnings.ts inviteFigureColumns). Without an index that count scanned the whole players table
 * each time: the wallet read grew with the number of players.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('players_inviter').on('players').column('inviter_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('players_inviter').execute();
}
