/**
 * WORKERS=N npm start (N > 1): one primary process and N workers serving the same port (node:cluster shares the
 * listening socket; docs/operations.md "Several processes"). The primary prepares the database before forking and
 * serves nothing itself. It replaces a worker that dies unexpectedly, stops every worker gracefully on SIGTERM or
 * SIGINT (exit 0 when they are done), and on SIGHUP restarts them one at a time: a new worker first, the old one
 * closed gracefully (server/server.ts) once the new one listens, so the port never lacks a process.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config';

/** The message a worker sends once it listens (its URL: the real port, also for PORT=0). */
export const READY_MESSAGE = 'wallet:ready';
/** The message the primary sends a worker to close it gracefully (server/server.ts). */
export const CLOSE_MESSAGE = 'wallet:close';

/** How long the primary waits for a closing worker before killing it (its own close gives up after 10 s). */
const WORKER_CLOSE_TIMEOUT_MS = 15_000;
/** A worker that dies before listening this many times in a row: the primary gives up (a crash loop). */
const MAX_FAILED_STARTS = 5;

/**
 * Why this configuration cannot run several processes, as the one line to print, or null when it can.
 * SQLite has one writer; rate limits, login lockouts and socket.io rooms are shared only through Redis.
 */
export function workersRefusal(config: Pick<Config, 'workers' | 'databaseUrl' | 'redisUrl'>): string | null {
  if (config.workers <= 1) return null;
  const n = config.workers;
  if (!config.databaseUrl) {
    return `WORKERS=${n} needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL): SQLite has one writer; start one process or set them`;
  }
  if (!config.redisUrl) {
    return `WORKERS=${n} needs Redis (REDIS_URL): rate limits, login lockouts and socket rooms are shared through it; start one process or set REDIS_URL`;
  }
  return null;
}

export interface ReadyMessage {
  type: typeof READY_MESSAGE;
  url: string;
}

function isReady(message: unknown): message is ReadyMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === READY_MESSAGE;
}

type Log = (line: string) => void;

/**
 * Runs the primary: forks `count` workers (cluster.setupPrimary decides what they run: by default this same
 * script, which must call startWorker when cluster.isWorker). Resolves with the URL once every worker listens;
 * rejects (after stopping the others) when a worker dies before listening at the start.
 */
export async function runPrimary(count: number, log: Log = (l) => console.error(l)): Promise<{ url: string }> {
  const workers = new Set<Worker>();
  /** Workers being closed on purpose (shutdown, rolling restart): their exit is not replaced. */
  const retiring = new Set<Worker>();
  let shuttingDown = false;
  let rolling = false;
  let failedStarts = 0;

  /** replaceEarlyDeath: false for a rolling restart's new worker, whose failed start stops the restart instead. */
  const fork = (replaceEarlyDeath = true): { worker: Worker; ready: Promise<string> } => {
    const worker = cluster.fork();
    workers.add(worker);
    // A message to a worker that is exiting fails (EPIPE, channel closed): its exit is handled below, so the
    // failed write must not become an unhandled 'error' that kills the primary (seen when a start failed).
    worker.on('error', (err: Error) => log(`Worker ${worker.process.pid}: ${err.message}`));
    let listening = false;
    const ready = new Promise<string>((resolve, reject) => {
      worker.on('message', (message: unknown) => {
        if (!isReady(message) || listening) return;
        listening = true;
        failedStarts = 0;
        resolve(message.url);
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        const wasRetiring = retiring.delete(worker);
        if (!listening) reject(new Error(`worker ${worker.process.pid} exited before listening (${signal ?? `code ${code}`})`));
        if (shuttingDown || wasRetiring || (!listening && !replaceEarlyDeath)) return;
        if (!listening && ++failedStarts >= MAX_FAILED_STARTS) {
          log(`Worker ${worker.process.pid} exited before listening ${failedStarts} times in a row: stopping`);
          void shutdown(1);
          return;
        }
        log(`Worker ${worker.process.pid} exited unexpectedly (${signal ?? `code ${code}`}): starting another`);
        // A worker that died before listening (startup failure) is retried after a pause, not in a tight loop.
        setTimeout(() => {
          if (!shuttingDown) fork().ready.catch(() => undefined);
        }, listening ? 0 : 1000);
      });
    });
    // Handled here too: a worker stopped before listening (a failed start, a shutdown) must not crash the primary.
    ready.catch(() => undefined);
    return { worker, ready };
  };

  /** Asks a worker to close gracefully; resolves on its exit (killed if it takes too long). */
  const retire = (worker: Worker): Promise<void> =>
    new Promise((resolve) => {
      if (worker.isDead()) return resolve();
      retiring.add(worker);
      const timer = setTimeout(() => {
        log(`Worker ${worker.process.pid} did not close in ${WORKER_CLOSE_TIMEOUT_MS / 1000} s: killing it`);
        worker.process.kill('SIGKILL');
      }, WORKER_CLOSE_TIMEOUT_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      const terminate = () => {
        if (!worker.isDead()) worker.process.kill('SIGTERM');
      };
      if (worker.isConnected()) worker.send(CLOSE_MESSAGE, undefined, undefined, (err: Error | null) => err && terminate());
      else terminate();
    });

  const shutdown = async (code: number): Promise<void> => {
    if (shuttingDown) return;
    shuttingDown = true;
    await Promise.all([...workers].map(retire));
    process.exit(code);
  };

  const rollingRestart = async (): Promise<void> => {
    if (rolling || shuttingDown) {
      log('Rolling restart already under way or shutting down: SIGHUP ignored');
      return;
    }
    rolling = true;
    const old = [...workers];
    log(`Rolling restart of ${old.length} workers`);
    try {
      for (const worker of old) {
        if (shuttingDown) return;
        const next = fork(false);
        try {
          await next.ready;
        } catch (e) {
          log(`Rolling restart stopped: the new ${(e as Error).message}; the old workers keep serving`);
          return;
        }
        if (shuttingDown) return;
        await retire(worker);
      }
      log(`Rolling restart done: ${workers.size} workers`);
    } finally {
      rolling = false;
    }
  };

  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGHUP', () => void rollingRestart());

  const started = Array.from({ length: count }, () => fork());
  try {
    const urls = await Promise.all(started.map((s) => s.ready));
    return { url: urls[0] };
  } catch (e) {
    shuttingDown = true;
    await Promise.all([...workers].map(retire));
    throw e;
  }
}

/** In a worker: tells the primary it listens (the primary prints the start lines once). */
export function reportReady(url: string): void {
  const message: ReadyMessage = { type: READY_MESSAGE, url };
  process.send?.(message);
}
