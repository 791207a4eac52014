import { nowIso } from '../db';
import { closeTransfer, resendTransfer, type TransferDeps } from '../transfers/protocol';
import { findGameAccount } from '../transfers/repository';

export interface ReconcileOptions {
  /** Only transfers pending for at least this long are looked at (ms). */
  olderThanMs: number;
  /** At most this many per run. */
  batch?: number;
}

export interface ReconcileReport {
  examined: number;
  settled: number;
  reversed: number;
  stillPending: number;
}

/**
 * Finishes pending transfers: claims each row (so that several reconcilers, in one process or many, never
 * work on the same row at once), asks the provider transferStatus(transferId), and settles or reverses.
 * A provider that does not know the transferId never received our call: the same call is sent again with the
 * same transferId (the provider applies a transferId at most once), and its answer settles or reverses.
 * A provider that still cannot answer leaves the row pending for the next run.
 */
export async function reconcileTransfers(deps: TransferDeps, opts: ReconcileOptions): Promise<ReconcileReport> {
  const at = deps.now ? deps.now() : new Date();
  const nowText = nowIso(at);
  const cutoff = nowIso(new Date(at.getTime() - opts.olderThanMs));
  const rows = await deps.db
    .selectFrom('game_transfers')
    .select(['id', 'player_id', 'game_code', 'direction', 'amount'])
    .where('status', '=', 'pending')
    .where('created_at', '<=', cutoff)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowText)]))
    .orderBy('created_at')
    .limit(opts.batch ?? 100)
    .execute();
  const report: ReconcileReport = { examined: 0, settled: 0, reversed: 0, stillPending: 0 };
  for (const row of rows) {
    const claim = await deps.db
      .updateTable('game_transfers')
      .set((eb) => ({ claimed_until: nowIso(new Date(at.getTime() + deps.claimMs)), attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowText)]))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue; // another reconciler has it, or it just finished
    report.examined++;
    const t = { id: row.id, direction: row.direction, game_code: row.game_code, amount: Number(row.amount) };
    let final: 'settled' | 'failed' | undefined;
    try {
      const status = await deps.provider.transferStatus(t.game_code, t.id);
      if (status === 'settled' || status === 'failed') {
        final = await closeTransfer(deps, t.id, status === 'settled', status === 'failed' ? 'provider reports failed' : undefined);
      } else {
        const acct = await findGameAccount(deps.db, Number(row.player_id), t.game_code);
        // Without an account the provider cannot have applied it: reverse.
        final = acct ? await resendTransfer(deps, t, acct.username) : await closeTransfer(deps, t.id, false, 'no game account');
      }
    } catch (e) {
      deps.log?.warn({ transferId: t.id, err: String(e) }, 'reconciliation: provider status unavailable');
      final = undefined;
    }
    if (final === 'settled') report.settled++;
    else if (final === 'failed') report.reversed++;
    else report.stillPending++;
  }
  return report;
}

export interface Reconciler {
  /** Runs one pass now (a pass already running is joined, not doubled). */
  runOnce(): Promise<ReconcileReport>;
  stop(): Promise<void>;
}

export interface ReconcilerOptions extends ReconcileOptions {
  intervalMs: number;
  runAtStart: boolean;
  /**
   * Whether a timed pass (the start-up one included) may run now: with several processes, only while this one
   * holds the `reconciler` lease (server/jobs/lease.ts). runOnce() is on demand and runs regardless. [always]
   */
  when?: () => boolean;
}

/** Runs reconcileTransfers at start and then every intervalMs (0: only when runOnce is called). */
export function startReconciler(deps: TransferDeps, opts: ReconcilerOptions, extra?: () => Promise<unknown>): Reconciler {
  let running: Promise<ReconcileReport> | null = null;
  let stopped = false;
  const runOnce = () => {
    if (!running) {
      running = (async () => {
        try {
          const r = await reconcileTransfers(deps, opts);
          if (extra) await extra();
          return r;
        } finally {
          running = null;
        }
      })();
    }
    return running;
  };
  const tick = () => {
    if (stopped || (opts.when && !opts.when())) return;
    runOnce().catch((e) => deps.log?.warn({ err: String(e) }, 'reconciliation pass failed'));
  };
  const timer = opts.intervalMs > 0 ? setInterval(tick, opts.intervalMs) : null;
  timer?.unref();
  if (opts.runAtStart) setImmediate(tick);
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (running) await running.catch(() => undefined);
    },
  };
}
