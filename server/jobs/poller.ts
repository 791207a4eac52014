import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { GameProvider } from '../adapters/games/types';
import { readCursor, storePage } from '../wagering/rounds';

/**
 * The bet-feed poller (docs/bonus.md "The wagering engine"): reads every game's betFeed from its stored cursor
 * and stores the rounds (rounds.ts). The job itself is one function (pollBetFeeds, wrapped with the bonus
 * engine's evaluation by the bonus plugin); startPoller runs a job on a timer and on demand, never twice at
 * once in this process. Across processes, the bonus plugin lets the timer run a pass only while it holds the
 * `wagering-poller` lease (server/jobs/lease.ts, opts.when).
 */

export interface FeedDeps {
  db: Kysely<DB>;
  provider: GameProvider;
  now: () => Date;
  log?: { warn(obj: object, msg: string): void };
  /** Most pages read per game in one pass (the rest waits for the next pass) [20]. */
  maxPagesPerGame?: number;
}

export interface FeedReport {
  /** Rounds stored by this pass. */
  rounds: number;
  /** Games whose feed could not be read this time. */
  failedGames: string[];
}

/** One pass over every transfer game in the catalogue: pages are read and stored until a feed has nothing new. */
export async function pollBetFeeds(deps: FeedDeps): Promise<FeedReport> {
  // Transfer games only: a seamless game's rounds are written by its Wallet API calls (docs/seamless-wallet.md), and the
  // transfer provider has no feed of it.
  const games = await deps.db.selectFrom('games').select('code').where('wallet_mode', '=', 'transfer').orderBy('code').execute();
  const report: FeedReport = { rounds: 0, failedGames: [] };
  const maxPages = deps.maxPagesPerGame ?? 20;
  for (const { code } of games) {
    try {
      for (let page = 0; page < maxPages; page++) {
        const from = await readCursor(deps.db, code);
        const { rows, cursor } = await deps.provider.betFeed(code, from);
        if (!rows.length) break;
        const stored = await storePage(deps.db, code, from, cursor, rows, deps.now());
        report.rounds += stored.stored;
        if (!stored.applied || cursor === from) break;
      }
    } catch (e) {
      report.failedGames.push(code);
      deps.log?.warn({ gameCode: code, err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'bet feed not read this pass');
    }
  }
  return report;
}

export interface Poller<R> {
  /**
   * Runs the job now and resolves with its report. If a pass is running, this waits for it and then runs one
   * more (shared by every caller that asked meanwhile), so the answer covers everything before the call.
   */
  runNow(): Promise<R>;
  stop(): Promise<void>;
}

/**
 * Runs `job` every intervalMs (0: only on demand), one pass at a time. A timer tick runs it only while `when()`
 * says so (the lease is held); runNow() is on demand and runs regardless.
 */
export function startPoller<R>(
  job: () => Promise<R>,
  opts: { intervalMs: number; when?: () => boolean; log?: { warn(obj: object, msg: string): void } },
): Poller<R> {
  let running: Promise<R> | null = null;
  let queued: Promise<R> | null = null;
  let stopped = false;

  const start = (): Promise<R> => {
    const p = (async () => {
      try {
        return await job();
      } finally {
        running = null;
      }
    })();
    running = p;
    return p;
  };

  const runNow = (): Promise<R> => {
    if (queued) return queued;
    if (!running) return start();
    // Nothing else starts a pass while one is queued, so the queued one starts alone once this one ends.
    queued = running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return start();
      });
    return queued;
  };

  const tick = () => {
    if (stopped || running) return; // a timer tick never queues behind a pass: the next tick comes soon
    if (opts.when && !opts.when()) return; // another process holds the job's lease
    runNow().catch((e) => opts.log?.warn({ err: e instanceof Error ? e.message : String(e) }, 'wagering pass failed'));
  };
  const timer = opts.intervalMs > 0 ? setInterval(tick, opts.intervalMs) : null;
  timer?.unref();

  return {
    runNow: () => (stopped ? Promise.reject(new Error('the wagering poller is stopped')) : runNow()),
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await queued?.catch(() => undefined);
      await running?.catch(() => undefined);
    },
  };
}
