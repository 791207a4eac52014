import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';

import { server } from '../test/support/server';
import { selectWalletLive } from '../core/liveSlice';
import { makeStore } from './store';
import { useWalletPush, walletPushDeps } from './useWalletPush';
import type { IoFactory } from './walletSocket';

/** A socket.io-client stand-in: the test plays the server (connects, answers the join, emits events, drops). */
class FakeSocket {
  handlers = new Map<string, ((...args: unknown[]) => void)[]>();
  emitted: unknown[][] = [];
  connected = false;
  active = true;
  closed = false;
  constructor(
    public url: string,
    public options: Record<string, unknown>,
  ) {}
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
    return this;
  }
  off() {
    this.handlers.clear();
    return this;
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
    return this;
  }
  connect() {
    return this;
  }
  disconnect() {
    this.closed = true;
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const fn of this.handlers.get(event) ?? []) fn(...args);
  }
  auth(): unknown {
    let value: unknown;
    (this.options.auth as (cb: (d: unknown) => void) => void)((d) => (value = d));
    return value;
  }
  /** The server accepts the connection and the join. */
  goLive() {
    this.connected = true;
    this.fire('connect');
    const [event, data, ack] = this.emitted[this.emitted.length - 1] as [string, unknown, (a: unknown) => void];
    expect([event, data]).toEqual(['join', { room: 'chat-7' }]);
    ack({ ok: true });
  }
}

const sockets: FakeSocket[] = [];
const fakeIo: IoFactory = (url, options) => {
  const s = new FakeSocket(url, options as Record<string, unknown>);
  sockets.push(s);
  return s as never;
};

let walletCalls = 0;
beforeEach(() => {
  sockets.length = 0;
  walletCalls = 0;
  walletPushDeps.enabled = true;
  walletPushDeps.load = () => Promise.resolve(fakeIo);
  server.use(
    http.get('/api/chat/config', () => HttpResponse.json({ PREFIX: 'chat' })),
    http.get('/api/wallet', () => {
      walletCalls += 1;
      return HttpResponse.json({ profile: { name: 'P', username: 'u', _id: '7', coin: 0 }, wallet: { amount: walletCalls }, invite: { amount: 0, success: 0, fail: 0 }, slots: [] });
    }),
  );
});
afterEach(() => {
  walletPushDeps.enabled = false;
});

function mount() {
  const store = makeStore({ session: { token: 'tok-7', remember: false, login: { status: 'loggedIn' } } });
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  const renders = { count: 0 };
  // The hook reads the wallet (the player's id) itself: its query is what the tag refetches here.
  const view = renderHook(
    () => {
      renders.count += 1;
      useWalletPush();
    },
    { wrapper },
  );
  return { store, view, renders };
}

it("joins the player's room with the token over websocket only, reconnecting every 500 ms without a limit", async () => {
  const { store } = mount();
  await waitFor(() => expect(sockets).toHaveLength(1));
  const s = sockets[0];
  expect(s.options).toMatchObject({ path: '/socket.io', transports: ['websocket'], reconnection: true, reconnectionDelay: 500, reconnectionDelayMax: 500, reconnectionAttempts: Infinity });
  expect(s.auth()).toEqual({ token: 'tok-7' });
  expect(selectWalletLive(store.getState())).toBe(false);
  act(() => s.goLive());
  expect(store.getState().live.walletSocket).toBe('live');
  expect(selectWalletLive(store.getState())).toBe(true);
});

it('opens the socket in a task after the one in which the library arrived (issue 13: two short tasks, not one long)', async () => {
  let arrived!: (io: IoFactory) => void;
  walletPushDeps.load = () => new Promise<IoFactory>((resolve) => (arrived = resolve));
  mount();
  await waitFor(() => expect(arrived).toBeDefined());
  await act(async () => {
    arrived(fakeIo);
    // Every microtask of this task: the library's promise and whatever runs after it.
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
  expect(sockets).toHaveLength(0);
  await waitFor(() => expect(sockets).toHaveLength(1));
});

/** Mounted, its socket live, and the wallet reloaded once for the join. */
async function mountLive() {
  const mounted = mount();
  await waitFor(() => expect(sockets).toHaveLength(1));
  const s = sockets[0];
  act(() => s.goLive());
  // The join itself counts: changes made while the socket was down came as no event.
  await waitFor(() => expect(walletCalls).toBe(2));
  return { ...mounted, s };
}

it('a wallet event refetches the wallet and counts a push; pollers rest only while live', async () => {
  const { store, s } = await mountLive();
  const pushes = store.getState().live.walletPushes;
  act(() => s.fire('wallet', { reason: 'deposit' }));
  expect(store.getState().live.walletPushes).toBe(pushes + 1);
  await waitFor(() => expect(walletCalls).toBe(3));
  await waitFor(() => expect(store.getState().api.queries['getWallet(undefined)']?.data).toMatchObject({ wallet: { amount: 3 } }));
  act(() => s.fire('disconnect', 'transport close'));
  expect(selectWalletLive(store.getState())).toBe(false);
  expect(store.getState().live.walletSocket).toBe('down');
});

it('a wallet reload (a push) does not draw the layout again: the hook watches the player id only', async () => {
  const { renders, s } = await mountLive();
  const before = renders.count;
  act(() => s.fire('wallet', { reason: 'deposit' }));
  await waitFor(() => expect(walletCalls).toBe(3));
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  expect(renders.count).toBe(before);
});

it('a refused join leaves pollers polling; unmounting closes the socket', async () => {
  const { store, view } = mount();
  await waitFor(() => expect(sockets).toHaveLength(1));
  const s = sockets[0];
  act(() => {
    s.fire('connect');
    (s.emitted[0][2] as (a: unknown) => void)({ ok: false, message: 'UNAUTHORIZED' });
  });
  expect(store.getState().live.walletSocket).toBe('down');
  view.unmount();
  expect(s.closed).toBe(true);
  expect(store.getState().live.walletSocket).toBe('off');
});

it('without a room prefix (chat off) there is no socket', async () => {
  server.use(http.get('/api/chat/config', () => HttpResponse.json({ PREFIX: null })));
  const { store } = mount();
  await waitFor(() => expect(walletCalls).toBe(1));
  await act(async () => {
    await Promise.resolve();
  });
  expect(sockets).toHaveLength(0);
  expect(store.getState().live.walletSocket).toBe('off');
});
