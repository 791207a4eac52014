/**
 * "A day of load" (issue 43, docs/operations.md "A day of load"): the app as WORKERS=2 through its real entry
 * (server/start.ts, cluster mode) on a PostgreSQL database and a Redis db index of its own, under a crowd of
 * simulated players (players.ts, a child process). Players arrive (each a real POST /api/login) over a ramp, then
 * the measured window runs `durationS` seconds with all of them in; in the middle of it the primary gets a SIGHUP (a
 * rolling restart), or, with `faults`, H2's fault steps run at their times. After it: every 2xx money answer is
 * looked up in the database, the system accounts are held against what the bench put in and took out, the ledger
 * audit runs, and each process's CPU and memory (from /proc) is printed.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Redis } from 'ioredis';
import { createDb, nowIso } from '../../../server/db';
import { migrateToLatest } from '../../../server/db/migrate';
import { seedBase } from '../../../server/db/seed';
import { creditWallet } from '../../../server/ledger/journal';
import { runAudit } from '../../../server/ledger/audit';
import { hashPassword } from '../../../server/lib/password';
import { ROOT } from '../../e2e/harness';
import { cpuTimeMs } from '../server';
import type { LoadPlan, MoneyRecord, PushStats, Sample, ToChild, ToParent } from './protocol';
import {
  P99_GOAL_MS,
  errorsByRouteAndStatus,
  processTable,
  pushLine,
  routeFigures,
  routeTable,
  windowFigure,
  type GrowthPoint,
  type ProcessFigure,
  type RouteFigure,
  type WindowFigure,
} from './report';

export interface FaultStep {
  name: string;
  atS: number;
  durationS: number;
  start(ctx: LoadContext): Promise<void>;
  end(ctx: LoadContext): Promise<void>;
}

export interface LoadContext {
  url: string;
  primaryPid: number;
  workerPids(): number[];
  env: Record<string, string>;
  log(line: string): void;
}

export interface FaultWindows {
  name: string;
  windows: WindowFigure[];
  /** Seconds from end() until every probe (/readyz and a transfer) succeeds from then on; null: never within 60 s. */
  recoveryS: number | null;
}

export interface LoadReport {
  ok: boolean;
  lines: string[];
  players: number;
  durationS: number;
  routes: RouteFigure[];
  errors: number;
  push: PushStats;
  moneyOk: boolean;
  auditOk: boolean;
  processes: ProcessFigure[];
  growth: GrowthPoint;
  faults: FaultWindows[];
}

const PASSWORD = 'load-pass-1';
const GAME = 'pg';
const OPENING_SATANG = 10_000_00;
const WEBHOOK_SECRET = `whsec-load-${crypto.randomBytes(8).toString('hex')}`;
/** The Redis db index of this phase (flushed at its start: FLUSHDB on that index only). */
const REDIS_DB = Number(process.env.LOAD_REDIS_DB || 11);
const HANG_MS = 5000;
/** Logins a second in the ramp: each costs ~130 ms of scrypt (server/lib/password.ts), so 8/s is ~1 core. */
const LOGINS_PER_SECOND = Number(process.env.LOAD_LOGINS_PER_SECOND || 8);

