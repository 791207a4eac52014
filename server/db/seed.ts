import type { Kysely } from 'kysely';
import type { DB } from './schema';

/**
 * Reference data every installation needs (banks, sources, lookups, the game catalogue).
 * Idempotent: runs on an empty database only for each table.
 */
export async function seedBase(db: Kysely<DB>): Promise<void> {
  void db; // filled in by the foundation work (banks, sources, settings, games)
}
