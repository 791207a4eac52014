import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import { SEALED_PREFIX } from '../../lib/secret-box';
import { prepared } from '../../db/prepared';
import type { GamesTable } from '../../db/schema';

// GET /api/wallet reads the player's figures in one statement (view-query.ts) and the active games from the cache below.
const activeGames = prepared((db, a: { active: number }) => db.selectFrom('games').selectAll().where('active', '=', a.active).orderBy('sort').orderBy('code'));

export function listActiveGames(db: Kysely<DB>) {
  return activeGames.all(db, { active: 1 });
}

/**
 * The active games, cached per database handle for GAMES_TTL_MS. Games change only through an operator or the
 * seed, possibly in another process sharing PostgreSQL, so nothing can invalidate this cache: a short TTL bounds
 * how long a deactivated game keeps showing (docs/server.md). Only for views: activating, crediting or launching a
 * game reads the row itself (requireGame), so a stale entry never lets money move to an inactive game.
 */
export const GAMES_TTL_MS = 1000;
const gamesCache = new WeakMap<Kysely<DB>, { at: number; games: Promise<GamesTable[]> }>();

export function cachedActiveGames(db: Kysely<DB>, now = Date.now()): Promise<GamesTable[]> {
  const hit = gamesCache.get(db);
  if (hit && now - hit.at < GAMES_TTL_MS) return hit.games;
  const games = listActiveGames(db);
  gamesCache.set(db, { at: now, games });
  games.catch(() => gamesCache.delete(db)); // a failed read is not cached
  return games;
}

/**
 * The cached active games while they are fresh, or undefined, never reading them: for a check on the transfer path
 * that must not cost it a statement (issue 13's reads; transfer-service.ts refuseSeamless).
 */
export function freshActiveGames(db: Kysely<DB>, now = Date.now()): Promise<GamesTable[]> | undefined {
  const hit = gamesCache.get(db);
  return hit && now - hit.at < GAMES_TTL_MS ? hit.games : undefined;
}

/** Drops the cache (tests, and an operator action in this process that changed a game). */
export function forgetActiveGames(db: Kysely<DB>): void {
  gamesCache.delete(db);
}

const gameAccountsOf = prepared((db, a: { id: number }) => db.selectFrom('game_accounts').selectAll().where('player_id', '=', a.id));

export function findGame(db: Kysely<DB>, code: string) {
  return db.selectFrom('games').selectAll().where('code', '=', code).executeTakeFirst();
}

export function listGameAccounts(db: Kysely<DB>, playerId: number) {
  return gameAccountsOf.all(db, { id: playerId });
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
