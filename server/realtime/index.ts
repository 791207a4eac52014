import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import { AppError } from '../errors';
import { guestIds, type GuestIds } from './guest-id';
import { playerRoom, sessionRoom, staffRoom, startSessionWatch, type SessionSocketData } from './session-watch';
import { clientAddressOf, connectionCounter, eventBudget } from './socket-limits';
import { startWalletPush } from './wallet-push';

/** What a socket of the player/guest namespace proved at connect (socket.data). */
export interface CustomerSocketData extends SessionSocketData {
  playerId?: number;
  /** The player's token, checked again on a join so a logged-out token joins nothing. */
  token?: string;
  guestId?: string;
}

export type JoinAck = { ok: true } | { ok: false; message: string };

export interface Realtime {
  /** The socket.io Server (namespaces: `/` players and guests, `/staff` the console). */
  io: Server;
  /** CHAT_PREFIX: rooms are `{prefix}-{userId}` and `{prefix}-{guestId}`. */
  prefix: string;
  guestIds: GuestIds;
  roomOfPlayer(playerId: number | string): string;
  roomOfGuest(guestId: string): string;
  /** Emits to every socket (of every process, with Redis) that joined the player's room. */
  toPlayer(playerId: number | string, event: string, data: unknown): void;
  toGuest(guestId: string, event: string, data: unknown): void;
  /**
   * Sockets follow sessions (session-watch.ts): these disconnect, on every process, the sockets of a session the
   * server just ended. Call them after the commit. Whatever else ends a session is caught by the periodic check.
   */
  endPlayerSession(sessionId: string): void;
  /** Every socket of the player but those of `keepToken`'s session (the token a password change issued). */
  endPlayerSessions(playerId: number, keepToken?: string): void;
  endStaffSession(sessionId: string): void;
  endStaffSessions(staffId: number): void;
  /** The session check's pass, now (it also runs every SOCKET_SESSION_CHECK_MS); answers how many sockets it dropped. */
  checkSessions(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export const SOCKET_PATH = '/socket.io';
/** The console's namespace (the chat plugin serves it: server/plugins/chat/staff-socket.ts). */
export const STAFF_NAMESPACE = '/staff';

/** The player and session of a token, by the same checks as app.authenticate (signature, session, status). */
export async function playerOfToken(app: FastifyInstance, token: string): Promise<{ playerId: number; sessionId: string }> {
  const req = { headers: { authorization: `Bearer ${token}` } } as unknown as FastifyRequest;
  await app.authenticate(req, undefined as never);
  return { playerId: req.playerId, sessionId: req.sessionId };
}

/** The session id of a token this server just issued (read, not verified: it never came from a client). */
function jtiOf(token: string): string | null {
  try {
    const jti = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti?: unknown }).jti;
    return typeof jti === 'string' ? jti : null;
  } catch {
    return null;
  }
}

const REDIS_READY_MS = 8000;

