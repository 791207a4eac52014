import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { http as route, passthrough } from 'msw';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io-client';

import { loadSocketIo, openRoomSocket, RECONNECT_DELAY_MS, SOCKET_CHECK_MS, type IoFactory } from './roomSocket';
import { server } from '../test/support/server';

/**
 * The room socket after the server drops it (docs/operations.md "Sockets during a restart"): a server-side
 * disconnect is retried after RECONNECT_DELAY_MS, a refusal is not, a transport close is left to socket.io.
 */

/** A stand-in socket whose connection the test drives. */
function fakeIo() {
  const handlers = new Map<string, ((...args: unknown[]) => void)[]>();
  const state = { connected: false, active: true, connects: 0 };
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
    emit() {
      return socket;
    },
    connect() {
      state.connects += 1;
      state.active = true;
      return socket;
    },
    disconnect() {
      state.active = false;
      return socket;
    },
  };
  const fire = (event: string, ...args: unknown[]) => handlers.get(event)?.forEach((h) => h(...args));
  const io: IoFactory = () => socket as unknown as Socket;
  /** What socket.io does on a server-side disconnect: the socket is down and will not come back by itself. */
  const serverDisconnect = () => {
    state.connected = false;
    state.active = false;
    fire('disconnect', 'io server disconnect');
  };
  return { io, state, fire, serverDisconnect };
}

const base = { url: 'http://x', room: 'r-1', auth: () => ({ token: 't' }), onJoinAnswer: () => undefined, events: {} };

describe('room socket retries', () => {
  afterEach(() => jest.useRealTimers());

  it('connects again RECONNECT_DELAY_MS after a server-side disconnect, once', () => {
    jest.useFakeTimers();
    const fake = fakeIo();
    const downs: boolean[] = [];
    const stop = openRoomSocket({ ...base, io: fake.io, onDown: (refused) => downs.push(refused) });
    fake.state.connected = true;
    fake.fire('connect');
    fake.serverDisconnect();
    expect(downs).toEqual([false]);
    jest.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(fake.state.connects).toBe(0);
    jest.advanceTimersByTime(1);
    expect(fake.state.connects).toBe(1);
    // socket.io's own retries take it from here (active again): the 5 s check adds nothing.
    jest.advanceTimersByTime(SOCKET_CHECK_MS * 2);
    expect(fake.state.connects).toBe(1);
    expect(RECONNECT_DELAY_MS).toBe(500);
    stop();
  });

  it('leaves a transport close to socket.io, which reconnects by itself', () => {
    jest.useFakeTimers();
    const fake = fakeIo();
    const stop = openRoomSocket({ ...base, io: fake.io, onDown: () => undefined });
    fake.state.connected = true;
    fake.fire('connect');
    fake.state.connected = false; // still active: socket.io is reconnecting
    fake.fire('disconnect', 'transport close');
    jest.advanceTimersByTime(SOCKET_CHECK_MS * 2);
    expect(fake.state.connects).toBe(0);
    stop();
  });

  it('does not connect again when closed before the delay, nor after a refusal', () => {
    jest.useFakeTimers();
    const fake = fakeIo();
    const stop = openRoomSocket({ ...base, io: fake.io, onDown: () => undefined });
    fake.fire('connect');
    fake.serverDisconnect();
    stop();
    jest.advanceTimersByTime(SOCKET_CHECK_MS * 2);
    expect(fake.state.connects).toBe(0);

    const refusedFake = fakeIo();
    const downs: boolean[] = [];
    const stop2 = openRoomSocket({ ...base, io: refusedFake.io, onDown: (refused) => downs.push(refused) });
    refusedFake.serverDisconnect();
    // The reconnection is refused before the delay ends: the identity is not tried again.
    refusedFake.fire('connect_error', new Error('invalid-token'));
    jest.advanceTimersByTime(SOCKET_CHECK_MS * 2);
    expect(refusedFake.state.connects).toBe(0);
    expect(downs).toEqual([false, true]);
    stop2();
  });
});

describe('room socket against a socket.io server that drops it', () => {
  let http: HttpServer;
  let io: Server;
  let url: string;
  let close: (() => void) | null = null;
  beforeEach(async () => {
    http = createServer();
    io = new Server(http, { path: '/socket.io', transports: ['websocket'] });
    io.on('connection', (socket) => {
      socket.on('join', ({ room }: { room: string }, ack?: (answer: unknown) => void) => {
        void socket.join(room);
        ack?.({ ok: true });
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    // The websocket handshake goes to the real server (msw fakes HTTP only).
    server.use(route.get(`${url}/socket.io/`, () => passthrough()));
  });
  afterEach(async () => {
    close?.();
    close = null;
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });

  it('joins again about half a second after the server disconnects it, and hears the room', async () => {
    const realIo = await loadSocketIo();
    const answers: unknown[] = [];
    const heard: unknown[] = [];
    let poke = () => undefined as void;
    const until = (test: () => boolean) =>
      new Promise<void>((resolve) => {
        poke = () => (test() ? resolve() : undefined);
        poke();
      });
    close = openRoomSocket({
      io: realIo,
      url,
      room: 'r-1',
      auth: () => ({ token: 't' }),
      onJoinAnswer: (a) => (answers.push(a), poke()),
      onDown: () => undefined,
      events: { ping: (d) => (heard.push(d), poke()) },
    });
    await until(() => answers.length === 1);
    io.disconnectSockets(); // a server-side disconnect: `io server disconnect` at the client
    const droppedAt = Date.now();
    await until(() => answers.length === 2);
    const took = Date.now() - droppedAt;
    expect(took).toBeGreaterThanOrEqual(RECONNECT_DELAY_MS - 50);
    expect(took).toBeLessThan(2000); // not the 5 s check
    expect(answers).toEqual([{ ok: true }, { ok: true }]);
    io.to('r-1').emit('ping', { n: 1 });
    await until(() => heard.length === 1);
    expect(heard).toEqual([{ n: 1 }]);
  });
});
