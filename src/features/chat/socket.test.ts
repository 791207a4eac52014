import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { http as route, passthrough } from 'msw';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io-client';

import type { MessagingEvent, SocketStatus } from './chatSlice';
import { loadSocketIo, openChatSocket, RECONNECT_DELAY_MS, SOCKET_CHECK_MS, type IoFactory } from './socket';
import { server } from '../../test/support/server';
import { chatMessage } from '../../test/support/chat';

/** A socket.io server as the chat contract describes it: auth by guest id, `join` with an ack, `messaging`. */
async function startChatServer() {
  const http: HttpServer = createServer();
  const io = new Server(http, { path: '/socket.io', transports: ['websocket'] });
  const joins: { room: string; auth: unknown; transport: string }[] = [];
  const listeners = new Set<() => void>();
  io.use((socket, next) => (socket.handshake.auth?.guestId === 'g_ok' ? next() : next(new Error('UNAUTHORIZED'))));
  io.on('connection', (socket) => {
    socket.on('join', ({ room }: { room: string }, ack?: (answer: unknown) => void) => {
      joins.push({ room, auth: socket.handshake.auth, transport: socket.conn.transport.name });
      listeners.forEach((listener) => listener());
      if (room !== 'chat-g_ok') return ack?.({ ok: false, message: 'UNAUTHORIZED' });
      void socket.join(room);
      ack?.({ ok: true });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    io,
    url,
    joins,
    /** Called after every join the server receives. */
    onJoin: (listener: () => void) => listeners.add(listener),
    stop: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}

function recorder() {
  const statuses: SocketStatus[] = [];
  const events: MessagingEvent[] = [];
  let joined = 0;
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  const poke = () => waiters.filter((w) => w.test()).forEach((w) => (waiters.splice(waiters.indexOf(w), 1), w.resolve()));
  return {
    statuses,
    events,
    get joined() {
      return joined;
    },
    onStatus: (status: SocketStatus) => {
      statuses.push(status);
      poke();
    },
    onMessaging: (event: MessagingEvent) => {
      events.push(event);
      poke();
    },
    onJoined: () => {
      joined += 1;
      poke();
    },
    poke,
    /** Resolves once `test` holds (checked after every callback and `poke`). */
    until: (test: () => boolean) => new Promise<void>((resolve) => (test() ? resolve() : waiters.push({ test, resolve }))),
  };
}

describe('chat socket against a socket.io server', () => {
  let chat: Awaited<ReturnType<typeof startChatServer>>;
  let close: (() => void) | null = null;
  beforeEach(async () => {
    chat = await startChatServer();
    // The websocket handshake goes to the real server (msw fakes HTTP only).
    server.use(route.get(`${chat.url}/socket.io/`, () => passthrough()));
  });
  afterEach(async () => {
    close?.();
    close = null;
    await chat.stop();
  });

  it('connects over websocket only with the guest id, joins its room and hands over messaging events', async () => {
    const io = await loadSocketIo();
    const rec = recorder();
    chat.onJoin(rec.poke);
    close = openChatSocket({ io, url: chat.url, room: 'chat-g_ok', auth: () => ({ guestId: 'g_ok' }), ...rec });
    await rec.until(() => rec.joined === 1);
    expect(chat.joins[0]).toEqual({ room: 'chat-g_ok', auth: { guestId: 'g_ok' }, transport: 'websocket' });
    expect(rec.statuses).toEqual(['connecting', 'connected']);

    const message = chatMessage('live1');
    chat.io.to('chat-g_ok').emit('messaging', { type: 'message', message });
    chat.io.to('chat-g_ok').emit('messaging', { type: 'unknown' });
    chat.io.to('chat-g_ok').emit('messaging', { type: 'end', session_id: 's1', at: '2026-11-26T03:00:00.000Z' });
    await rec.until(() => rec.events.length === 2);
    expect(rec.events).toEqual([
      { type: 'message', message },
      { type: 'end', session_id: 's1', at: '2026-11-26T03:00:00.000Z' },
    ]);
  });

  it('joins again after a reconnection and says so each time (the widget reloads the newest page)', async () => {
    const io = await loadSocketIo();
    const rec = recorder();
    chat.onJoin(rec.poke);
    close = openChatSocket({ io, url: chat.url, room: 'chat-g_ok', auth: () => ({ guestId: 'g_ok' }), ...rec });
    await rec.until(() => chat.joins.length === 1);
    // The transport drops (not a server-side disconnect): socket.io reconnects after 500 ms.
    for (const socket of chat.io.sockets.sockets.values()) socket.conn.close();
    await rec.until(() => chat.joins.length === 2 && rec.joined === 2);
    expect(rec.statuses).toEqual(['connecting', 'connected', 'disconnected', 'connected']);
  });

  it('reports a refused identity, which never joins', async () => {
    const io = await loadSocketIo();
    const rec = recorder();
    close = openChatSocket({ io, url: chat.url, room: 'chat-g_bad', auth: () => ({ guestId: 'g_bad' }), ...rec });
    await rec.until(() => rec.statuses.includes('refused'));
    expect(chat.joins).toEqual([]);
  });

  it('reports a refused room', async () => {
    const io = await loadSocketIo();
    const rec = recorder();
    close = openChatSocket({ io, url: chat.url, room: 'chat-g_other', auth: () => ({ guestId: 'g_ok' }), ...rec });
    await rec.until(() => rec.statuses.includes('refused'));
    expect(chat.joins.map((j) => j.room)).toEqual(['chat-g_other']);
    expect(rec.joined).toBe(0);
  });
});

/** A stand-in socket whose connection the test drives, for the timers. */
function fakeIo() {
  const handlers = new Map<string, ((...args: unknown[]) => void)[]>();
  const state = { connected: false, active: true, connects: 0, emitted: [] as unknown[][], options: null as unknown, disconnected: false };
  const socket = {
    get connected() {
      return state.connected;
    },
    get active() {
      return state.active;
    },
    on(event: string, handler: (...args: unknown[]) => void) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
      return socket;
    },
    off() {
      handlers.clear();
      return socket;
    },
    emit(...args: unknown[]) {
      state.emitted.push(args);
      return socket;
    },
    connect() {
      state.connects += 1;
      state.active = true;
      return socket;
    },
    disconnect() {
      state.disconnected = true;
      return socket;
    },
  };
  const fire = (event: string, ...args: unknown[]) => handlers.get(event)?.forEach((h) => h(...args));
  const io: IoFactory = (_url, options) => {
    state.options = options;
    return socket as unknown as Socket;
  };
  return { io, state, fire };
}

describe('chat socket options and the 5 s check', () => {
  afterEach(() => jest.useRealTimers());
  const noop = { onStatus: () => undefined, onMessaging: () => undefined, onJoined: () => undefined };

  it('asks for websocket only, a 500 ms reconnection delay without a limit, and auth read at each connection', () => {
    const fake = fakeIo();
    let token = 'tok-1';
    const stop = openChatSocket({ io: fake.io, url: 'http://x', room: 'chat-1', auth: () => ({ token }), ...noop });
    const options = fake.state.options as Record<string, unknown> & { auth: (cb: (data: object) => void) => void };
    expect(options).toMatchObject({
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: true,
      reconnectionDelay: RECONNECT_DELAY_MS,
      reconnectionDelayMax: RECONNECT_DELAY_MS,
      reconnectionAttempts: Infinity,
    });
    expect(RECONNECT_DELAY_MS).toBe(500);
    const seen: object[] = [];
    options.auth((data) => seen.push(data));
    token = 'tok-2';
    options.auth((data) => seen.push(data));
    expect(seen).toEqual([{ token: 'tok-1' }, { token: 'tok-2' }]);
    stop();
    expect(fake.state.disconnected).toBe(true);
  });

  it('every 5 s reconnects a socket that socket.io gave up on, and stops when closed', () => {
    jest.useFakeTimers();
    const fake = fakeIo();
    const stop = openChatSocket({ io: fake.io, url: 'http://x', room: 'chat-1', auth: () => ({ guestId: 'g' }), ...noop });
    fake.fire('connect');
    fake.state.connected = true;
    jest.advanceTimersByTime(SOCKET_CHECK_MS);
    expect(fake.state.connects).toBe(0);
    // A handshake that failed on the server's side (not a refusal): socket.io does not come back by itself.
    // (A server-side disconnect is retried after 500 ms: src/app/roomSocket.test.ts.)
    fake.state.connected = false;
    fake.state.active = false;
    fake.fire('connect_error', new Error('INTERNAL_SERVER_ERROR'));
    jest.advanceTimersByTime(SOCKET_CHECK_MS - 1);
    expect(fake.state.connects).toBe(0);
    jest.advanceTimersByTime(1);
    expect(fake.state.connects).toBe(1);
    stop();
    fake.state.active = false;
    jest.advanceTimersByTime(SOCKET_CHECK_MS * 3);
    expect(fake.state.connects).toBe(1);
    expect(SOCKET_CHECK_MS).toBe(5000);
  });

  it('does not knock again every 5 s with an identity the server refused', () => {
    jest.useFakeTimers();
    const fake = fakeIo();
    const statuses: SocketStatus[] = [];
    const stop = openChatSocket({ io: fake.io, url: 'http://x', room: 'chat-1', auth: () => ({ guestId: 'g' }), ...noop, onStatus: (s) => statuses.push(s) });
    fake.state.active = false;
    fake.fire('connect_error', new Error('UNAUTHORIZED'));
    jest.advanceTimersByTime(SOCKET_CHECK_MS * 3);
    expect(fake.state.connects).toBe(0);
    expect(statuses).toEqual(['connecting', 'refused']);
    // Any other failure (the server is down) is retried.
    fake.fire('connect_error', new Error('websocket error'));
    jest.advanceTimersByTime(SOCKET_CHECK_MS);
    expect(fake.state.connects).toBe(1);
    stop();
  });

  it('emits join with the room on every connection', () => {
    const fake = fakeIo();
    const stop = openChatSocket({ io: fake.io, url: 'http://x', room: 'chat-7', auth: () => ({ token: 't' }), ...noop });
    fake.fire('connect');
    fake.fire('disconnect', 'transport close');
    fake.fire('connect');
    expect(fake.state.emitted.map((args) => args.slice(0, 2))).toEqual([
      ['join', { room: 'chat-7' }],
      ['join', { room: 'chat-7' }],
    ]);
    stop();
  });
});
