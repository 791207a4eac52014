import type { Kysely } from 'kysely';

/**
 * Issue 40 item 5: the statement filtered by type (POST /api/statement `type`) reads one player's lines of some
 * types, newest first; this index serves it as statements_player_created serves the unfiltered list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('statements_player_type_created').on('statements').columns(['player_id', 'statement_type', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('statements_player_type_created').execute();
}
