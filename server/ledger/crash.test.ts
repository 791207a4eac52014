import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, type Database } from '../db';
import { SIM_SQLITE_FILE } from '../adapters/games/sim-store';
import { testEngine } from '../test/support/helper';
import { runAudit, walletBalance, gameBalances } from './index';
import { DEMO_OPENING_BALANCE } from '../demo/index';

/**
 * The real server (npm start's server/start.ts) is killed with SIGKILL while a transfer is between the wallet
 * debit and the provider's answer: once before the provider applied it, once after. After each restart the
 * reconciler finishes the pending transfer, and the audit command passes on the database.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const JWT_SECRET = 'crash-test-secret-crash-test-secret-0123456789';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function until<T>(what: string, f: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

let dataDir: string;
let env: Record<string, string>;
let schema: string | null = null;
let database: Database | null = null;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-crash-'));
  env = {
    ...(process.env as Record<string, string>),
    DATA_DIR: dataDir,
    DEMO: 'on',
    JWT_SECRET,
    SKIP_SPA_BUILD: '1',
    DIST_DIR: path.join(dataDir, 'no-dist'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RECONCILE_AFTER_MS: '0',
    RECONCILE_INTERVAL_MS: '300',
    // Longer than one provider call, so the live request keeps its transfer; short enough for a restart.
    RECONCILE_CLAIM_MS: '4000',
    PAYOUT_SIM_DELAY_MS: 'manual',
    // The killed process still holds the reconciler's lease (docs/operations.md "Background jobs"): the restarted one
    // takes the job over when it expires, so a short lease keeps the restart quick.
    JOB_LEASE_TTL_MS: '1500',
  };
  delete env.DATABASE_URL;
  if (testEngine() === 'postgres') {
    const url = process.env.DATABASE_URL!;
    schema = `crash_${crypto.randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
    env.DATABASE_URL = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await database?.destroy();
  await simDatabase?.destroy();
  if (schema) {
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA ${schema} CASCADE`);
    await c.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(latencyMs: number): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), GAME_SIM_LATENCY_MS: String(latencyMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await until(`the server to listen (output so far: ${out})`, async () => out.includes('listening on') || child.exitCode !== null, 60_000);
  if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
  return { child, url: `http://127.0.0.1:${port}` };
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function db(): Database {
  database ??= env.DATABASE_URL ? createDb({ databaseUrl: process.env.DATABASE_URL!, dataDir, schema: schema! }) : createDb({ databaseUrl: null, dataDir });
  return database;
}

/** Where the simulator keeps its books: its own file on SQLite (sim-store.ts), the wallet's database on PostgreSQL. */
let simDatabase: Database | undefined;
function simDb(): Database {
  if (env.DATABASE_URL) return db();
  simDatabase ??= createDb({ databaseUrl: null, dataDir, sqliteFile: SIM_SQLITE_FILE });
  return simDatabase;
}

const pendingTransfers = () => db().db.selectFrom('game_transfers').selectAll().where('status', '=', 'pending').execute();

test('SIGKILL between the wallet debit and the provider answer: after restart every transfer is settled and the audit passes', async () => {
  // Phase 1: a slow provider; the server dies while the deposit has not reached it yet.
  let s = await startServer(2_000);
  const login = await fetch(`${s.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: '0812345678', password: 'demo1234' }) });
  expect(login.status).toBe(200);
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}`, 'content-type': 'application/json' };
  const act = await fetch(`${s.url}/api/wallet/activate/pg`, { headers });
  expect(act.status).toBe(200);
  const transfer = (amount: number) =>
    fetch(`${s.url}/api/wallet/transfer`, { method: 'POST', headers, body: JSON.stringify({ from: 'WALLET', to: 'pg', amount }) }).catch(() => null);
  void transfer(100);
  const [a] = await until('transfer A to be pending', async () => {
    const p = await pendingTransfers();
    return p.length === 1 && p;
  });
  await kill(s.child);
  const playerId = Number(a.player_id);
  expect(await simDb().db.selectFrom('sim_transfers').select('transfer_id').where('transfer_id', '=', a.id).executeTakeFirst()).toBeUndefined();
  expect(await walletBalance(db().db, playerId)).toBe(DEMO_OPENING_BALANCE - 100_00);

  // Phase 2: restart; the reconciler finds A unknown to the provider, sends it again with its id, settles it.
  s = await startServer(2_000);
  await until('transfer A to settle', async () => (await db().db.selectFrom('game_transfers').select('status').where('id', '=', a.id).executeTakeFirst())?.status === 'settled');
  // Now the server dies after the provider applied B but before it answered.
  void transfer(200);
  const b = await until('transfer B to be pending', async () => (await pendingTransfers())[0]);
  await until('the provider to apply B', async () =>
    (await simDb().db.selectFrom('sim_transfers').select('status').where('transfer_id', '=', b.id).executeTakeFirst())?.status === 'settled',
  );
  await kill(s.child);
  expect((await db().db.selectFrom('game_transfers').select('status').where('id', '=', b.id).executeTakeFirstOrThrow()).status).toBe('pending');

  // Phase 3: restart; the reconciler asks transferStatus(B): settled at the provider, settled here.
  s = await startServer(0);
  await until('no pending transfer', async () => (await pendingTransfers()).length === 0, 30_000);
  expect((await db().db.selectFrom('game_transfers').select('status').where('id', '=', b.id).executeTakeFirstOrThrow()).status).toBe('settled');
  const st = await fetch(`${s.url}/api/statement`, { method: 'POST', headers, body: JSON.stringify({ page: 1, limit: 10 }) });
  const statements = ((await st.json()) as { statements: { status: string; amount: number }[] }).statements;
  expect(statements.map((x) => [x.amount, x.status])).toEqual([
    [200, 'SUCCESS'],
    [100, 'SUCCESS'],
  ]);
  await kill(s.child);

  expect(await walletBalance(db().db, playerId)).toBe(DEMO_OPENING_BALANCE - 300_00);
  expect((await gameBalances(db().db, playerId)).get('pg')).toBe(300_00);
  const sim = await simDb().db.selectFrom('sim_players').select('balance').where('player_id', '=', playerId).where('game_code', '=', 'pg').executeTakeFirstOrThrow();
  expect(Number(sim.balance)).toBe(300_00);
  expect((await runAudit(db().db)).violations).toEqual([]);

  // The audit command, as an operator runs it, on the same database.
  const audit = spawn(process.execPath, ['--import', 'tsx', 'server/cli/audit-cli.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  audit.stdout!.on('data', (d) => (out += d));
  audit.stderr!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => audit.on('exit', r));
  expect(out).toMatch(/OK: every invariant holds/);
  expect(code).toBe(0);
}, 180_000);
