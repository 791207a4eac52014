import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { GameTransfersTable } from '../db/schema-ledger';
import { sql } from 'kysely';
import { isPostgres } from '../db/portable';
import { prepared } from '../db/prepared';
import { preparedPart, type MovementPart } from '../ledger/movement';

export type GameTransfer = GameTransfersTable;

const norm = (t: GameTransfersTable): GameTransfer => ({ ...t, player_id: Number(t.player_id), amount: Number(t.amount), attempts: Number(t.attempts) });

/** The transfer row, locked for the rest of the transaction on PostgreSQL (SQLite serializes transactions). */
const transferById = prepared((db, a: { id: string }) => db.selectFrom('game_transfers').selectAll().where('id', '=', a.id));
const transferByIdLocked = prepared((db, a: { id: string }) => db.selectFrom('game_transfers').selectAll().where('id', '=', a.id).forUpdate());

export async function lockTransfer(trx: Transaction<DB>, id: string): Promise<GameTransfer | undefined> {
  const t = await (isPostgres(trx) ? transferByIdLocked : transferById).first(trx, { id });
  return t && norm(t);
}

/** The transfer row as committed (no lock). */
export async function readTransfer(db: Kysely<DB>, id: string): Promise<GameTransfer | undefined> {
  const t = await transferById.first(db, { id });
  return t && norm(t);
}

const closeRowId = prepared((db, a: { id: string; status: 'settled' | 'failed'; updated_at: string; note: string | null }) =>
  db
    .updateTable('game_transfers')
    .set({ status: a.status, claimed_until: null, updated_at: a.updated_at, last_error: sql<string | null>`coalesce(${a.note}, last_error)` })
    .where('id', '=', a.id)
    .where('status', '=', 'pending')
    .returning('id'),
);

/**
 * A pending transfer moved to settled or failed, as the condition of its closing movement (moveMoney): it changes
 * no row when the transfer is not pending (someone closed it first; on PostgreSQL the UPDATE waits for that closer's
 * row lock, then finds the status changed), and the movement is then refused whole. A `note` replaces last_error.
 */
export function closePendingPart(a: { id: string; status: 'settled' | 'failed'; updatedAt: string; note?: string }): MovementPart {
  return preparedPart(closeRowId, { id: a.id, status: a.status, updated_at: a.updatedAt, note: a.note ?? null }, 'NOT_PENDING');
}

const closeRow = prepared((db, a: { id: string; status: 'settled' | 'failed'; updated_at: string; note: string | null }) =>
  db
    .updateTable('game_transfers')
    .set({ status: a.status, claimed_until: null, updated_at: a.updated_at, last_error: sql<string | null>`coalesce(${a.note}, last_error)` })
    .where('id', '=', a.id)
    .where('status', '=', 'pending')
    .returningAll(),
);

/**
 * Moves a pending transfer to settled or failed in one statement and returns the row as it now is; undefined when
 * it was not pending (someone closed it first; on PostgreSQL the UPDATE waits for that closer's row lock, then
 * finds the status changed). A `note` replaces last_error; without one it stays.
 */
export async function closePendingTransfer(
  trx: Transaction<DB>,
  a: { id: string; status: 'settled' | 'failed'; updatedAt: string; note?: string },
): Promise<GameTransfer | undefined> {
  const t = await closeRow.first(trx, { id: a.id, status: a.status, updated_at: a.updatedAt, note: a.note ?? null });
  return t && norm(t);
}

type TransferRow = { [K in keyof GameTransfersTable]: GameTransfersTable[K] };
const insertRow = prepared((db, a: TransferRow) =>
  db.insertInto('game_transfers').values({
    id: a.id,
    player_id: a.player_id,
    game_code: a.game_code,
    direction: a.direction,
    amount: a.amount,
    currency: a.currency,
    status: a.status,
    claimed_until: a.claimed_until,
    attempts: a.attempts,
    last_error: a.last_error,
    created_at: a.created_at,
    updated_at: a.updated_at,
  }),
);

/** A transfer row, as a part of the movement that opens it. */
export function insertTransferPart(row: GameTransfersTable): MovementPart {
  return preparedPart(insertRow, row);
}

