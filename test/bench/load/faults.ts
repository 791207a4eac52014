/**
 * The `--faults` variant of the day of load (issue 43, docs/operations.md "Without Redis, and other faults"): four
 * faults under the crowd, each in its own minute of the measured window, so each has a quiet "before" and "after".
 * run.ts (H1's) runs them: start() at `atS`, end() `durationS` after start() returned, then it measures the recovery
 * (every probe, /readyz and a transfer, green from then on). What each one does to the machine:
 *
 * - PostgreSQL restarted: `pg_ctlcluster ... restart` of the shared cluster (every connection ended, a few seconds
 *   refusing). The app answers 503 SERVICE_UNAVAILABLE meanwhile, /readyz names the database.
 * - Redis stopped for 30 s, then started again with CI's own command (.ci/run) on 6379 with no persistence: the app's
 *   rate limits count per process meanwhile, /readyz names Redis, broadcasts reach only the sending process's sockets.
 * - One worker SIGKILLed: the primary forks a replacement (server/cluster.ts); the other worker serves meanwhile.
 * - The game provider silent for 30 s: the simulator's silence file (GAME_SIM_SILENT_FILE) exists, so its calls time
 *   out after 2 s and then its breaker refuses them at once: transfers answer 202 IN_PROGRESS, the reconciler settles.
 *
 * These stop the machine's shared PostgreSQL and Redis: run the variant only where nothing else needs them then.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { FaultStep, LoadContext } from './run';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function run(cmd: string, args: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd} ${args.join(' ')}: ${err.message} ${stderr}`.trim())) : resolve(stdout)));
  });
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 60_000): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(100);
  }
  return Date.now() - t0;
}

const pgVersion = () => fs.readdirSync('/etc/postgresql').sort().at(-1) as string;
const pgReady = () => run('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q'], 5000).then(() => true, () => false);

const REDIS_PORT = 6379;
/** CI's command (.ci/run "services"), as DESIGN-43.md gives it. */
const REDIS_START = ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', String(REDIS_PORT), '--save', '', '--appendonly', 'no', '--dir', '/var/lib/redis', '--logfile', '/var/log/redis/ci.log'];
async function redisUp(): Promise<boolean> {
  const r = new Redis({ host: '127.0.0.1', port: REDIS_PORT, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/**
 * The silence file the game simulator checks (GAME_SIM_SILENT_FILE). run.ts starts the app with the bench's own
 * environment, so setting it here, when the schedule is made (before the app starts), hands it to every worker.
 */
function silenceFile(): string {
  if (!process.env.GAME_SIM_SILENT_FILE) process.env.GAME_SIM_SILENT_FILE = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-load-faults-')), 'game-sim-silent');
  return process.env.GAME_SIM_SILENT_FILE;
}

export function faultSchedule(): FaultStep[] {
  const silent = silenceFile();
  let pgRestart: Promise<number> | null = null;
  let killed: { pid: number; at: number; others: number[] } | null = null;
  let redisStoppedAt = 0;
  return [
    {
      name: 'PostgreSQL restarted',
      atS: 30,
      // The restart runs in the first seconds of this window; end() waits for it and for the server to accept.
      durationS: 10,
      async start(ctx: LoadContext) {
        const t0 = Date.now();
        ctx.log(`pg_ctlcluster --skip-systemctl-redirect ${pgVersion()} main restart`);
        pgRestart = run('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion(), 'main', 'restart']).then(() => Date.now() - t0);
        pgRestart.catch(() => undefined);
      },
      async end(ctx: LoadContext) {
        const ms = await (pgRestart as Promise<number>);
        await until(pgReady, 'PostgreSQL accepting connections');
        ctx.log(`PostgreSQL restart took ${(ms / 1000).toFixed(1)} s`);
      },
    },
    {
      name: 'Redis stopped 30 s',
      atS: 90,
      durationS: 30,
      async start(ctx: LoadContext) {
        ctx.log(`redis-cli -p ${REDIS_PORT} shutdown nosave`);
        // The server closes the connection as it exits: the command's own "error" is the expected answer.
        await run('redis-cli', ['-h', '127.0.0.1', '-p', String(REDIS_PORT), 'shutdown', 'nosave']).catch(() => undefined);
        await until(async () => !(await redisUp()), 'Redis to stop', 10_000);
        redisStoppedAt = Date.now();
      },
      async end(ctx: LoadContext) {
        await run('redis-server', REDIS_START);
        const ms = await until(redisUp, 'Redis to answer again', 30_000);
        ctx.log(`Redis down ${((Date.now() - redisStoppedAt) / 1000).toFixed(1)} s; answering ${ms} ms after redis-server started`);
      },
    },
    {
      name: 'a worker SIGKILLed',
      atS: 150,
      durationS: 10,
      async start(ctx: LoadContext) {
        const pids = ctx.workerPids();
        if (!pids.length) throw new Error('no worker to kill');
        killed = { pid: pids[0], at: Date.now(), others: pids.slice(1) };
        ctx.log(`kill -KILL worker ${pids[0]} (workers ${pids.join(', ')})`);
        process.kill(pids[0], 'SIGKILL');
        const ms = await until(() => ctx.workerPids().filter((p) => p !== killed!.pid).length >= pids.length, 'a replacement worker', 30_000);
        ctx.log(`replacement worker ${ctx.workerPids().filter((p) => p !== killed!.pid && !killed!.others.includes(p)).join(', ')} forked ${ms} ms after the kill`);
      },
      async end(ctx: LoadContext) {
        if (!killed) return;
        const now = ctx.workerPids();
        ctx.log(`workers now ${now.join(', ')} (${now.includes(killed.pid) ? 'the killed one is still there' : 'the killed one is gone'})`);
      },
    },
    {
      name: 'game provider silent 30 s',
      atS: 210,
      durationS: 30,
      async start(ctx: LoadContext) {
        fs.writeFileSync(silent, '');
        ctx.log(`touch ${silent} (the simulator answers nothing)`);
      },
      async end(ctx: LoadContext) {
        fs.rmSync(silent, { force: true });
        ctx.log(`rm ${silent} (the simulator answers again)`);
      },
    },
  ];
}