/** The tree the app runs from: this checkout, or LOAD_APP_ROOT (e.g. a copy of one commit while the checkout is edited). */
const APP_ROOT = process.env.LOAD_APP_ROOT || ROOT;
const pgBase = () => process.env.DATABASE_URL || process.env.CI_DATABASE_URL || 'postgres://root@127.0.0.1:5432/test';
const redisBase = () => process.env.REDIS_URL || process.env.CI_REDIS_URL || 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** A database of its own on DATABASE_URL's server (never the `test` database's public schema). */
function freshDatabase(): { url: string; drop(): void } {
  const base = new URL(pgBase());
  const name = `load_${process.pid}_${Date.now()}`;
  execFileSync('psql', [base.toString(), '-qc', `CREATE DATABASE ${name}`]);
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => execFileSync('psql', [base.toString(), '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], { stdio: 'ignore' }) };
}

function redisUrl(): string {
  const u = new URL(redisBase());
  u.pathname = `/${REDIS_DB}`;
  return u.toString();
}

/** Migrates, seeds, and adds `n` players (a password, OPENING_SATANG on the wallet, a bank account), in bulk. */
async function seed(databaseUrl: string, dataDir: string, n: number): Promise<{ id: number; phone: string }[]> {
  const database = createDb({ databaseUrl, dataDir, poolMax: 8 });
  try {
    await migrateToLatest(database.db);
    await seedBase(database.db);
    const hash = await hashPassword(PASSWORD);
    const now = nowIso();
    const players: { id: number; phone: string }[] = [];
    for (let from = 0; from < n; from += 500) {
      const rows = Array.from({ length: Math.min(500, n - from) }, (_, k) => {
        const i = from + k;
        return {
          phone: `09${String(10_000_000 + i).slice(-8)}`,
          name: `Load ${i}`,
          password_hash: hash,
          bank_code: 'SCB',
          bank_account_name: 'LOAD PLAYER',
          bank_account_no: String(6_000_000_000 + i),
          currency: 'THB' as const,
          source_code: null,
          inviter_id: null,
          status: 'active' as const,
          coin: 0,
          created_at: now,
          updated_at: now,
        };
      });
      const ids = await database.db.insertInto('players').values(rows).returning(['id', 'phone']).execute();
      players.push(...ids.map((r) => ({ id: Number(r.id), phone: r.phone })));
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < players.length) {
          const p = players[next++];
          await database.db.transaction().execute((trx) => creditWallet(trx, { playerId: p.id, amount: OPENING_SATANG, from: 'demo_float', kind: 'demo_opening', reference: `load:opening:${p.id}` }));
        }
      }),
    );
    return players;
  } finally {
    await database.destroy();
  }
}