/** Inserts a transfer row (prepared: one of the hot statements of a transfer). */
export async function insertTransfer(trx: Transaction<DB>, row: GameTransfersTable): Promise<void> {
  await insertRow.run(trx, row);
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

const gameAccountOf = prepared((db, a: { player_id: number; game_code: string }) =>
  db.selectFrom('game_accounts').selectAll().where('player_id', '=', a.player_id).where('game_code', '=', a.game_code),
);

export async function findGameAccount(db: Kysely<DB>, playerId: number, gameCode: string): Promise<GameAccountRow | undefined> {
  const r = await gameAccountOf.first(db, { player_id: playerId, game_code: gameCode });
  if (!r) return undefined;
  return { playerId: Number(r.player_id), gameCode: r.game_code, username: r.username, sealedPassword: r.password, sealedEvent: r.event };
}

const gameWithAccount = prepared((db, a: { code: string; player_id: number }) =>
  db
    .selectFrom('games')
    .leftJoin('game_accounts', (j) => j.onRef('game_accounts.game_code', '=', 'games.code').on('game_accounts.player_id', '=', a.player_id))
    .select((eb) => [
      'games.active',
      'game_accounts.username',
      'game_accounts.password',
      'game_accounts.event',
      eb.selectFrom('players').select('players.currency').where('players.id', '=', a.player_id).as('currency'),
    ])
    .where('games.code', '=', a.code),
);

/**
 * The game (undefined when there is no such game), the player's account at it (undefined when the player has none)
 * and the player's currency (undefined when there is no such player), in one read.
 */
export async function findGameAndAccount(
  db: Kysely<DB>,
  playerId: number,
  gameCode: string,
): Promise<{ active: boolean; account?: GameAccountRow; currency?: string } | undefined> {
  const r = await gameWithAccount.first(db, { code: gameCode, player_id: playerId });
  if (!r) return undefined;
  const account = r.username == null ? undefined : { playerId, gameCode, username: r.username, sealedPassword: r.password!, sealedEvent: r.event ?? null };
  return { active: !!Number(r.active), account, currency: r.currency ?? undefined };
}

const mirrorStateOf = prepared((db, a: { player_id: number; code: string; game_code: string; since: string }) =>
  db
    .selectFrom('players')
    .leftJoin('ledger_accounts', (j) => j.on('ledger_accounts.code', '=', a.code))
    .select((eb) => [
      'players.currency',
      'ledger_accounts.id as account_id',
      'ledger_accounts.balance',
      'ledger_accounts.version',
      eb
        .selectFrom('game_transfers')
        .select('game_transfers.status')
        .where('game_transfers.player_id', '=', a.player_id)
        .where('game_transfers.game_code', '=', a.game_code)
        .where((w) => w.or([w('game_transfers.status', '=', 'pending'), w('game_transfers.updated_at', '>=', a.since)]))
        .orderBy(sql`case when game_transfers.status = 'pending' then 0 else 1 end`)
        .limit(1)
        .as('busy'),
    ])
    .where('players.id', '=', a.player_id),
);

/**
 * What a game-balance refresh reads, in one statement (issue 43: it was five in a transaction on PostgreSQL): the
 * player's currency, the game mirror (undefined before its first movement) and whether a transfer of that game is
 * pending or has changed at or after `since` (the instant the provider was asked).
 */
export async function mirrorState(
  db: Kysely<DB>,
  playerId: number,
  code: string,
  gameCode: string,
  since: string,
): Promise<{ currency: string; mirror?: { id: number; balance: number; version: number }; busy?: 'pending' | 'recent' } | undefined> {
  const r = await mirrorStateOf.first(db, { player_id: playerId, code, game_code: gameCode, since });
  if (!r) return undefined;
  return {
    currency: r.currency,
    mirror: r.account_id == null ? undefined : { id: Number(r.account_id), balance: Number(r.balance), version: Number(r.version) },
    busy: r.busy == null ? undefined : r.busy === 'pending' ? 'pending' : 'recent',
  };
}
