import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { GameTransfersTable } from '../db/schema-ledger';
import { isPostgres } from '../db/portable';

export type GameTransfer = GameTransfersTable;

const norm = (t: GameTransfersTable): GameTransfer => ({ ...t, player_id: Number(t.player_id), amount: Number(t.amount), attempts: Number(t.attempts) });

export async function findTransfer(db: Kysely<DB>, id: string): Promise<GameTransfer | undefined> {
  const t = await db.selectFrom('game_transfers').selectAll().where('id', '=', id).executeTakeFirst();
  return t && norm(t);
}

/** The transfer row, locked for the rest of the transaction on PostgreSQL (SQLite serializes transactions). */
export async function lockTransfer(trx: Transaction<DB>, id: string): Promise<GameTransfer | undefined> {
  let q = trx.selectFrom('game_transfers').selectAll().where('id', '=', id);
  if (isPostgres(trx)) q = q.forUpdate();
  const t = await q.executeTakeFirst();
  return t && norm(t);
}

export interface GameAccountRow {
  playerId: number;
  gameCode: string;
  username: string;
  /** As stored: sealed with GAME_SECRET_KEY; the wallet's game-secrets.ts opens it for the owner only. */
  sealedPassword: string;
  /** The provider's event object as stored: sealed JSON, or null. */
  sealedEvent: string | null;
}

export async function findGameAccount(db: Kysely<DB>, playerId: number, gameCode: string): Promise<GameAccountRow | undefined> {
  const r = await db.selectFrom('game_accounts').selectAll().where('player_id', '=', playerId).where('game_code', '=', gameCode).executeTakeFirst();
  if (!r) return undefined;
  return { playerId: Number(r.player_id), gameCode: r.game_code, username: r.username, sealedPassword: r.password, sealedEvent: r.event };
}