/** The node children of a process (the cluster's workers). */
function childPids(ppid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // The cluster's workers, not tsx's esbuild service (also a child of the primary).
      if (Number(fields[1]) === ppid && stat.includes('(node)')) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

interface Tracked {
  role: string;
  pid: number;
  cpuAtStart: number | null;
  cpuLast: number;
  cpuAtEnd: number | null;
  rss: number;
  maxRss: number;
}

/** Samples CPU and RSS of the primary, its workers (old and new) and the load generator every 500 ms. */
function processSampler(primary: number, generator: number) {
  const tracked = new Map<number, Tracked>();
  let windowOpen = false;
  let workerSeq = 0;
  const sample = () => {
    const pids: [number, string][] = [
      [primary, 'primary'],
      [generator, 'load generator'],
      ...childPids(primary).map((p): [number, string] => [p, '']),
    ];
    for (const [pid, role] of pids) {
      const cpu = cpuTimeMs(pid);
      const rss = rssMb(pid);
      if (cpu === null || rss === null) continue;
      let t = tracked.get(pid);
      if (!t) {
        t = { role: role || `worker ${++workerSeq}`, pid, cpuAtStart: windowOpen ? 0 : null, cpuLast: cpu, cpuAtEnd: null, rss, maxRss: rss };
        tracked.set(pid, t);
      }
      t.cpuLast = cpu;
      t.rss = rss;
      t.maxRss = Math.max(t.maxRss, rss);
    }
  };
  sample();
  const timer = setInterval(sample, 500);
  return {
    windowStart() {
      sample();
      windowOpen = true;
      for (const t of tracked.values()) t.cpuAtStart = t.cpuLast;
    },
    windowEnd() {
      sample();
      for (const t of tracked.values()) t.cpuAtEnd = fs.existsSync(`/proc/${t.pid}`) ? t.cpuLast : null;
      windowOpen = false;
    },
    stop: () => clearInterval(timer),
    figures(seconds: number): ProcessFigure[] {
      return [...tracked.values()]
        .filter((t) => t.cpuAtStart !== null)
        .map((t) => {
          const cpuMs = (t.cpuAtEnd ?? t.cpuLast) - (t.cpuAtStart ?? 0);
          return { role: t.role + (t.cpuAtEnd === null ? ' (retired)' : ''), pid: t.pid, cpuMs, cpuShare: cpuMs / 1000 / seconds, rssMb: t.rss, maxRssMb: t.maxRss };
        });
    },
  };
}

interface App {
  proc: ChildProcess;
  url: string;
  err: () => string;
  stop(): Promise<number | null>;
}

function startApp(env: NodeJS.ProcessEnv, nodeArgs: string[]): Promise<App> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/start.ts'], { cwd: APP_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the app did not start within 90 s:\n${out}\n${err}`));
    }, 90_000);
    proc.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    proc.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          proc,
          url: `http://127.0.0.1:${m[1]}`,
          err: () => err,
          stop: () => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
            setTimeout(() => proc.kill('SIGKILL'), 20_000).unref();
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (${code}) before it listened:\n${out}\n${err}`));
    });
  });
}

/** A probe player's transfer and /readyz, every 250 ms from `end()` for at most 60 s: seconds until they stay green (3 s). */
async function recovery(url: string, token: string): Promise<number | null> {
  const t0 = Date.now();
  let greenSince: number | null = null;
  while (Date.now() - t0 < 60_000) {
    const probe = async () => {
      try {
        const [ready, transfer] = await Promise.all([
          fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }),
          fetch(`${url}/api/wallet/transfer`, {
            method: 'POST',
            signal: AbortSignal.timeout(2000),
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
            body: JSON.stringify({ from: 'WALLET', to: GAME, amount: 1 }),
          }),
        ]);
        await Promise.all([ready.arrayBuffer(), transfer.arrayBuffer()]);
        return ready.ok && transfer.ok;
      } catch {
        return false;
      }
    };
    const at = Date.now();
    if (await probe()) {
      greenSince ??= at;
      if (Date.now() - greenSince >= 3000) return (greenSince - t0) / 1000;
    } else greenSince = null;
    await sleep(250);
  }
  return null;
}

interface MoneyCheck {
  ok: boolean;
  lines: string[];
}

/** Answers 202 (IN_PROGRESS) are finished by the app's reconciler: waits (at most 30 s) for none to be pending. */
async function settled(databaseUrl: string, dataDir: string): Promise<number> {
  const database = createDb({ databaseUrl, dataDir, poolMax: 1 });
  try {
    for (let i = 0; ; i++) {
      const { n } = await database.db.selectFrom('game_transfers').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
      if (Number(n) === 0 || i >= 60) return Number(n);
      await sleep(500);
    }
  } finally {
    await database.destroy();
  }
}

/** Every 2xx money answer against the database; the outside money against what the bench put in and took out. */
async function moneyCheck(databaseUrl: string, dataDir: string, money: MoneyRecord[], players: number): Promise<MoneyCheck & { auditOk: boolean }> {
  const database = createDb({ databaseUrl, dataDir, poolMax: 4 });
  const { db } = database;
  const lines: string[] = [];
  try {
    const missing: string[] = [];
    const chunks = <T>(xs: T[]) => Array.from({ length: Math.ceil(xs.length / 1000) }, (_, i) => xs.slice(i * 1000, i * 1000 + 1000));
    const transfers = money.filter((m) => m.kind === 'transfer');
    for (const part of chunks(transfers)) {
      const rows = await db.selectFrom('game_transfers').select(['id', 'player_id', 'direction', 'amount', 'status']).where('id', 'in', part.map((t) => t.id)).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const t of part) {
        const r = byId.get(t.id);
        if (!r || Number(r.player_id) !== t.playerId || r.direction !== t.direction || Number(r.amount) !== t.amount || r.status !== 'settled') {
          missing.push(`transfer ${t.id} (${t.status}) ${r ? `is ${r.status} ${r.direction} ${r.amount}` : 'not found'}`);
        }
      }
    }
    const withdrawals = money.filter((m) => m.kind === 'withdrawal');
    for (const part of chunks(withdrawals)) {
      const rows = await db.selectFrom('withdrawals').select(['id', 'player_id', 'amount', 'status']).where('id', 'in', part.map((w) => w.id)).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const w of part) {
        const r = byId.get(w.id);
        if (!r || Number(r.player_id) !== w.playerId || Number(r.amount) !== w.amount || r.status === 'FAILED') missing.push(`withdrawal ${w.id} ${r ? `is ${r.status} ${r.amount}` : 'not found'}`);
      }
    }
    const deposits = money.filter((m) => m.kind === 'deposit');
    for (const part of chunks(deposits)) {
      const rows = await db.selectFrom('qr_deposits').select(['id', 'player_id', 'status', 'paid_amount', 'paid_event_id']).where('id', 'in', part.map((d) => d.qrId)).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const d of part) {
        const r = byId.get(d.qrId);
        if (!r || Number(r.player_id) !== d.playerId || r.status !== 'PAID' || Number(r.paid_amount) !== d.amount || r.paid_event_id !== d.eventId) missing.push(`deposit ${d.qrId} ${r ? `is ${r.status} ${r.paid_amount}` : 'not found'}`);
      }
    }
    lines.push(
      `2xx money answers in the database: ${transfers.length} transfers, ${deposits.length} credited webhooks, ${withdrawals.length} withdrawals -> ${missing.length === 0 ? 'all there' : `${missing.length} MISSING OR DIFFERENT: ${missing.slice(0, 5).join('; ')}`}`,
    );

    // Nothing created: the money that came from outside is what the bench put in and took out, and all accounts sum to 0.
    const sums = await db
      .selectFrom('ledger_accounts')
      .select(['kind', sql<string>`split_part(code, ':', 1)`.as('name'), (eb) => eb.fn.sum<number>('balance').as('total')])
      .groupBy(['kind', sql`split_part(code, ':', 1)`])
      .execute();
    const of = (name: string) => Number(sums.find((s) => s.name === name)?.total ?? 0);
    const all = sums.reduce((s, r) => s + Number(r.total), 0);
    const opening = players * OPENING_SATANG;
    const credited = deposits.reduce((s, d) => s + d.amount, 0);
    const withdrawn = withdrawals.reduce((s, w) => s + w.amount, 0);
    const checks: [string, number, number][] = [
      ['all accounts (wallets + games + system)', all, 0],
      ['demo_float (the openings)', of('demo_float'), -opening],
      ['deposits_in_transit (the credited webhooks)', of('deposits_in_transit'), -credited],
      ['payouts_in_transit + payouts_paid (the withdrawals)', of('payouts_in_transit') + of('payouts_paid'), withdrawn],
    ];
    const bad = checks.filter(([, got, want]) => got !== want);
    const playersTotal = of('wallet') + of('game');
    lines.push(
      `money: ${checks.map(([what, got, want]) => `${what} ${fmt(got / 100, 2)}${got === want ? '' : ` (expected ${fmt(want / 100, 2)})`}`).join('; ')}; ` +
        `players' wallets + games ${fmt(playersTotal / 100, 2)} baht -> ${bad.length === 0 ? 'nothing created' : 'MONEY DOES NOT ADD UP'}`,
    );
    const audit = await runAudit(db);
    lines.push(`ledger audit (server/ledger/audit.ts runAudit) after the run: ${audit.ok ? `clean (${audit.stats.entries} entries, ${audit.stats.postings} postings)` : `FAILED: ${audit.violations.slice(0, 5).join('; ')}`}`);
    return { ok: missing.length === 0 && bad.length === 0, auditOk: audit.ok, lines };
  } finally {
    await database.destroy();
  }
}

