import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { testEngine } from './test/helper';
import { createDb } from './db';
import { isSealed, openSecret, secretKeyFrom } from './lib/secret-box';

/**
 * `npm start` as the end-to-end harness runs it: node --import tsx server/start.ts with PORT, DATA_DIR, DEMO.
 * On PostgreSQL the server gets its own schema through the URL's search_path.
 */
jest.setTimeout(60_000);
const ROOT = path.resolve(__dirname, '..');

let dataDir: string;
let dist: string;
let engineEnv: Record<string, string> = {};
let dropSchema: (() => Promise<void>) | null = null;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-start-'));
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-start-dist-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>built</title>');
  if (testEngine() === 'postgres') {
    const url = process.env.DATABASE_URL as string;
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
    engineEnv = { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` };
    dropSchema = async () => {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`DROP SCHEMA ${schema} CASCADE`);
      await d.end();
    };
  }
});
afterAll(async () => {
  await dropSchema?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(dist, { recursive: true, force: true });
});

interface Run { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> }

function start(env: Record<string, string>): Run {
  const base = { ...process.env };
  // NODE_ENV too (jest sets it to test): npm start as a person runs it.
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'PAYMENT_WEBHOOK_SECRET', 'DEMO', 'JWT_SECRET', 'GAME_SECRET_KEY', 'PORT', 'NODE_ENV']) delete base[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    cwd: ROOT,
    env: { ...base, PORT: '0', DATA_DIR: dataDir, DIST_DIR: dist, LOG_LEVEL: 'warn', ...engineEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function listening(run: Run): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const m = /listening on (http:\/\/localhost:\d+)/.exec(run.stdout());
    if (m) return m[1];
    if (run.child.exitCode !== null) throw new Error(`server exited: ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${run.stdout()} ${run.stderr()}`);
}

test('starts with demo data, prints the demo login and webhook secret, serves, and stops cleanly on SIGTERM', async () => {
  const run = start({});
  const url = await listening(run);
  await new Promise((r) => setTimeout(r, 100)); // the lines after the URL are printed in the same write
  expect(run.stdout()).toContain('phone 0812345678, password demo1234');
  expect(run.stdout()).toContain('Demo payment webhook secret: demo-webhook-secret-change-me');
  expect(run.stdout()).toContain(`Demo staff console: ${url}/staff, username support, password support-demo-1`);
  const staffLogin = await fetch(`${url}/api/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'support', password: 'support-demo-1' }),
  });
  expect(((await staffLogin.json()) as { staff: unknown }).staff).toMatchObject({ username: 'support', name: 'Demo support', role: 'support' });

  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const banks = (await (await fetch(`${url}/api/lookup/banks`)).json()) as { code: string }[];
  expect(banks.map((b) => b.code)).toContain('KBANK');
  const page = await fetch(`${url}/user/home`, { headers: { accept: 'text/html' } });
  expect(await page.text()).toContain('<title>built</title>');

  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
});

test('a second start on the same database migrates and seeds nothing twice and keeps one demo player', async () => {
  const run = start({ PAYMENT_WEBHOOK_SECRET: 'whsec-real-secret' });
  const url = await listening(run);
  await new Promise((r) => setTimeout(r, 100));
  expect(run.stdout()).not.toContain('webhook secret');
  const sources = (await (await fetch(`${url}/api/lookup/sources`)).json()) as unknown[];
  expect(sources).toHaveLength(6);
  run.child.kill('SIGINT');
  expect(await run.exited).toBe(0);

  const database = createDb({ databaseUrl: engineEnv.DATABASE_URL ?? null, dataDir });
  try {
    const players = await database.db.selectFrom('players').select('phone').execute();
    expect(players).toEqual([{ phone: '0812345678' }]);
    expect(await database.db.selectFrom('staff_users').select('username').execute()).toEqual([{ username: 'support' }]);
  } finally {
    await database.destroy();
  }
});

test('game passwords stored readable before encryption are sealed at start with the key kept in DATA_DIR', async () => {
  const database = createDb({ databaseUrl: engineEnv.DATABASE_URL ?? null, dataDir });
  try {
    const demo = await database.db.selectFrom('players').select('id').where('phone', '=', '0812345678').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await database.db
      .insertInto('game_accounts')
      .values({ player_id: demo.id, game_code: 'pg', username: 'legacy-pg', password: 'Legacy-Pass1', event: null, created_at: now, updated_at: now })
      .execute();
  } finally {
    await database.destroy();
  }

  const run = start({});
  await listening(run);
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);

  const key = secretKeyFrom(fs.readFileSync(path.join(dataDir, 'game-secret-key'), 'utf8').trim()) as Buffer;
  const after = createDb({ databaseUrl: engineEnv.DATABASE_URL ?? null, dataDir });
  try {
    const row = await after.db.selectFrom('game_accounts').select('password').where('username', '=', 'legacy-pg').executeTakeFirstOrThrow();
    expect(isSealed(row.password)).toBe(true);
    expect(openSecret(key, row.password)).toBe('Legacy-Pass1');
  } finally {
    await after.destroy();
  }
});

test.each([
  [{ NODE_ENV: 'production' }, /^Configuration error: DEMO must be off when NODE_ENV=production/],
  [{ DEMO: 'maybe' }, /^Configuration error: DEMO must be on\/off/],
  [{ DEMO: 'off' }, /^Configuration error: PAYMENT_WEBHOOK_SECRET is required/],
  [{ PORT: 'eighty' }, /^Configuration error: PORT must be a whole number/],
])('a bad setting %j stops it with one clear line and exit 1', async (env, message) => {
  const run = start(env);
  expect(await run.exited).toBe(1);
  expect(run.stderr().trim().split('\n')).toHaveLength(1);
  expect(run.stderr()).toMatch(message);
});
