import { startTransition, StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { persistStore } from 'redux-persist';

import { AppProviders } from './AppProviders';
import { readBootData, seedBootData } from './bootData';
import { hostControlsFromQuery, hostControlsRequested, hostLocaleFromQuery } from './host/hostSlice';
import { applyLocale } from './i18n';
import { localeChosen } from './prefs';
import { buildRoutes, createAppRouter, startRouteImports } from './router';
import { makeStore } from './store';
import { nextTask } from './nextTask';

/**
 * Boot order matters: the stored session and language are read first, then the active language's texts are
 * loaded, and only then does the router start, so the guard sees the stored token on the first navigation.
 */
export function startApp(container: HTMLElement): void {
  const store = makeStore();
  // The store, the boot data's first dispatch and the stored state's rehydration (every reducer, cold) were one task
  // of ~60 ms on this machine kind, with the texts' start after them (docs/client.md "First screen"): each its own.
  void nextTask()
    .then(() => {
      seedBootData(store, readBootData(document));
      return nextTask();
    })
    .then(() => persistStore(store, null, () => void nextTask().then(() => afterRehydration(store, container))));
}

/** From the stored state on: the texts, the router, the first render. */
function afterRehydration(store: ReturnType<typeof makeStore>, container: HTMLElement): void {
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
    // A transition: React renders the first screen in slices of a few milliseconds, yielding between them,
    // instead of one long task that blocks input (total blocking time, docs/client.md "First screen").
    const root = createRoot(container);
    startTransition(() => {
      root.render(
        <StrictMode>
          <AppProviders store={store}>
            <RouterProvider router={router} />
          </AppProviders>
          <Mounted container={container} />
        </StrictMode>,
      );
    });
  });
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
 * Once the app's first screen is in the page (it replaced a prerendered one, if any): the root stops being inert
 * (server/plugins/spa-prerender.ts keeps a prerendered screen out of reach until the app is there).
 */
function Mounted({ container }: { container: HTMLElement }) {
  useLayoutEffect(() => {
    container.removeAttribute('inert');
    container.hidden = false;
  }, [container]);
  return null;
}