export async function runLoad(opts: {
  players: number;
  durationS: number;
  workers: number;
  faults?: FaultStep[];
  /** Seconds over which the players arrive (log in) before the window; players / LOAD_LOGINS_PER_SECOND by default. */
  rampS?: number;
  /** Node flags of the app's primary, which node:cluster hands its workers (execArgv), e.g. --cpu-prof --cpu-prof-dir=... (not allowed in NODE_OPTIONS). */
  appNodeArgs?: string[];
}): Promise<LoadReport> {
  const { players: n, durationS, workers } = opts;
  const faults = opts.faults ?? [];
  const rampS = opts.rampS ?? Math.max(10, Math.round(n / LOGINS_PER_SECOND));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-load-'));
  const dataDir = path.join(tmp, 'data');
  const dist = path.join(tmp, 'dist');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>load</title>');
  const lines: string[] = [];
  const log = (line: string) => console.error(`[load] ${line}`);
  const database = freshDatabase();
  let app: App | null = null;
  let gen: ChildProcess | null = null;
  try {
    const redis = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.flushdb();
    await redis.quit();
    const t0 = Date.now();
    const players = await seed(database.url, dataDir, n + 1);
    const probePlayer = players.pop()!;
    log(`seeded ${n} players in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const base = { ...process.env };
    for (const k of ['DATABASE_URL', 'REDIS_URL', 'PAYMENT_WEBHOOK_SECRET', 'JWT_SECRET', 'GAME_SECRET_KEY', 'PORT', 'NODE_ENV', 'WORKERS', 'RATE_LIMIT_PER_MINUTE']) delete base[k];
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl(),
      WORKERS: String(workers),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: dist,
      SKIP_SPA_BUILD: '1',
      DEMO: '1',
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      JWT_SECRET: `load-${crypto.randomBytes(16).toString('hex')}`,
      // Its own socket.io channel on the shared Redis (pub/sub channels are not per db index).
      CHAT_PREFIX: `load${crypto.randomBytes(3).toString('hex')}`,
      // A provider in the same region answers in ~20 ms (the demo default is 150 ms, a feel for the UI).
      GAME_SIM_LATENCY_MS: process.env.LOAD_GAME_LATENCY_MS || '20',
      LOG_LEVEL: 'warn',
    };
    app = await startApp({ ...base, ...env } as NodeJS.ProcessEnv, opts.appNodeArgs ?? []);
    const url = app.url;
    const primaryPid = app.proc.pid!;
    log(`app up at ${url}: primary ${primaryPid}, workers ${childPids(primaryPid).join(', ')}`);

    const probeToken = await (async () => {
      const r = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: probePlayer.phone, password: PASSWORD }) });
      const token = ((await r.json()) as { token: string }).token;
      await fetch(`${url}/api/wallet/activate/${GAME}`, { headers: { authorization: `Bearer ${token}` } }).then((x) => x.arrayBuffer());
      return token;
    })();

    gen = fork(path.join(__dirname, 'players.ts'), [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    const sampler = processSampler(primaryPid, gen.pid!);
    const ctx: LoadContext = { url, primaryPid, workerPids: () => childPids(primaryPid), env, log };
    const plan: LoadPlan = { url, players, password: PASSWORD, game: GAME, webhookSecret: WEBHOOK_SECRET, rampS, durationS, thinkMeanS: Number(process.env.LOAD_THINK_S || 8), hangMs: HANG_MS };
    const hup: { at: number; doneAt: number | null } = { at: 0, doneAt: null };
    let windowStartAt = 0;
    const faultRuns: { step: FaultStep; recovery: Promise<number | null> }[] = [];
    const timers: NodeJS.Timeout[] = [];
    const done = new Promise<Extract<ToParent, { type: 'done' }>>((resolve, reject) => {
      gen!.on('message', (m: ToParent) => {
        if (m.type === 'window-start') {
          windowStartAt = m.at;
          sampler.windowStart();
          log(`all ${n} players in; the measured window (${durationS} s) starts`);
          timers.push(setTimeout(() => sampler.windowEnd(), durationS * 1000));
          if (faults.length === 0) {
            timers.push(
              setTimeout(() => {
                hup.at = Date.now();
                log('kill -HUP the primary (rolling restart)');
                process.kill(primaryPid, 'SIGHUP');
                const watch = setInterval(() => {
                  if (/Rolling restart done/.test(app!.err())) {
                    hup.doneAt = Date.now();
                    clearInterval(watch);
                    log(`rolling restart done in ${((hup.doneAt - hup.at) / 1000).toFixed(1)} s`);
                  }
                }, 100);
                timers.push(watch);
              }, (durationS * 1000) / 2),
            );
          }
          for (const step of faults) {
            let resolveRecovery!: (v: number | null) => void;
            faultRuns.push({ step, recovery: new Promise((r) => (resolveRecovery = r)) });
            timers.push(
              setTimeout(() => {
                log(`fault "${step.name}" starts`);
                void step
                  .start(ctx)
                  .catch((e: unknown) => log(`fault "${step.name}" start failed: ${(e as Error).message}`))
                  .then(() => sleep(step.durationS * 1000))
                  .then(() => step.end(ctx))
                  .catch((e: unknown) => log(`fault "${step.name}" end failed: ${(e as Error).message}`))
                  .then(() => log(`fault "${step.name}" ends`))
                  .then(() => recovery(url, probeToken))
                  .then(resolveRecovery, () => resolveRecovery(null));
              }, step.atS * 1000),
            );
          }
        } else if (m.type === 'done') resolve(m);
      });
      gen!.once('exit', (code) => reject(new Error(`the load generator exited (${code}) before it reported`)));
    });
    gen.send({ type: 'plan', plan } satisfies ToChild);
    const result = await done;
    timers.forEach((t) => clearTimeout(t));
    sampler.windowEnd();
    sampler.stop();
    const recoveries = await Promise.all(faultRuns.map((f) => f.recovery));

    const windowMs = durationS * 1000;
    const samples: Sample[] = result.samples;
    const restart: [number, number] | null = hup.at ? [hup.at - windowStartAt, (hup.doneAt ?? Date.now()) + 5000 - windowStartAt] : null;
    const routes = routeFigures(result.routes, samples, 0, windowMs, restart);
    const errors = routes.reduce((s, r) => s + r.errors, 0);
    const inWindow = samples.filter((s) => s[0] >= 0 && s[0] < windowMs).length;
    const procs = sampler.figures(durationS);
    const appCpuMs = procs.filter((p) => !p.role.startsWith('load')).reduce((s, p) => s + p.cpuMs, 0);
    const genFig = procs.find((p) => p.role.startsWith('load'));
    const counted = routes.filter((r) => r.count > 0);
    const maxP99 = counted.reduce((m, r) => (r.p99 > m.p99 ? r : m), counted[0] ?? routes[0]);
    const maxSteady = counted.reduce((m, r) => (r.p99Steady > m.p99Steady ? r : m), counted[0] ?? routes[0]);

    lines.push(
      `A day of load: ${n} players, WORKERS=${workers} (PostgreSQL ${new URL(database.url).pathname.slice(1)}, Redis db ${REDIS_DB}), arrivals over ${rampS} s, then a ${durationS} s window; ` +
        `think time ~${plan.thinkMeanS} s; each player from its own 127.1.x.y address (the per-address rate limit on, at its default); game provider latency ${env.GAME_SIM_LATENCY_MS} ms`,
    );
    lines.push(`requests in the window: ${fmt(inWindow)} = ${fmt(inWindow / durationS, 1)}/s; logins (the ramp): see POST /api/login`);
    lines.push(...routeTable(routes));
    lines.push(`errors (connection errors, no answer in 30 s, 4xx, 5xx; ramp and window): ${errors}${errors ? `: ${errorsByRouteAndStatus(result.routes, samples).join(', ')}` : ''}`);
    const hung = samples.filter((s) => s[3] >= HANG_MS).length;
    lines.push(`hung (no answer in ${HANG_MS / 1000} s): ${hung}; sent again once after the server closed their kept-alive connection as they went out (as browsers do): ${result.retried}`);
    if (result.notes.length) lines.push(`client notes: ${result.notes.slice(0, process.env.LOAD_DEBUG ? 60 : 5).join('; ')}`);
    lines.push(pushLine(result.push));
    if (faults.length === 0) {
      lines.push(`rolling restart (kill -HUP the primary at ${durationS / 2} s): ${hup.doneAt ? `done in ${((hup.doneAt - hup.at) / 1000).toFixed(1)} s` : 'NOT DONE'}; new workers ${childPids(primaryPid).join(', ')}`);
    }
    const faultFigures: FaultWindows[] = faultRuns.map((f, i) => {
      const at = f.step.atS * 1000;
      const end = at + f.step.durationS * 1000;
      return {
        name: f.step.name,
        windows: [windowFigure('before', samples, Math.max(0, at - 30_000), at, HANG_MS), windowFigure('during', samples, at, end, HANG_MS), windowFigure('after', samples, end, end + 30_000, HANG_MS)],
        recoveryS: recoveries[i],
      };
    });
    for (const f of faultFigures) {
      lines.push(`fault "${f.name}": recovery ${f.recoveryS === null ? 'NOT within 60 s' : `${f.recoveryS.toFixed(1)} s`} (goal < 10 s)`);
      for (const w of f.windows) {
        lines.push(`  ${w.name.padEnd(6)} ${w.fromS.toFixed(0)}-${w.toS.toFixed(0)} s: ${Object.entries(w.byStatus).map(([k, v]) => `${k} x${v}`).join(', ')}; p50 ${w.p50} ms, p99 ${w.p99} ms, max ${w.max} ms; hung ${w.hung}`);
      }
    }
    lines.push(
      `processes over the window (from /proc): app CPU ${fmt(appCpuMs / 1000, 1)} s = ${fmt(appCpuMs / 1000 / durationS / os.availableParallelism() * 100, 0)} % of ${os.availableParallelism()} cores, ${inWindow ? fmt(appCpuMs / inWindow, 2) : '-'} ms a request (primary + workers)`,
    );
    lines.push(...processTable(procs).map((l) => `  ${l}`));
    if (genFig) lines.push(`  the load generator used ${fmt(genFig.cpuShare * 100, 0)} % of a core (${fmt(result.cpuMs / 1000, 1)} s over its ${fmt(result.wallMs / 1000, 0)} s): not the bottleneck while it stays well under 100 %`);

    const pending = await settled(database.url, dataDir);
    if (pending) lines.push(`${pending} transfers still pending 30 s after the load`);
    // Then stop the app: the checks read a database no one writes any more.
    const code = await app.stop();
    app = null;
    const check = await moneyCheck(database.url, dataDir, result.money, n + 1);
    lines.push(...check.lines);
    const lost = result.push.expected - result.push.delivered - result.push.coveredByRejoin;
    const maxGap = result.push.gaps.length ? Math.max(...result.push.gaps) : 0;
    const goal = maxP99.p99 < P99_GOAL_MS;
    lines.push(
      `goal: p99 under ${P99_GOAL_MS} ms for every route at ${n} players -> ${goal ? 'met' : `NOT MET (worst ${maxP99.route}: ${fmt(maxP99.p99, 1)} ms)`}; ` +
        `outside the rolling restart ${maxSteady.p99Steady < P99_GOAL_MS ? 'met' : 'not met'} (worst ${maxSteady.route}: ${fmt(maxSteady.p99Steady, 1)} ms); app exit code ${code}`,
    );
    const ok = (faults.length > 0 || errors === 0) && lost === 0 && result.push.notBack === 0 && check.ok && check.auditOk && (faults.length > 0 || (hup.doneAt !== null && maxGap < 2000));
    const find = (route: string) => routes.find((r) => r.route === route)?.p99 ?? 0;
    return {
      ok,
      lines,
      players: n,
      durationS,
      routes,
      errors,
      push: result.push,
      moneyOk: check.ok,
      auditOk: check.auditOk,
      processes: procs,
      faults: faultFigures,
      growth: {
        players: n,
        durationS,
        perSecond: inWindow / durationS,
        maxP99: maxP99.p99,
        worstRoute: maxP99.route,
        maxP99Steady: maxSteady.p99Steady,
        worstSteadyRoute: maxSteady.route,
        transferP99: find('POST /api/wallet/transfer'),
        walletP99: find('GET /api/wallet'),
        appCpuPerRequestMs: inWindow ? appCpuMs / inWindow : 0,
        appCpuShare: appCpuMs / 1000 / durationS / os.availableParallelism(),
        errors,
      },
    };
  } finally {
    if (gen && gen.exitCode === null) gen.kill('SIGKILL');
    if (app) await app.stop();
    try {
      database.drop();
    } catch {
      /* dropped by hand then */
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
