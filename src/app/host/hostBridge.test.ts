import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { waitFor } from '@testing-library/react';

import { api } from '../../core/api';
import { walletApi, type WalletResponse } from '../../core/walletApi';
import { connectHostBridge, isAllowedOrigin, readHostCommand, targetOrigins, type BridgeRouter } from './hostBridge';
import { hostControlsFromQuery, hostControlsRequested, hostLocaleFromQuery, selectHostHidden, withHostControls } from './hostSlice';
import { prefsReducer, selectLocale } from '../../core/prefs';

const HOST = 'https://host.example';
const OTHER = 'https://evil.example';

function makeBridgeStore() {
  return configureStore({
    reducer: withHostControls(combineReducers({ [api.reducerPath]: api.reducer, prefs: prefsReducer })),
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

function fakeRouter(pathname = '/user/home') {
  const listeners = new Set<() => void>();
  const router: BridgeRouter & { go(path: string, search?: string): void } = {
    state: { location: { pathname, search: '' } },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    go(path, search = '') {
      router.state = { location: { pathname: path, search } };
      listeners.forEach((l) => l());
    },
  };
  return router;
}

const wallet = (amount: number) => ({ wallet: { amount } }) as WalletResponse;

/** A message event as the browser delivers it to the app's window. */
const message = (data: unknown, origin: string, source: unknown) => Object.assign(new Event('message'), { data, origin, source });

function setUp(options: { allowed?: string[]; hostOrigin?: string | null } = {}) {
  const win = new EventTarget() as unknown as Window;
  const host = { postMessage: jest.fn() };
  const store = makeBridgeStore();
  const router = fakeRouter();
  const stop = connectHostBridge({
    win,
    host: host as unknown as Window,
    allowedOrigins: options.allowed ?? [HOST],
    hostOrigin: options.hostOrigin ?? HOST,
    store,
    router,
  });
  const sent = () => host.postMessage.mock.calls.map(([data, origin]) => ({ data, origin }));
  return { win, host, store, router, stop, sent };
}

describe('parsing', () => {
  test('the query parameter names the controls the host shows itself; unknown names are ignored', () => {
    expect(hostControlsFromQuery('?hostControls=logout,language')).toEqual(['logout', 'language']);
    expect(hostControlsFromQuery('?x=1&hostControls=language,%20bogus')).toEqual(['language']);
    expect(hostControlsFromQuery('?hostControls=')).toEqual([]);
    expect(hostControlsFromQuery('?next=%2Fuser')).toBeNull();
  });

  test("the query parameter may name the host's language; anything but th, la, en is ignored", () => {
    expect(hostLocaleFromQuery('?hostControls=language&locale=la')).toBe('la');
    expect(hostLocaleFromQuery('?locale=lo')).toBeNull();
    expect(hostLocaleFromQuery('')).toBeNull();
  });

  test('a locale message is read when it names one of the app languages', () => {
    expect(readHostCommand({ type: 'locale', locale: 'en' })).toEqual({ type: 'locale', locale: 'en' });
    expect(readHostCommand({ type: 'locale', locale: 'fr' })).toBeNull();
  });

  test('a host-controls message is read; anything else is not', () => {
    expect(readHostCommand({ type: 'host-controls', hide: ['logout', 'nope'] })).toEqual({ type: 'host-controls', hide: ['logout'] });
    expect(readHostCommand({ type: 'host-controls', hide: [] })).toEqual({ type: 'host-controls', hide: [] });
    expect(readHostCommand({ type: 'host-controls', hide: 'logout' })).toBeNull();
    expect(readHostCommand({ type: 'route', path: '/' })).toBeNull();
    expect(readHostCommand('host-controls')).toBeNull();
    expect(readHostCommand(null)).toBeNull();
  });

  test('origins match exactly, never by wildcard or the opaque null origin', () => {
    expect(isAllowedOrigin(HOST, [HOST])).toBe(true);
    expect(isAllowedOrigin(`${HOST}:8443`, [HOST])).toBe(false);
    expect(isAllowedOrigin('http://host.example', [HOST])).toBe(false);
    expect(isAllowedOrigin('null', ['null'])).toBe(false);
    expect(isAllowedOrigin('*', [HOST])).toBe(false);
  });

  test('messages go to the embedding origin when it is allowed, else to each allowed origin', () => {
    expect(targetOrigins([HOST, OTHER], HOST)).toEqual([HOST]);
    expect(targetOrigins([HOST], 'https://unknown.example')).toEqual([HOST]);
    expect(targetOrigins([HOST, OTHER], null)).toEqual([HOST, OTHER]);
  });
});

describe('the host slice', () => {
  test('keeps the latest request, in the order of the top bar, beside the app state', () => {
    const store = makeBridgeStore();
    store.dispatch({ type: 'first/action' }); // the API middleware registers itself on the first action
    const apiState = store.getState()[api.reducerPath];
    store.dispatch(hostControlsRequested(['language', 'logout']));
    expect(selectHostHidden(store.getState())).toEqual(['logout', 'language']);
    expect(store.getState()[api.reducerPath]).toBe(apiState);
    store.dispatch(hostControlsRequested(['language']));
    expect(selectHostHidden(store.getState())).toEqual(['language']);
  });

  test('an action nobody handles leaves the state object as it was', () => {
    const store = makeBridgeStore();
    store.dispatch({ type: 'first/action' });
    const before = store.getState();
    store.dispatch({ type: 'nothing/happened' });
    expect(store.getState()).toBe(before);
  });

  test('outside the mobile build (no host slice) nothing is hidden', () => {
    expect(selectHostHidden({})).toEqual([]);
  });
});

describe('connectHostBridge', () => {
  test('says ready and where the app is, to the host origin only, never to *', () => {
    const { sent } = setUp();
    expect(sent()).toEqual([
      { data: { type: 'ready' }, origin: HOST },
      { data: { type: 'route', path: '/user/home' }, origin: HOST },
    ]);
  });

  test('posts every route change once, with its query', () => {
    const { router, sent } = setUp();
    router.go('/user/statement');
    router.go('/user/statement');
    router.go('/user/home', '?deposit=qr');
    expect(sent().filter((m) => m.data.type === 'route').map((m) => m.data.path)).toEqual(['/user/home', '/user/statement', '/user/home?deposit=qr']);
  });

  test('posts the balance when the wallet loads and whenever it changes, not on other state changes', async () => {
    const { store, sent } = setUp();
    await store.dispatch(walletApi.util.upsertQueryData('getWallet', undefined, wallet(100)));
    store.dispatch(hostControlsRequested(['logout']));
    store.dispatch(walletApi.util.updateQueryData('getWallet', undefined, (draft) => void (draft.profile = { ...draft.profile, coin: 3 })));
    store.dispatch(walletApi.util.updateQueryData('getWallet', undefined, (draft) => void (draft.wallet.amount = 250.5)));
    // RTK Query's cache updates are auto-batched: subscribers hear of them on the next frame.
    await waitFor(() =>
      expect(sent().filter((m) => m.data.type === 'balance')).toEqual([
        { data: { type: 'balance', amount: 100 }, origin: HOST },
        { data: { type: 'balance', amount: 250.5 }, origin: HOST },
      ]),
    );
  });

  test('after the session ends (the API cache reset), the next balance is posted even when it is the same amount', async () => {
    const { store, sent } = setUp();
    await store.dispatch(walletApi.util.upsertQueryData('getWallet', undefined, wallet(100)));
    await waitFor(() => expect(sent().filter((m) => m.data.type === 'balance')).toHaveLength(1));
    store.dispatch(api.util.resetApiState());
    await store.dispatch(walletApi.util.upsertQueryData('getWallet', undefined, wallet(100)));
    await waitFor(() => expect(sent().filter((m) => m.data.type === 'balance')).toHaveLength(2));
  });

  test('a host-controls message from the embedding window at an allowed origin hides the controls', () => {
    const { win, host, store } = setUp();
    win.dispatchEvent(message({ type: 'host-controls', hide: ['logout', 'language'] }, HOST, host));
    expect(selectHostHidden(store.getState())).toEqual(['logout', 'language']);
    win.dispatchEvent(message({ type: 'host-controls', hide: [] }, HOST, host));
    expect(selectHostHidden(store.getState())).toEqual([]);
  });

  test("the host's language message switches the app's language; from another origin it does not", () => {
    const { win, host, store } = setUp();
    win.dispatchEvent(message({ type: 'locale', locale: 'en' }, OTHER, host));
    expect(selectLocale(store.getState())).toBe('th');
    win.dispatchEvent(message({ type: 'locale', locale: 'la' }, HOST, host));
    expect(selectLocale(store.getState())).toBe('la');
  });

  test('messages from another origin, or from another window at the allowed origin, are ignored', () => {
    const { win, host, store } = setUp();
    win.dispatchEvent(message({ type: 'host-controls', hide: ['logout'] }, OTHER, host));
    win.dispatchEvent(message({ type: 'host-controls', hide: ['logout'] }, HOST, {}));
    win.dispatchEvent(message({ type: 'host-controls', hide: ['logout'] }, 'null', host));
    expect(selectHostHidden(store.getState())).toEqual([]);
  });

  test('without allowed origins (FRAME_ANCESTORS self only) nothing is posted or accepted', () => {
    const { win, host, store } = setUp({ allowed: [], hostOrigin: null });
    win.dispatchEvent(message({ type: 'host-controls', hide: ['logout'] }, HOST, host));
    expect(host.postMessage).not.toHaveBeenCalled();
    expect(selectHostHidden(store.getState())).toEqual([]);
  });

  test('stopping removes the listener and the subscriptions', async () => {
    const { win, host, store, router, stop, sent } = setUp();
    stop();
    const count = sent().length;
    router.go('/user/profile');
    await store.dispatch(walletApi.util.upsertQueryData('getWallet', undefined, wallet(5)));
    win.dispatchEvent(message({ type: 'host-controls', hide: ['logout'] }, HOST, host));
    expect(sent()).toHaveLength(count);
    expect(selectHostHidden(store.getState())).toEqual([]);
  });
});
