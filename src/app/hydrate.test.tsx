import { act, waitFor } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { createMemoryRouter } from 'react-router-dom';

import { HYDRATE_LOCALE, HYDRATE_PATH } from '../../shared/prerender';
import { renderHomeScreens } from '../prerender/homeScreen';
import { loggedInSession } from '../features/session/sessionSlice';
import { prefetch as homePrefetch } from '../features/wallet/HomePage';
import { Priority, recordCommits } from '../test/support/commitPriorities';
import { serveUserArea } from '../test/support/userArea';
import { seedBootData, type BootData } from './bootData';
import { applyLocale } from '../core/i18n';
import { initialPrefs } from '../core/prefs';
import { buildRoutes } from './router';
import { mountApp } from './start';
import { makeStore, type RootState } from './store';

/*
 * The prerendered home (src/prerender/homeScreen.tsx, as the server serves it: server/http/spa-prerender.ts) is
 * hydrated by the app's first render (start.tsx mountApp): its elements are kept, with nothing React had to draw
 * afresh, even when the wallet has answered before the first render; a screen in another language is replaced.
 */

const boot: BootData = { info: { name: 'Demo Casino', website: 'https://casino.example', demo: false }, chat: { enableChatWidget: false } };

// React's development build warns that layout effects do not run on the server (the prerender, made here).
const { error } = console;
beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('useLayoutEffect does nothing on the server')) error(...args);
  });
});
// Each test's app is unmounted after it: a root left running goes on committing (its answers, its timers), and
// recordCommits hears every root's commits, so the next test would count another app's renders.
const mounted: Root[] = [];
afterEach(() => {
  act(() => mounted.splice(0).forEach((root) => root.unmount()));
  jest.restoreAllMocks();
  document.body.replaceChildren();
});

/** The home's prerendered variant for `locale`, in a root as the server sends it. */
async function servedHome(locale: 'en' | 'th'): Promise<HTMLElement> {
  const screens = await renderHomeScreens();
  const variant = screens.variants.find((v) => v.locale === locale && !v.demo && !v.chat)!;
  const root = document.createElement('div');
  root.id = 'root';
  root.setAttribute('inert', '');
  root.setAttribute(HYDRATE_PATH, screens.hydratePath!);
  root.setAttribute(HYDRATE_LOCALE, variant.locale);
  root.innerHTML = variant.html.split(screens.slot).join(boot.info!.name);
  document.body.appendChild(root);
  return root;
}

/** The app as start.tsx has it before its first render: the prerender's state kept, the session read, the route loaded, the wallet in. */
async function appReady(locale: 'en' | 'th') {
  await applyLocale(locale);
  const fresh = makeStore();
  seedBootData(fresh, boot);
  const prerendered: RootState = fresh.getState();
  const ready = makeStore({ prefs: { ...initialPrefs, locale }, session: loggedInSession('tok') });
  seedBootData(ready, boot);
  const router = createMemoryRouter(buildRoutes(ready), { initialEntries: ['/user/home'] });
  await waitFor(() => expect(router.state.initialized).toBe(true));
  homePrefetch(ready.dispatch);
  await waitFor(() => expect(ready.getState().api.queries['getWallet(undefined)']?.status).toBe('fulfilled'));
  // Every other answer the home prefetched (spin switch, limits, the active bonus) is in too: on a busy machine one
  // landing after the mount is a later, separate update (drawn synchronously), not the hydration this file is about.
  await waitFor(() => expect(Object.values(ready.getState().api.queries).filter((q) => q?.status === 'pending')).toEqual([]));
  return { store: ready, router, prerendered };
}

beforeEach(() => serveUserArea());

test('the app hydrates the prerendered home: its elements stay, nothing is drawn afresh, then the wallet shows', async () => {
  const root = await servedHome('en');
  const card = root.querySelector('.balance-card');
  const select = root.querySelector('select');
  const { store, router, prerendered } = await appReady('en');
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  await act(async () => void mounted.push(mountApp(root, store, router, prerendered)));
  await waitFor(() => expect(root.textContent).toContain('Hello, Demo'));
  expect(warn).not.toHaveBeenCalled();
  expect(root.querySelector('.balance-card')).toBe(card);
  expect(root.querySelector('select')).toBe(select);
  expect(root.hasAttribute('inert')).toBe(false);
});

test('after hydrating, the state the prerender did not have (the session, the wallet) is drawn in a transition, not in one synchronous render', async () => {
  const root = await servedHome('en');
  const { store, router, prerendered } = await appReady('en');
  const commits = recordCommits();
  await act(async () => void mounted.push(mountApp(root, store, router, prerendered)));
  await waitFor(() => expect(root.textContent).toContain('Hello, Demo'));
  commits.stop();
  // The hydration, then the real store's state: both rendered in slices (useSyncExternalStore would render a store's
  // change at immediate priority, in one task).
  expect(commits.priorities.length).toBeGreaterThanOrEqual(2);
  expect(commits.priorities).not.toContain(Priority.immediate);
  // The root is usable once the real state is on it, not while it still shows the prerender's.
  expect(root.hasAttribute('inert')).toBe(false);
});

test('a prerendered home in another language than the app is replaced, not hydrated', async () => {
  const root = await servedHome('th');
  const card = root.querySelector('.balance-card');
  const { store, router, prerendered } = await appReady('en');
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  await act(async () => void mounted.push(mountApp(root, store, router, prerendered)));
  await waitFor(() => expect(root.textContent).toContain('Hello, Demo'));
  expect(warn).not.toHaveBeenCalled(); // not tried, so nothing failed to match
  expect(root.querySelector('.balance-card')).not.toBe(card);
  expect(root.textContent).toContain('Total balance');
});
