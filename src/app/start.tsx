import { startTransition, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { persistStore } from 'redux-persist';

import { HYDRATE_LOCALE, HYDRATE_PATH } from '../../shared/prerender';
import { AppRoot } from './AppRoot';
import { HandOver } from './handover';
import { readBootData, seedBootData } from './bootData';
import { hostControlsFromQuery, hostControlsRequested, hostLocaleFromQuery } from './host/hostSlice';
import { applyLocale, currentLocale } from '../core/i18n';
import { localeChosen } from '../core/prefs';
import { buildRoutes, createAppRouter, startRouteImports } from './router';
import { makeStore, type AppStore, type RootState } from './store';
import { nextTask } from './nextTask';

/**
 * Boot order matters: the stored session and language are read first, then the active language's texts are
 * loaded, and only then does the router start, so the guard sees the stored token on the first navigation.
 */
export function startApp(container: HTMLElement): void {
  const store = makeStore();
  // The store, the boot data's first dispatch and the stored state's rehydration (every reducer, cold) were one task
  // of ~60 ms on this machine kind, with the texts' start after them (docs/client.md "First screen"): each its own.
  let prerendered: RootState;
  void nextTask()
    .then(() => {
      seedBootData(store, readBootData(document));
      // The state a prerendered screen was drawn from (src/prerender/renderScreen.tsx), but for its language.
      prerendered = store.getState();
      return nextTask();
    })
    .then(() => persistStore(store, null, () => void nextTask().then(() => afterRehydration(store, container, prerendered))));
}

/** From the stored state on: the texts, the router, the first render. */
function afterRehydration(store: AppStore, container: HTMLElement, prerendered: RootState): void {
  // The mobile/iframe build: what the host app put in the frame's address (app/host), before the texts load.
  if (process.env.VARIANT === 'mobile') {
    const hide = hostControlsFromQuery(window.location.search);
    if (hide) store.dispatch(hostControlsRequested(hide));
    const locale = hostLocaleFromQuery(window.location.search);
    if (locale) store.dispatch(localeChosen(locale));
  }
  // Each step from here on starts a task of its own (nextTask): the texts, the first route's imports, the router's
  // first match and the first render ran as one chain of microtasks, one long task (docs/client.md "First screen").
  void applyLocale(store.getState().prefs.locale).finally(async () => {
    await nextTask();
    const routes = buildRoutes(store);
    startRouteImports(routes, window.location.pathname);
    await nextTask();
    const router = createAppRouter(store, routes);
    // The mobile/iframe build (VARIANT=mobile) talks to its host app; the web build drops this with the flag.
    if (process.env.VARIANT === 'mobile') {
      void import(/* webpackChunkName: "host-bridge" */ './host/hostBridge')
        .then(({ startHostBridge }) => startHostBridge(window, store, router))
        .catch((failure: unknown) => console.warn('host bridge not started', failure));
    }
    await nextTask();
    // The first render waits for the first route (its guard and lazy modules): rendered before, React would commit
    // the router's empty fallback, and a prerendered screen (the root's content, docs/client.md "First screen")
    // would go blank until the route came.
    await routerReady(router);
    mountApp(container, store, router, prerendered);
  });
}

/**
 * The first render into `container`. A prerendered screen the app draws exactly (the home, shared/prerender.ts
 * `hydratePath`) is hydrated when the first route and the language are the ones it was drawn for: React keeps its
 * elements and attaches to them (creating them again was most of the first commit), reading a frozen view of the
 * store as the prerender had it (`prerendered`, with the language); then the real store is handed over in a
 * transition (handover.tsx) and what its state changes (the session, answers already in) is drawn in slices too.
 * Any other screen (the login's stand-in, a screen in another language, a route the guard moved on from) is
 * replaced.
 * A transition either way: React renders the first screen in slices of a few milliseconds, yielding between them,
 * instead of one long task that blocks input (total blocking time, docs/client.md "First screen").
 */
/** Renders (or hydrates) the app into `container`; the React root is returned so that a test can unmount it. */
export function mountApp(container: HTMLElement, store: AppStore, router: ReturnType<typeof createAppRouter>, prerendered: RootState): Root {
  const locale = currentLocale();
  const hydrate =
    process.env.VARIANT !== 'mobile' &&
    container.firstElementChild !== null &&
    container.getAttribute(HYDRATE_PATH) === router.state.location.pathname &&
    container.getAttribute(HYDRATE_LOCALE) === locale;
  const app = (current: AppStore, ready: boolean) => (
    <AppRoot store={current} after={ready ? <Mounted container={container} /> : null}>
      <RouterProvider router={router} />
    </AppRoot>
  );
  let root: Root | undefined;
  startTransition(() => {
    if (hydrate) {
      const state = { ...prerendered, prefs: { ...prerendered.prefs, locale } };
      root = hydrateRoot(
        container,
        <HandOver store={store} prerendered={state}>
          {app}
        </HandOver>,
        {
          // What does not match is drawn afresh by React (inside the providers' Suspense); not an error for the console.
          onRecoverableError: (error) => console.warn('the prerendered screen did not match', error),
        },
      );
    } else {
      root = createRoot(container);
      root.render(app(store, true));
    }
  });
  return root!;
}

/** Resolves once the router has matched and loaded its first route. */
function routerReady(router: ReturnType<typeof createAppRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Once the app's first screen is in the page (it hydrated or replaced a prerendered one, if any): the root stops
 * being inert (server/http/spa-prerender.ts keeps a prerendered screen out of reach until the app is there).
 */
function Mounted({ container }: { container: HTMLElement }) {
  useLayoutEffect(() => {
    container.removeAttribute('inert');
    container.hidden = false;
  }, [container]);
  return null;
}
