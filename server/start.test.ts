import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import { io as socketIo } from 'socket.io-client';
import { testEngine } from './test/support/helper';
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
    expect(await database.db.selectFrom('staff_users').select('username').orderBy('username').execute()).toEqual([{ username: 'payments' }, { username: 'support' }]);
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
  [{ WORKERS: 'two' }, /^Configuration error: WORKERS must be a whole number, got "two"\n$/],
  [{ WORKERS: '0' }, /^Configuration error: WORKERS must be between 1 and 64, got 0\n$/],
  [{ WORKERS: '65' }, /^Configuration error: WORKERS must be between 1 and 64, got 65\n$/],
  // Several processes need PostgreSQL (SQLite has one writer) and Redis (rate limits, lockouts, socket rooms).
  [
    { WORKERS: '2' },
    testEngine() === 'postgres'
      ? /^WORKERS=2 needs Redis \(REDIS_URL\): rate limits, login lockouts and socket rooms are shared through it; start one process or set REDIS_URL\n$/
      : /^WORKERS=2 needs PostgreSQL \(DATABASE_URL\) and Redis \(REDIS_URL\): SQLite has one writer; start one process or set them\n$/,
  ],
])('a bad setting %j stops it with one clear line and exit 1', async (env, message) => {
  const run = start(env);
  expect(await run.exited).toBe(1);
  expect(run.stderr().trim().split('\n')).toHaveLength(1);
  expect(run.stderr()).toMatch(message);
});

/** An HTTP/1.1 connection written by hand: answers are read whole (Content-Length), in order. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let buf = '';
  const waiters: (() => void)[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    buf += d;
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const until = async (take: () => string | null): Promise<string> => {
    for (;;) {
      const got = take();
      if (got !== null) return got;
      await Promise.race([new Promise<void>((r) => waiters.push(r)), closed.then(() => { if (take() === null) throw new Error(`connection closed: ${buf}`); })]);
    }
  };
  return {
    socket,
    closed,
    write: (text: string) => socket.write(text),
    /** The next interim "100 Continue" line. */
    continued: () =>
      until(() => {
        const m = /^HTTP\/1\.1 100 Continue\r\n\r\n/.exec(buf);
        if (!m) return null;
        buf = buf.slice(m[0].length);
        return m[0];
      }),
    /** The next whole answer: status, lower-cased headers, body. */
    answer: async () => {
      const raw = await until(() => {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return null;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + length) return null;
        const whole = buf.slice(0, end + 4 + length);
        buf = buf.slice(whole.length);
        return whole;
      });
      const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
      const [status, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { status: Number(status.split(' ')[1]), headers, body };
    },
  };
}

/** Resolves once nothing listens on the port any more (a connection is refused). */
async function refusing(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the server still accepts connections');
}

test('a graceful close stops accepting, answers kept-alive connections normally with Connection: close, finishes requests in flight, exits 0', async () => {
  const run = start({});
  const port = Number(new URL(await listening(run)).port);

  // A: a kept-alive connection with one answer behind it. B: a request in flight (its body not sent yet).
  const a = rawConnection(port);
  a.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  expect((await a.answer()).status).toBe(200);
  const b = rawConnection(port);
  const body = JSON.stringify({ username: '0899999999', password: 'not-the-password' });
  b.write(`POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
  await b.continued(); // the server has the request

  run.child.kill('SIGTERM');
  await refusing(port);

  // The kept-alive connection's next request is answered as usual (no 503), telling the client to reconnect.
  a.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  const again = await a.answer();
  expect({ status: again.status, connection: again.headers.connection, body: again.body }).toEqual({ status: 200, connection: 'close', body: '{"status":"ok"}' });
  await a.closed;

  // The request in flight finishes with its real answer.
  b.write(body);
  const late = await b.answer();
  expect({ status: late.status, connection: late.headers.connection, body: JSON.parse(late.body) }).toEqual({ status: 401, connection: 'close', body: { message: 'WRONG_CREDENTIAL' } });
  await b.closed;

  expect(await run.exited).toBe(0);
});

test('a request arriving while the app itself closes (after the drain) is answered normally, not 503', async () => {
  const run = start({});
  const url = await listening(run);
  const port = Number(new URL(url).port);
  // A guest's socket: dropped by the realtime preClose, i.e. once app.close() has begun.
  const { guestId } = (await (await fetch(`${url}/api/chat/guest`, { method: 'POST' })).json()) as { guestId: string };
  const socket = socketIo(url, { transports: ['websocket'], reconnection: false, auth: { guestId }, forceNew: true });
  await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject));
  const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

  // A: a request in flight (its body withheld) keeps the drain going to its end and the close waiting for it.
  const a = rawConnection(port);
  const body = JSON.stringify({ username: '0899999998', password: 'not-the-password' });
  a.write(`POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
  await a.continued();
  // C: a request whose head is not finished yet (the connection is not idle, so the close keeps it). It is answered
  // once first: a connection still in the listen backlog when the close stops listening is reset, not served (a CI
  // run on a busy machine sent SIGTERM before the server had accepted C).
  const c = rawConnection(port);
  c.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  expect((await c.answer()).status).toBe(200);
  c.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');

  run.child.kill('SIGTERM');
  expect(await dropped).toBe('transport close');
  c.write('\r\n');
  const during = await c.answer();
  expect({ status: during.status, connection: during.headers.connection, body: during.body }).toEqual({ status: 200, connection: 'close', body: '{"status":"ok"}' });

  a.write(body);
  expect((await a.answer()).status).toBe(401);
  expect(await run.exited).toBe(0);
  socket.close();
});

test('with DEMO off and no active administrator the start says to run operator setup; with one it does not', async () => {
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-start-admin-'));
  const live = {
    DEMO: 'off', DATA_DIR: fresh, PAYMENT_WEBHOOK_SECRET: 'whsec-live-whsec-live-whsec-live-0123',
    PAYMENT_GATEWAY: 'simulator', SLIP_VERIFIER: 'simulator', GIFT_REDEEMER: 'simulator', GAME_PROVIDER: 'simulator', PAYOUT_PROVIDER: 'simulator',
  };
  const hint = 'No administrator yet: run npm run operator -- setup';
  try {
    const first = start(live);
    await listening(first);
    await new Promise((r) => setTimeout(r, 100)); // the lines after the URL are printed in the same write
    expect(first.stdout()).toContain(hint);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const database = createDb({ databaseUrl: engineEnv.DATABASE_URL ?? null, dataDir: fresh });
    try {
      await database.db.insertInto('staff_users').values({ username: 'root', name: 'Root', role: 'admin', password_hash: 'x', status: 'active', created_at: new Date().toISOString() } as never).execute();
    } finally {
      await database.destroy();
    }
    const second = start(live);
    await listening(second);
    await new Promise((r) => setTimeout(r, 100));
    expect(second.stdout()).not.toContain(hint);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
});

test('a single process (WORKERS=1) asked to reload with SIGHUP closes gracefully and exits 129, for its process manager to restart', async () => {
  const run = start({ LOG_LEVEL: 'info' });
  const url = await listening(run);
  expect((await fetch(`${url}/api/lookup/banks`)).status).toBe(200);
  run.child.kill('SIGHUP');
  // Node's default for SIGHUP ends the process at once (exit code null, killed by the signal), requests and all.
  expect(await run.exited).toBe(129);
  expect(run.stdout()).toMatch(/"reason":"SIGHUP".*"msg":"closing"/);
});
