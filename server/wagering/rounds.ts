import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { BetFeedRow } from '../adapters/games/types';
import { nowIso } from '../db';
import { isPostgres } from '../db/portable';
import { applyTurnover, type WageredRound } from './deposit-turnover';

/**
 * Storing the bet feed (docs/bonus.md "The wagering engine"). One page of a game's feed is stored in one
 * transaction together with the cursor that follows it, so a crash or restart never loses or repeats a round:
 * each round is stored once per (game, round id), mapped to our player through game_accounts, and attributed
 * to the bonus that was active when it was played (activated at or before, ended after the round's time).
 * Active bonuses that received rounds are marked for the engine to evaluate (turnover, failure), and the rounds'
 * bets wager the player's open deposits (deposit-turnover.ts: wheel coins and invite earnings wait for it).
 */

export interface StoredPage {
  /** Rounds new to us (a round seen before is skipped). */
  stored: number;
  /** False when another worker moved the cursor meanwhile: nothing was written, the page is read again next time. */
  applied: boolean;
}

/** Text that sorts like the instant: the provider's time normalized to ISO-8601 UTC (now when unreadable). */
function playedAt(at: string, fallback: Date): string {
  const t = Date.parse(at);
  return Number.isNaN(t) ? nowIso(fallback) : new Date(t).toISOString();
}

/** The stored cursor of a game's feed (null: from the start). */
export async function readCursor(db: Kysely<DB>, gameCode: string): Promise<string | null> {
  const r = await db.selectFrom('bet_feed_cursors').select('cursor').where('game_code', '=', gameCode).executeTakeFirst();
  return r?.cursor ?? null;
}

async function lockCursor(trx: Transaction<DB>, gameCode: string, now: string): Promise<string | null> {
  await trx.insertInto('bet_feed_cursors').values({ game_code: gameCode, cursor: null, updated_at: now }).onConflict((oc) => oc.column('game_code').doNothing()).execute();
  let q = trx.selectFrom('bet_feed_cursors').select('cursor').where('game_code', '=', gameCode);
  if (isPostgres(trx)) q = q.forUpdate();
  return (await q.executeTakeFirstOrThrow()).cursor;
}

/**
 * Stores one page read from `from` and moves the cursor to `to`, in one transaction. If the stored cursor is no
 * longer `from` (another process stored this page first), nothing is written.
 */
export async function storePage(db: Kysely<DB>, gameCode: string, from: string | null, to: string | null, rows: BetFeedRow[], now: Date): Promise<StoredPage> {
  const at = nowIso(now);
  return db.transaction().execute(async (trx) => {
    if ((await lockCursor(trx, gameCode, at)) !== from) return { stored: 0, applied: false };
    let stored = 0;
    if (rows.length) {
      const usernames = [...new Set(rows.map((r) => r.username))];
      const accounts = await trx
        .selectFrom('game_accounts')
        .select(['username', 'player_id'])
        .where('game_code', '=', gameCode)
        .where('username', 'in', usernames)
        .execute();
      const playerOf = new Map(accounts.map((a) => [a.username, Number(a.player_id)]));
      const times = rows.map((r) => playedAt(r.at, now));
      const earliest = times.reduce((a, b) => (a < b ? a : b));
      const latest = times.reduce((a, b) => (a > b ? a : b));
      const players = [...new Set(playerOf.values())];
      // Bonuses that were active at some point of this page's time span, for the players in it.
      const bonuses = players.length
        ? await trx
            .selectFrom('user_bonuses')
            .select(['id', 'player_id', 'status', 'created_at', 'ended_at'])
            .where('player_id', 'in', players)
            .where('created_at', '<=', latest)
            .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', earliest)]))
            .execute()
        : [];
      const marked = new Set<number>();
      const wagered: WageredRound[] = [];
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const playerId = playerOf.get(r.username) ?? null;
        const when = times[i];
        const bonus =
          playerId === null
            ? undefined
            : bonuses.find((b) => Number(b.player_id) === playerId && b.created_at <= when && (b.ended_at === null || when < b.ended_at));
        const res = await trx
          .insertInto('bet_rounds')
          .values({
            game_code: gameCode,
            round_id: String(r.roundId).slice(0, 128),
            username: r.username,
            player_id: playerId,
            bet: r.bet,
            win: r.win,
            played_at: when,
            user_bonus_id: bonus ? Number(bonus.id) : null,
            refund_id: null,
            created_at: at,
          })
          .onConflict((oc) => oc.columns(['game_code', 'round_id']).doNothing())
          .executeTakeFirst();
        if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0) continue; // seen before
        stored++;
        if (bonus && bonus.status === 'ACTIVE') marked.add(Number(bonus.id));
        if (playerId !== null) wagered.push({ playerId, bet: Number(r.bet), playedAt: when });
      }
      // The deposits these rounds wager (coins and invite earnings wait for it), with the rounds that did it.
      await applyTurnover(trx, wagered, now);
      for (const id of marked) {
        await trx.updateTable('user_bonuses').set((eb) => ({ needs_check: eb('needs_check', '+', 1) })).where('id', '=', id).where('status', '=', 'ACTIVE').execute();
      }
    }
    await trx.updateTable('bet_feed_cursors').set({ cursor: to, updated_at: at }).where('game_code', '=', gameCode).execute();
    return { stored, applied: true };
  });
}
