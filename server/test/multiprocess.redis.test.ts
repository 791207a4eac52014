import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { createDb, nowIso } from '../db';
import { migrateToLatest } from '../db/migrate';
import { seedBase } from '../db/seed';
import { creditWallet, insertPlayer } from '../ledger';
import { hashPassword } from '../lib/password';
import { signWebhook } from '../plugins/deposits/domain/webhook-signature';
import { testEngine } from './support/helper';

/**
 * Proof of issue 14's "Many processes" with real processes (`node --import tsx server/start.ts`) on one PostgreSQL
 * schema and one Redis: a payment webhook handled by process A reaches a player's socket on process B; login
 * failures split between A and B lock the phone; the reconciler runs in exactly one process and the other takes it
 * over when the first is killed; and a WORKERS=2 cluster restarted with SIGHUP under load answers every request
 * with no error and no money lost (docs/operations.md "Several processes").
 */
// Skipped unless both services are there: the proof needs several processes sharing one PostgreSQL schema and one
// Redis. npm test (SQLite) and the Redis step (SQLite) skip it; .ci/run's "several processes" step sets both and runs it.
const ready = testEngine() === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;
const describeMp = ready ? describe : describe.skip;
// Reason for the skip: several processes must share one PostgreSQL schema and one Redis, which only .ci/run's
// "several processes" step provides (it sets both and runs this file); there the skip is off and the proof runs.
if (!ready) test.skip('multiprocess proof: needs DATABASE_URL (server:pg project) and REDIS_URL', () => undefined); // skipped: no shared PostgreSQL + Redis here

jest.setTimeout(120_000);
const ROOT = path.resolve(__dirname, '..', '..');
const PASSWORD = 'multi-pass-1';
const WEBHOOK_SECRET = 'whsec-multiprocess';
const METRICS_TOKEN = crypto.randomBytes(24).toString('hex');
const PREFIX = `mp${crypto.randomBytes(4).toString('hex')}`;
const DEPOSIT_SATANG = 10_000_000; // 100,000 baht each
const GAME = 'pg';

let schema: string;
let databaseUrl: string;
let dataDir: string;
let dist: string;
const children: Run[] = [];

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/** Waits for `check` (re-checked every 50 ms); fails with `what` after `ms`. */
async function until<T>(check: () => T | Promise<T>, what: string, ms = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function start(env: Record<string, string> = {}): Run {
  const base = { ...process.env };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'PAYMENT_WEBHOOK_SECRET', 'DEMO', 'JWT_SECRET', 'GAME_SECRET_KEY', 'PORT', 'NODE_ENV', 'WORKERS']) delete base[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    cwd: ROOT,
    env: {
      ...base,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL as string,
      CHAT_PREFIX: PREFIX,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: dist,
      SKIP_SPA_BUILD: '1',
      DEMO: 'on',
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      JWT_SECRET: 'multiprocess-secret-multiprocess-secret',
      METRICS_TOKEN,
      RATE_LIMIT_PER_MINUTE: '0',
      LOGIN_MAX_FAILURES: '4',
      JOB_LEASE_TTL_MS: '1500',
      // Provider calls take a while: some are in flight when a worker closes during the rolling restart.
      GAME_SIM_LATENCY_MS: '20',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const run = { child, out: () => out, err: () => err, exited };
  children.push(run);
  return run;
}

async function listening(run: Run): Promise<string> {
  return until(() => {
    if (run.child.exitCode !== null) throw new Error(`server exited: ${run.err()}`);
    return /listening on http:\/\/localhost:(\d+)/.exec(run.out())?.[1];
  }, `a server to listen (${run.err()})`, 60_000).then((port) => `http://127.0.0.1:${port}`);
}

async function call<T = Record<string, unknown>>(url: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as T };
}

const login = async (url: string, phone: string, password = PASSWORD) => call<{ token?: string; message?: string }>(`${url}/api/login`, { body: { username: phone, password } });

async function token(url: string, phone: string): Promise<string> {
  const r = await login(url, phone);
  expect(r.status).toBe(200);
  return r.body.token as string;
}

async function leaseHeld(url: string, job: string): Promise<number> {
  const r = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const m = new RegExp(`^wallet_job_lease_held\\{job="${job}"\\} (\\d)`, 'm').exec(await r.text());
  return m ? Number(m[1]) : -1;
}

async function withDb<T>(work: (db: ReturnType<typeof createDb>['db']) => Promise<T>): Promise<T> {
  const database = createDb({ databaseUrl: process.env.DATABASE_URL as string, dataDir, schema });
  try {
    return await work(database.db);
  } finally {
    await database.destroy();
  }
}

