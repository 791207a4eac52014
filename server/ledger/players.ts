import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { isPostgres } from '../db/portable';

/**
 * The player row as the money core needs it (issue 41): the one insert every path that makes a player uses, and the
 * row lock every money movement of one player takes. Beside the ledger, below the features, so a feature locks a
 * player without importing the accounts plugin.
 */
type Db = Kysely<DB>;

export interface NewPlayer {
  phone: string; name: string; password_hash: string; bank_code: string; bank_account_name: string;
  bank_account_no: string; currency: 'THB' | 'LAK'; source_code: string | null; inviter_id: number | null; now: string;
  /** When the player confirmed their age at registration (null: seeded or made by a test). */
  age_confirmed_at?: string | null;
}

/** The one place a player row is written (registration, the demo seed and test support all come here). */
export async function insertPlayer(db: Db, p: NewPlayer): Promise<number> {
  const { now, ...values } = p;
  const row = await db
    .insertInto('players')
    .values({ ...values, status: 'active', coin: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Row lock on the player for the rest of the transaction (PostgreSQL; SQLite's single writer already
 * serializes): what one player's money movements take so that a rule checked inside (one live QR, one active
 * bonus, no withdrawal during a bonus, a deposit or loss limit) holds against a parallel request of the same
 * player. FOR NO KEY UPDATE, not FOR UPDATE: it queues against itself just the same, but does not block the KEY
 * SHARE lock a journal entry's player_id reference takes. With FOR UPDATE a movement holding the player and waiting
 * for ledger accounts deadlocks (40P01) against a transfer settling for that player, which holds the accounts and
 * waits for the key share (server/plugins/play-limits/enforcement.test.ts reproduces it with deposits).
 */
export async function lockPlayer(trx: Db, playerId: number): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom('players').select('id').where('id', '=', playerId).forNoKeyUpdate().execute();
}
