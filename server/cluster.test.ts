import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { workersRefusal } from './cluster';

/**
 * The cluster primary (server/cluster.ts) with stand-in workers (server/test/support/multiprocess-*.fixture.ts): every
 * worker serves the one port, a killed worker is replaced, SIGHUP replaces them one at a time while the port keeps
 * answering, SIGTERM stops them all and exits 0, workers that cannot start stop the primary with exit 1. The real
 * server in a cluster under load: server/test/multiprocess.redis.test.ts.
 */
// Each worker is a fresh Node process compiling TypeScript through tsx: several seconds each on a busy CI machine,
// and the longest test starts six of them one after another (it took more than 60 s in CI during the PostgreSQL suite).
jest.setTimeout(180_000);
const ROOT = path.resolve(__dirname, '..');

test('several workers need PostgreSQL and Redis; one process needs neither', () => {
  expect(workersRefusal({ workers: 1, databaseUrl: null, redisUrl: null })).toBeNull();
  expect(workersRefusal({ workers: 2, databaseUrl: null, redisUrl: 'redis://r' })).toBe(
    'WORKERS=2 needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL): SQLite has one writer; start one process or set them',
  );
  expect(workersRefusal({ workers: 3, databaseUrl: 'postgres://p/db', redisUrl: null })).toBe(
    'WORKERS=3 needs Redis (REDIS_URL): rate limits, login lockouts and socket rooms are shared through it; start one process or set REDIS_URL',
  );
  expect(workersRefusal({ workers: 64, databaseUrl: 'postgres://p/db', redisUrl: 'redis://r' })).toBeNull();
});

interface Primary { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> }
const running: Primary[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  }
});

function startPrimary(env: Record<string, string> = {}): Primary {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/support/multiprocess-primary.fixture.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', WORKERS: '2', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const p = { child, out: () => out, err: () => err, exited };
  running.push(p);
  return p;
}

async function until<T>(check: () => T | Promise<T>, what: string, ms = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The primary's children that run the worker fixture. Matched on the command line, not the command name: Node 24 names
// its main thread MainThread (ps shows that as the command), and the primary has another child, tsx's esbuild service,
// whenever it has compiled something lazily (seen in CI: three children, one of them esbuild).
const workerPids = (ppid: number): number[] =>
  spawnSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(ppid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, stat, ...args]) => pid && !stat?.startsWith('Z') && args.some((a) => a.endsWith('multiprocess-worker.fixture.ts')))
    .map(([pid]) => Number(pid))
    .sort();

/** The pid of the worker that answered a fresh connection. */
// Bounded: a connection the cluster drops without an answer fails the test by name instead of hanging it.
const served = async (url: string): Promise<number> =>
  Number(await (await fetch(url, { headers: { connection: 'close' }, signal: AbortSignal.timeout(15_000) })).text());


test('workers share one port; a killed one is replaced; SIGHUP replaces them one at a time while the port answers; SIGTERM exits 0', async () => {
  const primary = startPrimary();
  const url = await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(primary.out())?.[1], 'the primary to listen');
  const pid = primary.child.pid as number;
  const first = workerPids(pid);
  expect(first).toHaveLength(2);
  // Both workers take connections on the one port.
  const seen = new Set<number>();
  await until(async () => (seen.add(await served(url)), seen.size === 2), 'both workers to answer');
  expect([...seen].sort()).toEqual(first);

  // A worker that dies is replaced.
  process.kill(first[0], 'SIGKILL');
  await until(() => new RegExp(`Worker ${first[0]} exited unexpectedly \\(SIGKILL\\): starting another`).test(primary.err()), 'the replacement line');
  const replaced = await until(() => {
    const now = workerPids(pid);
    return now.length === 2 && !now.includes(first[0]) ? now : null;
  }, 'a replacement worker');
  expect(replaced).toContain(first[1]);

  // Rolling restart: the port answers throughout, and afterwards only new workers serve it.
  let answering = true;
  let answered = 0;
  const failures: string[] = [];
  const poll = (async () => {
    while (answering) {
      try {
        await served(url);
        answered++;
      } catch (e) {
        failures.push(String(e));
      }
    }
  })();
  primary.child.kill('SIGHUP');
  await until(() => /Rolling restart done: 2 workers/.test(primary.err()), 'the rolling restart');
  answering = false;
  await poll;
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(0);
  const after = workerPids(pid);
  expect(after).toHaveLength(2);
  expect(after.filter((p) => replaced.includes(p))).toEqual([]);
  expect(primary.err()).toMatch(/^Worker \d+ exited unexpectedly \(SIGKILL\): starting another\nRolling restart of 2 workers\nRolling restart done: 2 workers\n$/);

  primary.child.kill('SIGTERM');
  expect(await primary.exited).toBe(0);
  expect(after.filter((p) => spawnSync('kill', ['-0', String(p)]).status === 0)).toEqual([]);
});

test('workers that cannot start stop the primary with exit 1', async () => {
  const primary = startPrimary({ FAIL_START: '1' });
  expect(await primary.exited).toBe(1);
  expect(primary.err()).toMatch(/Cannot start: worker \d+ exited before listening \(code 1\)/);
});

test('a rolling restart whose new worker cannot start stops there and leaves the old workers serving', async () => {
  const flag = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-cluster-')), 'fail');
  const primary = startPrimary({ FAIL_START_IF: flag });
  const url = await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(primary.out())?.[1], 'the primary to listen');
  const pid = primary.child.pid as number;
  const before = workerPids(pid);
  fs.writeFileSync(flag, '');
  primary.child.kill('SIGHUP');
  await until(() => /Rolling restart stopped: the new worker \d+ exited before listening \(code 1\); the old workers keep serving/.test(primary.err()), 'the restart to stop');
  expect(primary.err()).not.toMatch(/starting another/);
  expect(workerPids(pid)).toEqual(before);
  expect(before).toContain(await served(url));

  // The next SIGHUP, with workers able to start again, goes through.
  fs.rmSync(flag);
  primary.child.kill('SIGHUP');
  await until(() => /Rolling restart done: 2 workers/.test(primary.err()), 'the rolling restart');
  expect(workerPids(pid).filter((p) => before.includes(p))).toEqual([]);
  primary.child.kill('SIGTERM');
  expect(await primary.exited).toBe(0);
  fs.rmSync(path.dirname(flag), { recursive: true, force: true });
});
