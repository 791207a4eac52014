import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import { buildApp } from '../app';
import { seedBase } from '../db/seed';
import { freshDb, testConfig, type TestDb } from '../test/support/helper';
import { connected, join, listen, newPlayer, socketTo } from '../test/support/chat';
import { createStaff } from '../test/support/staff';

/**
 * Issue 39 rows 8 and 10 across two server instances on one database and one Redis: a logout handled by A drops
 * the session's socket held by B at once (the socket.io adapter carries the disconnect; the periodic check is an
 * hour away), and the per-address guest limits are one budget for both.
 *
 * Needs a Redis server: CI (.ci/run) runs the files matching 'redis' with REDIS_URL set; without it the suite is
 * skipped rather than faked.
 */
const d = process.env.REDIS_URL ? describe : describe.skip;

d('sockets follow sessions and guest limits across processes (Redis)', () => {
  let db: TestDb;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let urlB: string;
  const sockets: Socket[] = [];
  const prefix = `rs-${crypto.randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    db = await freshDb();
    await seedBase(db.db);
    const config = testConfig(db.dataDir, {
      REDIS_URL: process.env.REDIS_URL ?? '',
      RATE_LIMIT_PER_MINUTE: '0',
      CHAT_PREFIX: prefix,
      SOCKET_SESSION_CHECK_MS: '60000',
      CHAT_GUEST_IDS_PER_HOUR: '4',
      CHAT_GUEST_SENDS_PER_MINUTE: '4',
    });
    a = await buildApp(config, { database: db, logger: false });
    b = await buildApp(config, { database: db, logger: false });
    await Promise.all([a.ready(), b.ready()]);
    urlB = await listen(b);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.dispose();
  });

  const dropped = (s: Socket) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket still connected')), 10_000);
      s.once('disconnect', (reason) => {
        clearTimeout(timer);
        resolve(reason);
      });
    });

  test("a player's logout through A drops the session's socket on B", async () => {
    const p = await newPlayer(a);
    const s = socketTo(urlB, { token: p.auth.slice('Bearer '.length) });
    sockets.push(s);
    await connected(s);
    expect(await join(s, `${prefix}-${p.playerId}`)).toEqual({ ok: true });
    const gone = dropped(s);
    expect((await a.inject({ method: 'POST', url: '/api/logout', headers: { authorization: p.auth } })).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });

  test("a staff logout through A drops the console's socket on B", async () => {
    const staff = await createStaff(a);
    const s = socketTo(urlB, { token: staff.token }, '/staff');
    sockets.push(s);
    await connected(s);
    const gone = dropped(s);
    expect((await a.inject({ method: 'POST', url: '/api/staff/logout', headers: { authorization: `Bearer ${staff.token}` } })).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });

  test('one address has one budget of guest ids and guest messages on both', async () => {
    const address = `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
    const headers = { 'x-forwarded-for': address };
    const ids: string[] = [];
    const codes: number[] = [];
    for (const app of [a, b, a, b, a]) {
      const res = await app.inject({ method: 'POST', url: '/api/chat/guest', headers });
      codes.push(res.statusCode);
      if (res.statusCode === 200) ids.push((res.json() as { guestId: string }).guestId);
    }
    expect(codes).toEqual([200, 200, 200, 200, 429]);
    const sends: number[] = [];
    for (const [i, app] of [a, b, a, b, b].entries()) {
      const res = await app.inject({ method: 'POST', url: '/api/chat/send-message', headers, payload: { guestId: ids[i % ids.length], message: `m${i}`, message_type: 'text', locale: 'en' } });
      sends.push(res.statusCode);
    }
    expect(sends).toEqual([200, 200, 200, 200, 429]);
  });
});
