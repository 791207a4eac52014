import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import { SEALED_PREFIX } from '../../lib/secret-box';

/** The player's profile and bank, as GET /api/wallet shows them. */
export function findPlayerWithBank(db: Kysely<DB>, playerId: number) {
  return db
    .selectFrom('players')
    .leftJoin('banks', 'banks.code', 'players.bank_code')
    .select([
      'players.id',
      'players.name',
      'players.phone',
      'players.coin',
      'players.currency',
      'players.bank_code',
      'players.bank_account_name',
      'players.bank_account_no',
      'banks.name_th',
      'banks.name_en',
    ])
    .where('players.id', '=', playerId)
    .executeTakeFirst();
}

export function listActiveGames(db: Kysely<DB>) {
  return db.selectFrom('games').selectAll().where('active', '=', 1).orderBy('sort').orderBy('code').execute();
}

export function findGame(db: Kysely<DB>, code: string) {
  return db.selectFrom('games').selectAll().where('code', '=', code).executeTakeFirst();
}

export function listGameAccounts(db: Kysely<DB>, playerId: number) {
  return db.selectFrom('game_accounts').selectAll().where('player_id', '=', playerId).execute();
}

/**
 * Stores the provider's credentials; false when the player already has an account at that game. password and
 * event arrive sealed (game-secrets.ts): this table never holds them readable.
 */
export async function insertGameAccount(
  db: Kysely<DB>,
  a: { playerId: number; gameCode: string; username: string; sealedPassword: string; sealedEvent: string | null },
): Promise<boolean> {
  const now = nowIso();
  const res = await db
    .insertInto('game_accounts')
    .values({
      player_id: a.playerId,
      game_code: a.gameCode,
      username: a.username,
      password: a.sealedPassword,
      event: a.sealedEvent,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['player_id', 'game_code']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function updateGamePassword(db: Kysely<DB>, playerId: number, gameCode: string, sealedPassword: string): Promise<void> {
  await db
    .updateTable('game_accounts')
    .set({ password: sealedPassword, updated_at: nowIso() })
    .where('player_id', '=', playerId)
    .where('game_code', '=', gameCode)
    .execute();
}

export interface StoredGameSecrets {
  player_id: number;
  game_code: string;
  password: string;
  event: string | null;
}

/** Game accounts whose password or event is not in the sealed form (written before encryption). */
export function listUnsealedGameAccounts(db: Kysely<DB>): Promise<StoredGameSecrets[]> {
  return db
    .selectFrom('game_accounts')
    .select(['player_id', 'game_code', 'password', 'event'])
    .where((eb) => eb.or([eb('password', 'not like', `${SEALED_PREFIX}%`), eb.and([eb('event', 'is not', null), eb('event', 'not like', `${SEALED_PREFIX}%`)])]))
    .execute();
}

/** Replaces a row's plaintext with sealed values, only if the row still holds what was read; true when it did. */
export async function sealGameAccountValues(db: Kysely<DB>, row: StoredGameSecrets, values: { password?: string; event?: string }): Promise<boolean> {
  const res = await db
    .updateTable('game_accounts')
    .set(values)
    .where('player_id', '=', row.player_id)
    .where('game_code', '=', row.game_code)
    .where('password', '=', row.password)
    .where((eb) => (row.event === null ? eb('event', 'is', null) : eb('event', '=', row.event)))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
