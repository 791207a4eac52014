import { sql, type Kysely } from 'kysely';
import type { Server } from 'socket.io';
import type { DB } from '../db/schema';

/**
 * Live balance (docs/ledger.md "Live balance"): every committed journal entry that touches a player's wallet or
 * game accounts is announced to that player's room as `wallet {reason}` (reason: the entry's kind), so the SPA
 * refetches the wallet instead of polling.
 *
 * A watcher, not a hook in the write path: it reads the entries that became visible since the last pass, by
 * increasing id, every `intervalMs`. It sees only committed rows (so it never pushes before the commit or for a
 * rolled-back transaction), it sees money written by any path and any process (webhooks, reconcilers, the game
 * simulator), and each process announces only to its own sockets (io.local), so with the Redis adapter every
 * socket hears an entry once.
 *
 * PostgreSQL hands out ids when a row is inserted, not when it commits: entry 11 can be visible while entry 10's
 * transaction is still open. So the cursor (every id at or below it is done) stops below the first missing id,
 * the ids above it that were already announced are remembered, and a missing id is given up after `gapMs` (a
 * rolled-back transaction leaves a hole forever). SQLite commits one transaction at a time, so holes there are
 * only rolled-back inserts.
 */
export interface WalletPushOptions {
  db: Kysely<DB>;
  io: Server;
  roomOfPlayer(playerId: number): string;
  intervalMs?: number;
  /** How long a missing id is waited for (an open transaction) before it is taken as rolled back. */
  gapMs?: number;
  onError?(err: unknown): void;
}

export interface WalletPush {
  /** One pass now (tests and start-up); resolves when it is done. Passes never overlap. */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

export const WALLET_PUSH_INTERVAL_MS = 150;
export const WALLET_PUSH_GAP_MS = 60_000;
/** Entries read per pass at most; the next pass continues. */
const BATCH = 1000;
/** Holes re-read per pass at most (a burst of rolled-back transactions leaves many). */
const MISSING_PER_PASS = 500;

export async function startWalletPush(opts: WalletPushOptions): Promise<WalletPush> {
  const { db, io, roomOfPlayer } = opts;
  const intervalMs = opts.intervalMs ?? WALLET_PUSH_INTERVAL_MS;
  const gapMs = opts.gapMs ?? WALLET_PUSH_GAP_MS;

  // Start after what is there: history is not announced. Entries at or below the current maximum whose
  // transactions are still open (PostgreSQL) are waited for like any other hole in the last BATCH ids.
  const top = await db.selectFrom('journal_entries').select(sql<string | number | null>`max(id)`.as('max')).executeTakeFirst();
  let highest = Number(top?.max ?? 0);
  let cursor = Math.max(0, highest - BATCH);
  const seen = new Set<number>();
  const missingSince = new Map<number, number>();
  const now0 = Date.now();
  for (const r of await db.selectFrom('journal_entries').select('id').where('id', '>', cursor).execute()) seen.add(Number(r.id));
  for (let id = cursor + 1; id < highest; id++) if (!seen.has(id)) missingSince.set(id, now0);

  /** Notes the ids read; holes below the highest id become missing; the cursor moves over what is done. */
  const advance = (ids: number[], now: number) => {
    for (const id of ids) {
      seen.add(id);
      missingSince.delete(id);
    }
    const top = ids.length ? Math.max(highest, ids[ids.length - 1]) : highest;
    for (let id = highest + 1; id < top; id++) if (!seen.has(id)) missingSince.set(id, now);
    highest = top;
    for (;;) {
      const nextId = cursor + 1;
      if (nextId > highest) break;
      if (seen.delete(nextId)) cursor = nextId;
      else if (now - (missingSince.get(nextId) ?? now) >= gapMs) {
        missingSince.delete(nextId);
        cursor = nextId;
      } else break;
    }
  };
  advance([], now0);

  const pass = async () => {
    // One indexed read: the entries after the highest id seen, and the holes still waited for; with the player
    // of each posting's account (null for house accounts).
    const waiting = [...missingSince.keys()].slice(0, MISSING_PER_PASS);
    const rows = await db
      .selectFrom('journal_entries as j')
      .leftJoin('ledger_postings as p', 'p.entry_id', 'j.id')
      .leftJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['j.id as id', 'j.kind as kind', 'a.player_id as playerId'])
      .where((eb) =>
        eb.or([
          eb('j.id', 'in', eb.selectFrom('journal_entries').select('id').where('id', '>', highest).orderBy('id').limit(BATCH)),
          ...(waiting.length ? [eb('j.id', 'in', waiting)] : []),
        ]),
      )
      .orderBy('j.id')
      .execute();
    const reasons = new Map<number, string>();
    const ids: number[] = [];
    for (const r of rows) {
      const id = Number(r.id);
      if (seen.has(id) || id <= cursor) continue;
      if (ids[ids.length - 1] !== id) ids.push(id);
      if (r.playerId != null) reasons.set(Number(r.playerId), r.kind);
    }
    // One event per player per pass, however many entries it had.
    for (const [playerId, reason] of reasons) io.local.to(roomOfPlayer(playerId)).emit('wallet', { reason });
    advance(ids, Date.now());
  };

  let running: Promise<void> | null = null;
  const poll = () => {
    running ??= pass()
      .catch((err) => opts.onError?.(err))
      .finally(() => {
        running = null;
      });
    return running;
  };
  let stopped = false;
  const timer = setInterval(() => {
    if (!stopped) void poll();
  }, intervalMs);
  timer.unref();

  return {
    poll,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