function readyWithin(client: { status: string; once(event: string, fn: (...args: unknown[]) => void): unknown }, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('not ready')), ms);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The Redis adapter publishes every room broadcast (`io.to(room).emit`, `disconnectSockets`) and never awaits the
 * answer: while Redis is down, ioredis rejects the publish after its retries, and that unhandled rejection stopped
 * the process (Node's default), so a chat reply or a logout during a Redis outage took the worker down with it. Each
 * publish gets a handler here: the broadcast still reaches this process's own sockets (the adapter emits locally
 * first), and what the other processes would have delivered is lost and logged (docs/operations.md "Without Redis,
 * and other faults"). A caller that awaits the publish still sees its rejection.
 */
export function catchPublishFailures(pub: { publish: (...args: never[]) => Promise<unknown> }, onLost: (err: Error) => void): void {
  const publish = pub.publish.bind(pub) as (...args: unknown[]) => Promise<unknown>;
  (pub as { publish: (...args: unknown[]) => Promise<unknown> }).publish = (...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(onLost);
    return sent;
  };
}

const codeOf = (e: unknown) => (e instanceof AppError ? e.code : 'UNAUTHORIZED');

/**
 * Socket.io on the API's own port (docs/chat.md "Rooms and events"). Only WebSocket upgrades on /socket.io reach
 * it: engine.io is attached to a stand-in HTTP server that never listens, and the API server hands it those
 * upgrades. So every plain HTTP request, /socket.io/... included, stays with Fastify (rate limit, headers, the
 * 404 JSON of an unknown server path), and long-polling does not exist. With REDIS_URL the Redis adapter
 * carries room broadcasts between processes, on channels keyed by CHAT_PREFIX.
 */
async function realtime(app: FastifyInstance) {
  const { config } = app;
  const prefix = config.chatPrefix;
  const options: Partial<ServerOptions> = {
    path: SOCKET_PATH,
    transports: ['websocket'],
    serveClient: false,
    // Clients only send `join {room}`: a small frame limit.
    maxHttpBufferSize: 16 * 1024,
  };

  let closeRedis = async () => {};
  if (config.redisUrl) {
    // Loaded only when configured, so a single-process install needs no Redis connection.
    const { default: Redis } = await import('ioredis');
    const { createAdapter } = await import('@socket.io/redis-adapter');
    // A generous connect timeout: a start that loads many modules can block the event loop for a second.
    const pub = new Redis(config.redisUrl, { connectTimeout: 10_000, maxRetriesPerRequest: 2, disconnectTimeout: 500 });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err: Error) => app.log.warn({ err: err.message }, 'socket.io redis error'));
    catchPublishFailures(pub, (err) => app.log.warn({ err: err.message }, 'socket.io redis: a broadcast to the other processes was lost'));
    closeRedis = async () => {
      await Promise.all([pub, sub].map((c) => c.quit().catch(() => c.disconnect())));
    };
    // The adapter subscribes at once: only on ready connections (a subscribe queued while connecting can leave
    // ioredis failing its ready check in subscriber mode). Without Redis the rooms would silently stay per process,
    // so a start that cannot reach it fails instead.
    try {
      await Promise.all([pub, sub].map((c) => readyWithin(c, REDIS_READY_MS)));
    } catch (e) {
      for (const c of [pub, sub]) c.disconnect();
      throw new Error(`REDIS_URL is set but Redis did not answer within ${REDIS_READY_MS / 1000} s (${(e as Error).message})`);
    }
    options.adapter = createAdapter(pub, sub, { key: `${prefix}#socket.io` });
  }

  const io = new Server(options);
  io.attach(http.createServer(), options);

  // The upgrade passes no Fastify hook, so the per-address cap is counted here (socket-limits.ts).
  const limits = config.chatLimits;
  const addressOf = clientAddressOf(config.trustProxy);
  const perAddress = connectionCounter(limits.socketMaxPerAddress);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== SOCKET_PATH && path !== `${SOCKET_PATH}/`) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const address = addressOf(req);
    if (!perAddress.admit(address)) {
      socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n{"message":"REQUEST_LIMIT"}');
      return;
    }
    socket.once('close', () => perAddress.release(address));
    io.engine.handleUpgrade(req, socket, head);
  };
  app.server.on('upgrade', onUpgrade);

  const ids = guestIds(config.jwtSecret);
  const roomOfPlayer = (playerId: number | string) => `${prefix}-${playerId}`;
  const roomOfGuest = (guestId: string) => `${prefix}-${guestId}`;

  // Players and guests: a player's token or a guest id this server issued, nothing else connects.
  io.use(async (socket: Socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown; guestId?: unknown };
    const data = socket.data as CustomerSocketData;
    try {
      if (typeof auth.token === 'string' && auth.token) {
        const who = await playerOfToken(app, auth.token);
        data.playerId = who.playerId;
        data.sessionId = who.sessionId;
        data.token = auth.token;
      } else if (ids.verify(auth.guestId)) {
        data.guestId = auth.guestId;
      } else {
        throw new AppError(401, 'UNAUTHORIZED');
      }
      next();
    } catch (e) {
      next(new Error(codeOf(e)));
    }
  });

  io.on('connection', (socket: Socket) => {
    eventBudget(socket, limits.socketEventsPerMinute);
    const data = socket.data as CustomerSocketData;
    // The rooms that end it with its session (session-watch.ts); a client cannot join them (join takes `{prefix}-...`).
    if (data.sessionId && data.playerId !== undefined) void socket.join([sessionRoom(data.sessionId), playerRoom(data.playerId)]);
    socket.on('join', async (arg: unknown, ack?: unknown) => {
      const reply = (a: JoinAck) => (typeof ack === 'function' ? ack(a) : undefined);
      const room = arg && typeof arg === 'object' ? (arg as { room?: unknown }).room : undefined;
      try {
        if (typeof room !== 'string') throw new AppError(401, 'UNAUTHORIZED');
        // Only its own room was ever joined, and the session check drops the socket if its session ends: no read.
        if (socket.rooms.has(room) && room !== socket.id) return reply({ ok: true });
        if (data.playerId !== undefined && data.token) {
          if (room !== roomOfPlayer(data.playerId)) throw new AppError(401, 'UNAUTHORIZED');
          // The token may have been logged out since the connect.
          if ((await playerOfToken(app, data.token)).playerId !== data.playerId) throw new AppError(401, 'UNAUTHORIZED');
        } else if (!data.guestId || room !== roomOfGuest(data.guestId)) {
          throw new AppError(401, 'UNAUTHORIZED');
        }
        await socket.join(room);
        reply({ ok: true });
      } catch (e) {
        reply({ ok: false, message: codeOf(e) });
      }
    });
  });

  app.decorate('realtime', {
    io,
    prefix,
    guestIds: ids,
    roomOfPlayer,
    roomOfGuest,
    toPlayer: (playerId, event, data) => void io.to(roomOfPlayer(playerId)).emit(event, data),
    toGuest: (guestId, event, data) => void io.to(roomOfGuest(guestId)).emit(event, data),
    endPlayerSession: (sessionId) => io.in(sessionRoom(sessionId)).disconnectSockets(true),
    endPlayerSessions: (playerId, keepToken) => {
      const sockets = io.in(playerRoom(playerId));
      const keep = keepToken ? jtiOf(keepToken) : null;
      (keep ? sockets.except(sessionRoom(keep)) : sockets).disconnectSockets(true);
    },
    endStaffSession: (sessionId) => io.of(STAFF_NAMESPACE).in(sessionRoom(sessionId)).disconnectSockets(true),
    endStaffSessions: (staffId) => io.of(STAFF_NAMESPACE).in(staffRoom(staffId)).disconnectSockets(true),
    checkSessions: () => sessionWatch.check(),
  } satisfies Realtime);

  const sessionWatch = startSessionWatch({
    db: app.db,
    io,
    intervalMs: limits.socketSessionCheckMs,
    now: () => app.clock.now(),
    onError: (err) => app.log.warn({ err: (err as Error)?.message }, 'socket session check failed'),
  });

  // Live balance: committed ledger entries announced to their players' rooms (wallet-push.ts).
  const walletPush = await startWalletPush({
    db: app.db,
    io,
    roomOfPlayer,
    onError: (err) => app.log.warn({ err: (err as Error)?.message }, 'wallet push pass failed'),
  });

  // Before the HTTP server closes: open WebSockets would keep server.close() waiting forever. New upgrades stop
  // first; io.close() then closes every engine transport without a socket.io `disconnect` packet, so clients see
  // `transport close` and reconnect by themselves after 500 ms (to another process behind the same port), where
  // a server-side disconnect (`io.disconnectSockets()`, `socket.disconnect()`) would stop their retries. Checked
  // by restart.test.ts (docs/operations.md "Sockets during a restart").
  app.addHook('preClose', async () => {
    sessionWatch.stop();
    await walletPush.stop();
    app.server.off('upgrade', onUpgrade);
    await io.close();
  });
  app.addHook('onClose', async () => closeRedis());
}

export default fp(realtime, { name: 'realtime', dependencies: ['db', 'auth'] });
