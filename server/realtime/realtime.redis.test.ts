import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { buildApp } from '../app';
import { freshDb, testConfig } from '../test/support/helper';
import { connected, join, newGuest, next, sendText, socketTo } from '../test/support/chat';
import { totpCode } from '../lib/totp';

/**
 * Two real server processes (npm start's entry) sharing one database and one Redis: a player's socket on process
 * B receives a staff reply posted through process A, and the console's socket on A sees the player's message
 * sent through B. The Redis adapter carries the room broadcasts; CHAT_PREFIX is unique per run so parallel runs
 * on the same Redis never hear each other.
 *
 * Needs a Redis server: CI (.ci/run) runs the files matching 'redis' with REDIS_URL set. Without it the suite is
 * skipped rather than faked. With DATABASE_URL the two share a fresh PostgreSQL schema, otherwise one SQLite file.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const d = process.env.REDIS_URL ? describe : describe.skip;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Proc {
  url: string;
  child: ChildProcess;
  output(): string;
}

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) return { url, child, output: () => out };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

const stop = (p: Proc | undefined) =>
  new Promise<void>((resolve) => {
    if (!p || p.child.exitCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGTERM');
  });

/** Fails after `ms` instead of waiting for jest's timeout: an event that never comes is the failure here. */
function within<T>(p: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_r, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

d('socket.io rooms across two server processes (Redis adapter)', () => {
  jest.setTimeout(180_000);
  const prefix = `redis-test-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-redis-'));
  const schema = `r_${crypto.randomBytes(6).toString('hex')}`;
  let a: Proc | undefined;
  let b: Proc | undefined;
  let staffTotpSecret = '';
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'on',
      SKIP_SPA_BUILD: '1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: `redis-test-secret-${crypto.randomBytes(16).toString('hex')}`,
      REDIS_URL: process.env.REDIS_URL ?? '',
      CHAT_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: '0',
      STAFF_PASSWORD: 'redis-staff-pass-1',
    };
    delete env.DATABASE_URL;
    if (process.env.DATABASE_URL) {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const u = new URL(process.env.DATABASE_URL);
      u.searchParams.set('options', `-c search_path=${schema}`);
      env.DATABASE_URL = u.toString();
    }
    // One after the other: the first migrates and seeds, the second finds everything in place.
    a = await startProcess(env);
    b = await startProcess(env);
    const added = execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/operator-cli.ts', 'staff', 'add', 'redisstaff', '--name', 'Redis Staff', '--role', 'support'], { cwd: ROOT, env, encoding: 'utf8' });
    // Every new staff account gets a second factor: the sign-in below completes it with a code of this secret.
    staffTotpSecret = /TOTP secret \(base32\): ([A-Z2-7]+)/.exec(added)![1];
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all([stop(a), stop(b)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (process.env.DATABASE_URL) {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  test("a staff reply posted through process A reaches the player's socket on process B, and the player's message reaches A's console", async () => {
    const { token: playerToken } = await post<{ token: string }>(`${b!.url}/api/login`, { username: '0812345678', password: 'demo1234' });
    const { challenge } = await post<{ challenge: string }>(`${a!.url}/api/staff/login`, { username: 'redisstaff', password: 'redis-staff-pass-1' });
    const { token: staffToken } = await post<{ token: string }>(`${a!.url}/api/staff/login/totp`, { challenge, code: totpCode(staffTotpSecret, new Date()) });
    const profile = (await (await fetch(`${b!.url}/api/account/profile`, { headers: { authorization: `Bearer ${playerToken}` } })).json()) as { profile?: { _id: string } };
    const playerId = profile.profile?._id;
    expect(playerId).toMatch(/^\d+$/);

    const player = socketTo(b!.url, { token: playerToken });
    const console = socketTo(a!.url, { token: staffToken }, '/staff');
    sockets.push(player, console);
    await Promise.all([connected(player), connected(console)]);
    expect(await join(player, `${prefix}-${playerId}`)).toEqual({ ok: true });

    // The customer writes through B: A's console hears it through Redis.
    type Msg = { type?: string; conversationId?: string; message: { _id: string; message: string; sender: string; name: string | null } };
    const onConsole = next<Msg>(console, 'messaging', (m) => m.message.message === 'hello from process B');
    const sent = await post<{ _id: string }>(`${b!.url}/api/chat/send-message`, { message: 'hello from process B', message_type: 'text', locale: 'en' }, playerToken);
    const heard = await within(onConsole, "A's console hearing B's customer");
    expect(heard.message._id).toBe(sent._id);

    // Staff answer through A: the player's socket on B receives it live.
    const onPlayer = next<Msg>(player, 'messaging', (m) => m.type === 'message' && m.message.sender === 'other' && m.message.message === 'answer from process A');
    const reply = await post<{ _id: string }>(`${a!.url}/api/staff/conversations/${heard.conversationId}/reply`, { message: 'answer from process A', message_type: 'text' }, staffToken);
    const got = await within(onPlayer, "B's player hearing A's staff reply");
    expect(got.message).toMatchObject({ _id: reply._id, name: 'Redis Staff' });

    // Closing through A: the end marker reaches B's socket too.
    const onEnd = next<{ type: string }>(player, 'messaging', (m) => m.type === 'end');
    await post(`${a!.url}/api/staff/conversations/${heard.conversationId}/close`, {}, staffToken);
    expect((await within(onEnd, 'the end marker on B')).type).toBe('end');
    expect(a!.output() + b!.output()).not.toMatch(/redis error/);
  });
});

d('chat send limit and start-up with Redis', () => {
  test('two app instances share one send budget per identity', async () => {
    const db = await freshDb();
    const config = testConfig(db.dataDir, { REDIS_URL: process.env.REDIS_URL ?? '', RATE_LIMIT_PER_MINUTE: '0', CHAT_PREFIX: `redis-limit-${crypto.randomBytes(4).toString('hex')}` });
    const a = await buildApp(config, { database: db, logger: false });
    const b = await buildApp(config, { database: db, logger: false });
    try {
      await Promise.all([a.ready(), b.ready()]);
      const fixed = new Date(Math.floor(Date.now() / 10_000) * 10_000 + 1000);
      a.clock.now = () => fixed;
      b.clock.now = () => fixed;
      const g = await newGuest(a);
      for (let i = 0; i < 10; i++) {
        expect([(await sendText(a, g, `a${i}`)).statusCode, (await sendText(b, g, `b${i}`)).statusCode]).toEqual([200, 200]);
      }
      const over = await sendText(b, g, 'one too many');
      expect([over.statusCode, over.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
      expect((await sendText(a, g, 'also too many')).statusCode).toBe(429);
      expect((await sendText(a, await newGuest(b), 'someone else')).statusCode).toBe(200);
    } finally {
      await a.close();
      await b.close();
      await db.dispose();
    }
  });

  test('a start with REDIS_URL pointing nowhere fails with a clear message instead of keeping rooms per process', async () => {
    const db = await freshDb();
    try {
      // Rate limit off: its own Redis client would keep retrying after the failed start.
      const config = testConfig(db.dataDir, { REDIS_URL: 'redis://127.0.0.1:9', RATE_LIMIT_PER_MINUTE: '0' });
      await expect(buildApp(config, { database: db, logger: false })).rejects.toThrow(/REDIS_URL is set but Redis did not answer within 8 s/);
    } finally {
      await db.dispose();
    }
  });
});
