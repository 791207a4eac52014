import crypto from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/**
 * A lease on a named background job, shared by every process on the same database (table job_leases,
 * docs/operations.md "Background jobs (leases)"). At most one holder at a time: taking it is one conditional
 * UPDATE (the row is mine or expired) or, the first time, an INSERT ... ON CONFLICT DO NOTHING, so two processes
 * can never both succeed. The holder renews it every renewMs; one that stops gracefully deletes its row (another
 * process takes over at its next renewal tick), one that dies leaves it to expire (taken over within ttl + renew).
 *
 * Time is the wall clock (Date.now), never app.clock (tests move that for business rules). Processes compare
 * expiries written by each other, so their clocks must agree to well under the ttl (NTP).
 */
export interface Lease {
  /** The job's name (the row's key). */
  readonly name: string;
  /** This process's holder id. */
  readonly holder: string;
  /** Whether this process holds the lease now: the last attempt took it and its expiry has not passed. */
  held(): boolean;
  /** Takes or renews the lease now; resolves with held(). Calls made while one is in flight share it. */
  tryAcquire(): Promise<boolean>;
  /** Gives the lease up (deletes the row if it is still ours); the renewal timer keeps running. */
  release(): Promise<void>;
  /** Stops the renewal timer and releases. */
  stop(): Promise<void>;
}

export interface LeaseOptions {
  /** How long a taken lease lasts without renewal [30000]. */
  ttlMs?: number;
  /** Renewal (and takeover attempt) period [ttlMs / 3, at most 10000]. */
  renewMs?: number;
  /** [`${hostname}:${pid}:${random}`] */
  holder?: string;
  /** Run the renewal timer (and a first attempt at once) [true]. false: only explicit tryAcquire calls. */
  autoRenew?: boolean;
  /** Called when held() changes (metrics, logs). */
  onChange?: (held: boolean) => void;
  log?: { warn(obj: object, msg: string): void };
}

export const DEFAULT_LEASE_TTL_MS = 30_000;

export function defaultHolder(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createLease(db: Kysely<DB>, name: string, opts: LeaseOptions = {}): Lease {
  const ttlMs = opts.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const renewMs = opts.renewMs ?? Math.min(10_000, Math.max(1, Math.floor(ttlMs / 3)));
  if (!(ttlMs > 0) || !(renewMs > 0) || renewMs >= ttlMs) throw new Error(`lease ${name}: renewMs (${renewMs}) must be below ttlMs (${ttlMs})`);
  const holder = opts.holder ?? defaultHolder();
  /** Wall-clock time our lease lasts until (0: not held). Measured from before the write, so never too late. */
  let heldUntil = 0;
  let reported = false;
  let inFlight: Promise<boolean> | null = null;
  let stopped = false;

  const held = () => heldUntil > Date.now();
  const report = () => {
    const now = held();
    if (now !== reported) {
      reported = now;
      opts.onChange?.(now);
    }
  };

  const attempt = async (): Promise<boolean> => {
    const start = Date.now();
    const expires = iso(start + ttlMs);
    const taken = await db
      .updateTable('job_leases')
      .set({ holder, expires_at: expires })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', iso(start))]))
      .executeTakeFirst();
    let ok = Number(taken.numUpdatedRows) === 1;
    if (!ok) {
      const inserted = await db
        .insertInto('job_leases')
        .values({ name, holder, expires_at: expires })
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      ok = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    }
    heldUntil = ok ? start + ttlMs : 0;
    return ok;
  };

  const tryAcquire = (): Promise<boolean> => {
    if (stopped) return Promise.resolve(false);
    inFlight ??= attempt()
      .catch((err: unknown) => {
        // The database did not answer: held() stays true only until the expiry we last wrote.
        opts.log?.warn({ lease: name, err: err instanceof Error ? err.message : String(err) }, 'lease not renewed');
        return held();
      })
      .finally(() => {
        inFlight = null;
        report();
      });
    return inFlight;
  };

  const release = async (): Promise<void> => {
    await inFlight?.catch(() => undefined);
    const was = heldUntil > 0;
    heldUntil = 0;
    report();
    if (!was) return;
    try {
      await db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
    } catch (err) {
      opts.log?.warn({ lease: name, err: err instanceof Error ? err.message : String(err) }, 'lease not released (it expires)');
    }
  };

  let timer: NodeJS.Timeout | null = null;
  if (opts.autoRenew ?? true) {
    timer = setInterval(() => {
      // A lease that ran out between ticks (a stalled event loop) is reported as soon as it is seen.
      report();
      void tryAcquire();
    }, renewMs);
    timer.unref();
    void tryAcquire();
  }

  return {
    name,
    holder,
    held,
    tryAcquire,
    release,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await release();
    },
  };
}

/** The jobs that run once across processes, by lease name. */
export type JobName = 'reconciler' | 'wagering-poller' | 'upload-retention' | 'gateway-payments';

/**
 * A job's lease for a plugin: JOB_LEASE_TTL_MS, the wallet_job_lease_held{job} gauge, a log line when this process
 * takes or loses the job. Resolves after the first attempt, so a start-up pass knows whether it may run.
 */
export async function startJobLease(
  app: { db: Kysely<DB>; config: { jobLeaseTtlMs: number }; metrics: { jobLeaseHeld: { set(labels: { job: string }, v: number): void } }; log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void } },
  job: JobName,
): Promise<Lease> {
  app.metrics.jobLeaseHeld.set({ job }, 0);
  const lease = createLease(app.db, job, {
    ttlMs: app.config.jobLeaseTtlMs,
    log: app.log,
    onChange: (held) => {
      app.metrics.jobLeaseHeld.set({ job }, held ? 1 : 0);
      app.log.info({ job, holder: lease.holder }, held ? 'job lease taken: this process runs the job' : 'job lease lost or released');
    },
  });
  await lease.tryAcquire();
  return lease;
}
