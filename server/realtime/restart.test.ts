import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { io as socketIo, type Socket } from 'socket.io-client';
import { buildApp } from '../app';
import { seedBase } from '../db/seed';
import { depositTo, insertPlayer } from '../test/support/ledger';
import { createStaff } from '../test/support/staff';
import { STAFF_NAMESPACE, STAFF_ROOM } from '../plugins/chat/staff-socket';
import { freshDb, openSlipsAllDay, testConfig, type TestDb } from '../test/support/helper';
import { openRoomSocket, RECONNECT_DELAY_MS } from '../../src/core/roomSocket';

/**
 * Sockets during a restart (docs/operations.md): a process closing gracefully closes its sockets' transports, so
 * the player's room socket (the SPA's own src/core/roomSocket.ts) and the staff console's socket (its options:
 * src/staff/live/socket.ts) reconnect by themselves, here to a new process on the same port (in production,
 * another worker), join again and hear the next push.
 */

let db: TestDb;
const apps: FastifyInstance[] = [];
const closers: (() => void)[] = [];

async function build(): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(db.dataDir, { RATE_LIMIT_PER_MINUTE: '0' }), { database: db, logger: false });
  apps.push(app);
  await app.ready();
  return app;
}

/** Resolves when `check` holds, re-checked after every event the test records (and every 20 ms). */
async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(async () => {
  db = await freshDb();
  await seedBase(db.db);
  await openSlipsAllDay(db.db);
});
afterEach(async () => {
  for (const c of closers.splice(0)) c();
  for (const app of apps.splice(0)) await app.close();
  await db.dispose();
});

test('a graceful close drops the sockets with a transport close; player and console are back on the next process within 2 s', async () => {
  const first = await build();
  await first.listen({ port: 0, host: '127.0.0.1' });
  const port = (first.server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const playerId = await insertPlayer(db.db);
  const token = await first.tokens.issue(playerId);
  const staff = await createStaff(first);

  // The player's live-balance socket, exactly as the SPA opens it.
  const joins: unknown[] = [];
  const pushes: unknown[] = [];
  const playerDrops: string[] = [];
  closers.push(
    openRoomSocket({
      io: (uri, options) => socketIo(uri, options).on('disconnect', (reason) => playerDrops.push(reason)),
      url,
      room: first.realtime.roomOfPlayer(playerId),
      auth: () => ({ token }),
      onJoinAnswer: (a) => joins.push(a),
      onDown: () => undefined,
      events: { wallet: (d) => pushes.push(d) },
    }),
  );
  // The staff console's socket, with its options.
  const console: Socket = socketIo(`${url}${STAFF_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { token: staff.token },
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: RECONNECT_DELAY_MS,
    reconnectionDelayMax: RECONNECT_DELAY_MS,
    randomizationFactor: 0,
    forceNew: true,
  });
  closers.push(() => console.disconnect());
  let consoleConnects = 0;
  const consoleHeard: unknown[] = [];
  const consoleDrops: string[] = [];
  console.on('connect', () => consoleConnects++);
  console.on('disconnect', (reason) => consoleDrops.push(reason));
  console.on('conversation', (d) => consoleHeard.push(d));
  await until(() => joins.length === 1 && consoleConnects === 1);
  expect(joins).toEqual([{ ok: true }]);

  expect(first.realtime.io.sockets.sockets.size).toBe(1);
  const next = await build(); // the next process, ready before the first one goes
  await first.close();
  // Not `io server disconnect` (a server-side disconnect, after which socket.io-client does not reconnect by itself).
  await until(() => consoleDrops.length === 1 && playerDrops.length === 1);
  expect({ player: playerDrops, console: consoleDrops }).toEqual({ player: ['transport close'], console: ['transport close'] });
  await next.listen({ port, host: '127.0.0.1' });
  const listening = Date.now();
  await until(() => joins.length === 2 && consoleConnects === 2, 2000);
  expect(joins).toEqual([{ ok: true }, { ok: true }]);
  expect(Date.now() - listening).toBeLessThan(2000);
  expect(next.realtime.io.of(STAFF_NAMESPACE).sockets.size).toBe(1);

  // Pushes from the new process reach both: a deposit's live balance, a console event.
  await depositTo(db.db, playerId, 5_000);
  next.realtime.io.of(STAFF_NAMESPACE).to(STAFF_ROOM).emit('conversation', { id: 'c1' });
  await until(() => pushes.length >= 1 && consoleHeard.length === 1);
  expect(pushes[0]).toEqual({ reason: 'deposit' });
  expect(consoleHeard).toEqual([{ id: 'c1' }]);
});
