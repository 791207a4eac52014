import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { buildApp } from '../../app';
import { seedBase } from '../../db/seed';
import { freshDb, testConfig, type TestDb } from '../../test/support/helper';
import { connected, join, listen, newPlayer, next, socketTo } from '../../test/support/chat';
import { hasRedisServer, startOwnRedis, type OwnRedis } from '../../test/support/own-redis';

/**
 * Redis stopped under two processes and started again (issue 43, docs/operations.md "Without Redis, and other
 * faults"), on a redis-server of the test's own (never the shared one): the global rate limit and the chat's send
 * limit count in each process's memory meanwhile (answers at once, a flood from one address or player still
 * stopped), /readyz names Redis, a room broadcast reaches the sockets of the process that sends it and no other (and
 * never stops the process), and once Redis is back everything is shared again without a restart.
 *
 * Needs only the redis-server binary, not REDIS_URL: it runs in CI's SQLite and PostgreSQL steps (server, server:pg).
 */
const d = hasRedisServer ? describe : describe.skip; // skipped only where no redis-server binary is installed
const LIMIT = 300;
const randomIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
const hit = (app: FastifyInstance, ip: string) => app.inject({ method: 'GET', url: '/api/lookup/active', headers: { 'x-forwarded-for': ip } });
const readyz = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/readyz' })).json() as { status: string; notReady: string[]; checks: Record<string, string> };

async function until<T>(check: () => Promise<T | null | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The statuses of `n` requests of one address to `app`, and the slowest answer's time. */
async function burst(app: FastifyInstance, ip: string, n: number): Promise<{ statuses: number[]; slowestMs: number }> {
  const statuses: number[] = [];
  let slowestMs = 0;
  for (let i = 0; i < n; i++) {
    const t = Date.now();
    statuses.push((await hit(app, ip)).statusCode);
    slowestMs = Math.max(slowestMs, Date.now() - t);
  }
  return { statuses, slowestMs };
}

const sendChat = (app: FastifyInstance, auth: string, message: string) =>
  app.inject({ method: 'POST', url: '/api/chat/send-message', headers: { authorization: auth, 'x-forwarded-for': randomIp() }, payload: { message, message_type: 'text' } });

d('Redis stopped and started again under two processes', () => {
  let redis: OwnRedis;
  let db: TestDb;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let probe: Redis;
  let socket: Socket;
  let player: { playerId: number; auth: string };
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    redis = await startOwnRedis();
    db = await freshDb();
    await seedBase(db.db);
    const config = testConfig(db.dataDir, { REDIS_URL: redis.url(), RATE_LIMIT_PER_MINUTE: String(LIMIT), CHAT_PREFIX: `outage${crypto.randomBytes(4).toString('hex')}` });
    a = await buildApp(config, { database: db, logger: false });
    b = await buildApp(config, { database: db, logger: false });
    await Promise.all([a.ready(), b.ready()]);
    // The player's socket is on A only.
    const url = await listen(a);
    player = await newPlayer(a);
    socket = socketTo(url, { token: player.auth.slice('Bearer '.length) });
    await connected(socket);
    expect(await join(socket, a.realtime.roomOfPlayer(player.playerId))).toEqual({ ok: true });
    probe = new Redis(redis.url(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined);
  });
  afterAll(async () => {
    socket?.close();
    probe?.disconnect();
    await a?.close();
    await b?.close();
    await db?.dispose();
    await redis?.stop();
    process.off('unhandledRejection', onUnhandled);
  });

  /** A broadcast from `from` to the player's room, and whether the socket on A heard it within `ms`. */
  async function heard(from: FastifyInstance, ms: number): Promise<boolean> {
    const tag = crypto.randomBytes(4).toString('hex');
    const got = next<{ tag: string }>(socket, 'probe', (m) => m.tag === tag).then(() => true);
    from.realtime.toPlayer(player.playerId, 'probe', { tag });
    return Promise.race([got, new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  }

  test('with Redis: one budget per address across both processes, and rooms across them', async () => {
    const ip = randomIp();
    expect((await burst(a, ip, LIMIT / 2)).statuses.every((s) => s === 200)).toBe(true);
    expect((await burst(b, ip, LIMIT / 2)).statuses.every((s) => s === 200)).toBe(true);
    expect((await hit(a, ip)).statusCode).toBe(429);
    expect(await heard(b, 5000)).toBe(true);
    expect((await readyz(a)).checks.redis).toBe('ok');
  });

  test('Redis down: limits count per process in memory and answer at once, /readyz names Redis, rooms deliver only locally', async () => {
    await redis.stop();
    const down = await until(async () => {
      const r = await readyz(a);
      return r.status === 'not ready' && r;
    }, '/readyz to see Redis gone');
    expect(down).toEqual({ status: 'not ready', notReady: ['redis'], checks: { database: 'ok', redis: 'unreachable', migrations: 'ok' } });

    // Each process counts the address on its own: the budget holds on A, and B has a budget of its own.
    const ip = randomIp();
    const onA = await burst(a, ip, LIMIT);
    expect(onA.statuses.every((s) => s === 200)).toBe(true);
    expect((await hit(a, ip)).statusCode).toBe(429);
    expect((await hit(b, ip)).statusCode).toBe(200);
    // Never waiting for Redis: an answer from memory is a few ms (the client's reconnect attempts would be up to 2 s).
    expect(onA.slowestMs).toBeLessThan(500);

    // The chat's send limit (20 per 10 s per player) likewise, per process, and the 21st is refused.
    const sends: number[] = [];
    for (let i = 0; i < 21; i++) sends.push((await sendChat(a, player.auth, `m${i}`)).statusCode);
    expect(sends.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(sends[20]).toBe(429);

    // A's own sockets still hear A's broadcasts; B's cannot reach a socket on A.
    expect(await heard(a, 5000)).toBe(true);
    expect(await heard(b, 1000)).toBe(false);
  });

  test('Redis back: everything shared again without a restart, and no process stopped by an unhandled rejection', async () => {
    const started = Date.now();
    await redis.start();
    await until(async () => (await readyz(a)).status === 'ready' && (await readyz(b)).status === 'ready', '/readyz to see Redis back');
    // B's broadcasts reach the socket on A again once the adapter's connections are back (ioredis retries every 2 s at most).
    await until(() => heard(b, 500), "B's broadcast to reach the socket on A");
    // Each process's rate-limit connection counts in Redis again: the key of an address it just counted is there.
    await probe.connect();
    for (const app of [a, b]) {
      await until(async () => {
        const ip = randomIp();
        await hit(app, ip);
        return (await probe.get(`wallet-rl:${ip}`)) === '1';
      }, 'the rate limit to count in Redis again');
    }
    const recoveredMs = Date.now() - started;
    const ip = randomIp();
    expect((await burst(a, ip, LIMIT / 2)).statuses.every((s) => s === 200)).toBe(true);
    expect((await burst(b, ip, LIMIT / 2)).statuses.every((s) => s === 200)).toBe(true);
    expect((await hit(b, ip)).statusCode).toBe(429);
    expect(recoveredMs).toBeLessThan(10_000);
    console.log(`Redis outage: everything shared again ${recoveredMs} ms after redis-server started`);
    // The broadcasts B published while Redis was down were lost, not thrown at the process (that stopped it before).
    expect(unhandled).toEqual([]);
  });
});