let phoneSeq = 0;
/** Players with a password and DEPOSIT_SATANG on their wallet (a demo opening credit through the ledger). */
async function seedPlayers(n: number): Promise<{ id: number; phone: string }[]> {
  const hash = await hashPassword(PASSWORD);
  return withDb(async (db) => {
    const players: { id: number; phone: string }[] = [];
    for (let i = 0; i < n; i++) {
      phoneSeq++;
      const phone = `086${String(process.pid % 10000).padStart(4, '0')}${String(phoneSeq).padStart(3, '0')}`;
      const id = await insertPlayer(db, {
        phone, name: `Multi ${phoneSeq}`, password_hash: hash, bank_code: 'SCB', bank_account_name: 'MULTI PLAYER',
        bank_account_no: `55${String(process.pid % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`, currency: 'THB', source_code: null, inviter_id: null, now: nowIso(),
      });
      await db.transaction().execute((trx) => creditWallet(trx, { playerId: id, amount: DEPOSIT_SATANG, from: 'demo_float', kind: 'demo_opening', reference: `mp:deposit:${id}` }));
      players.push({ id, phone });
    }
    return players;
  });
}

async function stop(run: Run): Promise<number | null> {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM');
  return run.exited;
}

describeMp('several processes on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    const url = process.env.DATABASE_URL as string;
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
    databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-mp-'));
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-mp-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>built</title>');
    // Migrated and seeded before any process starts, so the players below exist (no demo player is added then).
    await withDb(async (db) => {
      await migrateToLatest(db);
      await seedBase(db);
    });
  });

  afterAll(async () => {
    for (const run of children) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await Promise.all(children.map((r) => r.exited));
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL as string });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(dist, { recursive: true, force: true });
  });

  describe('two processes A and B', () => {
    let a: Run;
    let b: Run;
    let urlA: string;
    let urlB: string;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      a = start();
      urlA = await listening(a);
      b = start();
      urlB = await listening(b);
    });
    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      await Promise.all([a, b].filter(Boolean).map(stop));
    });

    test("a payment webhook handled by A pushes the balance to the player's socket on B", async () => {
      const [player] = await seedPlayers(1);
      const t = await token(urlA, player.phone);
      const socket = connect(urlB, { transports: ['websocket'], reconnection: false, auth: { token: t }, forceNew: true });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      expect(await socket.timeout(5000).emitWithAck('join', { room: `${PREFIX}-${player.id}` })).toEqual({ ok: true });
      // The seeded opening credit is announced too, by whichever pass of the watcher (every 150 ms) first sees it:
      // before the join or after it. Wait for the deposit's own announcement.
      const pushed = new Promise<unknown>((resolve) =>
        socket.on('wallet', (m: { reason?: string }) => {
          if (m.reason !== 'demo_opening') resolve(m);
        }),
      );

      const qr = await call<{ qrcodeId: string }>(`${urlA}/api/qrcode/KBANK`, { token: t, body: { amount: 150 } });
      expect(qr.status).toBe(200);
      const raw = JSON.stringify({ id: `evt_${crypto.randomBytes(8).toString('hex')}`, type: 'qr.paid', reference: qr.body.qrcodeId, amount: 150 });
      const hook = await fetch(`${urlA}/api/webhooks/payments`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signWebhook(raw, WEBHOOK_SECRET) }, body: raw });
      expect(await hook.json()).toMatchObject({ outcome: 'CREDITED' });

      expect(await pushed).toEqual({ reason: 'deposit' });
      const wallet = await call<{ wallet: { amount: number } }>(`${urlB}/api/wallet`, { token: t });
      expect(wallet.body.wallet.amount).toBe(DEPOSIT_SATANG / 100 + 150);
    });

    test('login failures split between A and B lock the phone on both', async () => {
      const [player] = await seedPlayers(1);
      // LOGIN_MAX_FAILURES=4: two wrong passwords on each process. Counted per process, neither would lock.
      for (const url of [urlA, urlB, urlA, urlB]) {
        const r = await login(url, player.phone, 'wrong-password');
        expect(r).toEqual({ status: 401, body: { message: 'WRONG_CREDENTIAL' } });
      }
      expect(await login(urlA, player.phone)).toEqual({ status: 429, body: { message: 'REQUEST_LIMIT' } });
      expect(await login(urlB, player.phone)).toEqual({ status: 429, body: { message: 'REQUEST_LIMIT' } });
      // Another phone is not locked by them.
      const [other] = await seedPlayers(1);
      expect((await login(urlB, other.phone)).status).toBe(200);
    });

    test('the reconciler runs in exactly one process; the other takes it over when that one is killed', async () => {
      const held = await until(async () => {
        const [ha, hb] = await Promise.all([leaseHeld(urlA, 'reconciler'), leaseHeld(urlB, 'reconciler')]);
        return ha + hb === 1 ? { ha, hb } : null;
      }, 'one reconciler lease holder');
      const [holder, other, otherUrl] = held.ha === 1 ? [a, b, urlB] : [b, a, urlA];
      const row = await withDb((db) => db.selectFrom('job_leases').select('holder').where('name', '=', 'reconciler').executeTakeFirstOrThrow());
      expect(row.holder).toContain(`:${holder.child.pid}:`);

      holder.child.kill('SIGKILL');
      await holder.exited;
      const killedAt = Date.now();
      await until(async () => (await leaseHeld(otherUrl, 'reconciler')) === 1, 'the other process to take the reconciler over', 60_000);
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      const after = await withDb((db) => db.selectFrom('job_leases').select('holder').where('name', '=', 'reconciler').executeTakeFirstOrThrow());
      expect(after.holder).toContain(`:${other.child.pid}:`);
    });
  });

  test('a WORKERS=2 cluster restarted with SIGHUP under load: no error, every answer 2xx, no money lost', async () => {
    const players = await seedPlayers(4);
    const primary = start({ WORKERS: '2' });
    const url = await listening(primary);
    try {
      const tokens: string[] = [];
      for (const p of players) {
        const t = await token(url, p.phone);
        expect((await call(`${url}/api/wallet/activate/${GAME}`, { token: t })).status).toBe(200);
        // Game balances to draw from, so game -> wallet transfers are never refused for want of money.
        expect((await call(`${url}/api/wallet/transfer`, { token: t, body: { from: 'WALLET', to: GAME, amount: 1000 } })).status).toBe(200);
        tokens.push(t);
      }
      let next = 0;
      const withToken = (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` } });
      const json = { 'content-type': 'application/json' };
      const codes: Record<string, number> = {};
      let instance!: autocannon.Instance;
      const load = new Promise<Result>((resolve, reject) => {
        instance = autocannon(
          {
            url,
            connections: 8,
            duration: 50,
            requests: [
              { method: 'GET', path: '/api/wallet', setupRequest: withToken },
              { method: 'POST', path: '/api/wallet/transfer', headers: json, body: JSON.stringify({ from: 'WALLET', to: GAME, amount: 1 }), setupRequest: withToken },
              { method: 'GET', path: '/api/wallet', setupRequest: withToken },
              { method: 'POST', path: '/api/wallet/transfer', headers: json, body: JSON.stringify({ from: GAME, to: 'WALLET', amount: 1 }), setupRequest: withToken },
            ],
          },
          (err, result) => (err ? reject(err) : resolve(result)),
        );
      });
      instance.on('response', (_client, statusCode) => {
        codes[statusCode] = (codes[statusCode] ?? 0) + 1;
      });
      // Some load first, then the rolling restart, then some load on the new workers.
      await until(() => Object.values(codes).reduce((s, n) => s + n, 0) > 200, 'the load to start');
      const pidsBefore = await workerPids(primary.child.pid as number);
      expect(pidsBefore).toHaveLength(2);
      primary.child.kill('SIGHUP');
      await until(() => /Rolling restart done: 2 workers/.test(primary.err()), 'the rolling restart to finish', 60_000);
      const answeredAtDone = Object.values(codes).reduce((s, n) => s + n, 0);
      await until(() => Object.values(codes).reduce((s, n) => s + n, 0) > answeredAtDone + 200, 'load on the new workers');
      instance.stop();
      const result = await load;

      const pidsAfter = await workerPids(primary.child.pid as number);
      expect(pidsAfter).toHaveLength(2);
      expect(pidsAfter.filter((p) => pidsBefore.includes(p))).toEqual([]);
      expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, codes: Object.keys(codes) }).toEqual({ errors: 0, timeouts: 0, non2xx: 0, codes: ['200'] });
      expect(result.requests.total).toBeGreaterThan(400);

      // Stopping the load drops the requests it had sent: the server still finishes them; none is left pending.
      await until(
        () => withDb(async (db) => Number((await db.selectFrom('game_transfers').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow()).n) === 0),
        'the transfers sent before the load stopped to settle',
        15_000,
      );
      // Every player's wallet + games is what was deposited; the ledger audit (npm run audit:ledger) passes.
      for (const t of tokens) {
        const w = await call<{ wallet: { amount: number }; slots: { amount: number }[] }>(`${url}/api/wallet/refresh/slot`, { token: t });
        const games = w.body.slots.reduce((s, g) => s + Math.round(g.amount * 100), 0);
        expect(Math.round(w.body.wallet.amount * 100) + games).toBe(DEPOSIT_SATANG);
      }
      const audit = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/audit-cli.ts'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, encoding: 'utf8' });
      expect({ status: audit.status, stderr: audit.stderr }).toEqual({ status: 0, stderr: '' });
    } finally {
      primary.child.kill('SIGTERM');
      expect(await primary.exited).toBe(0);
    }
    expect(primary.err()).not.toMatch(/exited unexpectedly/);
  });
});

/** The pids of a process's node children (the cluster's workers). */
async function workerPids(ppid: number): Promise<number[]> {
  const out = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(ppid)], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm === 'node')
    .map(([pid]) => Number(pid));
}
