import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, Outlet, redirect, type RouteObject } from 'react-router-dom';

import { selectToken } from '../features/session/sessionSlice';
import { lazyRoute } from '../components/ChunkError';
import { createGuard } from './guard';
import { loadUserTexts } from '../core/i18n';
import { DemoBanner } from './layout/DemoBanner';
import { OfflineBanner } from './layout/OfflineBanner';
import { setNavigator } from '../core/navigation';
import { nextTask } from './nextTask';
import { RouteError } from './RouteError';
import type { RouteHandle } from './routeHandle';
import type { AppDispatch, AppStore } from './store';

type PageModule = {
  default: ComponentType;
  /** The data the module's first render asks for (see prefetchOnArrival). */
  prefetch?: (dispatch: AppDispatch) => void;
};
/** Redirect-only routes render nothing while their loader redirects. */
const Nothing = () => null;
/**
 * What every page shares, above its layout: the demo-mode banner (nothing outside demo mode), the offline banner.
 * Also the frame of the prerendered login screen (src/prerender/loginScreen.tsx).
 */
export const Root = () => (
  <>
    <DemoBanner />
    <OfflineBanner />
    <Outlet />
  </>
);
/**
 * A lazily loaded route module: one chunk per route (chunk names come from the import comments), retried when it
 * fails to download; one that still fails shows a message with "Try again" inside its layout (lazyRoute).
 */
const page = (load: () => Promise<PageModule>) => {
  // The import once (startRouteImports may have started it before the router asks), unless it failed: then the
  // next call (a retry) imports again. Each call still gets its own route properties: the router changes them.
  let loading: Promise<PageModule> | undefined;
  const once = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return lazyRoute(once);
};

/**
 * Starts the imports of the routes `pathname` matches (their lazy()), for the task before the router's (start.tsx):
 * the router's creation runs its first navigation, which started them (webpack adds a script and a stylesheet
 * element per chunk), in one task with the rest of that navigation (~40 ms in Lighthouse's trace of /user/home, a
 * fifth of it the imports). The router then finds them started (`page` imports a route's module once).
 */
export function startRouteImports(routes: RouteObject[], pathname: string): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    if (typeof route.lazy === 'function') void route.lazy();
  }
}

/**
 * A module of the player's area may name the data its first render asks for (`prefetch`): it is requested in the
 * task after the module arrives, while the router still waits for the rest of the route and before React renders
 * the page. Left to the page's own queries, the requests started in the effects of the page's first commit, in the
 * same task as that commit and the re-renders each request's start causes: on /user/home, one of the two tasks
 * Lighthouse counted as blocking (docs/client.md "First screen"). Only with a session: a visitor is on the way to
 * /login. The page's queries then find the requests under way (or answered) and do not ask again.
 */
const prefetchOnArrival =
  (store: AppStore) =>
  <M extends PageModule>(module: M): M => {
    const { prefetch } = module;
    if (prefetch) {
      void nextTask().then(() => {
        if (selectToken(store.getState())) prefetch(store.dispatch);
      });
    }
    return module;
  };

/** Every route of spec §2, under the navigation guard. */
export function buildRoutes(store: AppStore): RouteObject[] {
  const arrived = prefetchOnArrival(store);
  return [
    {
      id: 'root',
      loader: createGuard(store),
      // The guard runs on every navigation, not only when the root's params change.
      shouldRevalidate: () => true,
      HydrateFallback: () => null,
      element: <Root />,
      errorElement: <RouteError />,
      children: [
        {
          index: true,
          // / -> /user (spec §2). A visitor would only bounce off /user to /login, so send them there directly:
          // matching /user first would start downloading the user area's chunks for nothing.
          loader: () => redirect(selectToken(store.getState()) ? '/user' : `/login?next=${encodeURIComponent('/user')}`),
          Component: Nothing,
        },
        {
          lazy: page(() => import(/* webpackChunkName: "layout-public" */ './layout/PublicLayout')),
          children: [
            { path: 'login', lazy: page(() => import(/* webpackChunkName: "route-login" */ '../features/session/LoginPage')) },
            { path: 'register', lazy: page(() => import(/* webpackChunkName: "route-register" */ '../features/register/RegisterPage')) },
            // A forgotten password (issue 40 item 4).
            { path: 'forgot', lazy: page(() => import(/* webpackChunkName: "route-forgot" */ '../features/recover/RecoverPage')) },
            { path: 'howto', lazy: page(() => import(/* webpackChunkName: "route-howto" */ '../features/howto/HowtoPage')) },
            {
              path: 'contact',
              handle: { topOffset: false } satisfies RouteHandle,
              lazy: page(() => import(/* webpackChunkName: "route-contact" */ '../features/contact/ContactPage')),
            },
          ],
        },
        {
          path: 'user',
          // The player's area's texts (the user part of the language, src/core/localeParts.ts) load with the layout
          // chunk, in parallel, so nothing under /user renders before them; both are retried like any chunk.
          lazy: page(() =>
            Promise.all([import(/* webpackChunkName: "layout-user" */ './layout/UserLayout'), loadUserTexts()]).then(([layout]) => arrived(layout)),
          ),
          children: [
            { index: true, loader: () => redirect('/user/home'), Component: Nothing },
            { path: 'home', lazy: page(() => import(/* webpackChunkName: "route-home" */ '../features/wallet/HomePage').then(arrived)) },
            { path: 'profile', lazy: page(() => import(/* webpackChunkName: "route-profile" */ '../features/profile/ProfilePage')) },
            { path: 'bonus', lazy: page(() => import(/* webpackChunkName: "route-bonus" */ '../features/bonus/BonusPage')) },
            { path: 'statement', lazy: page(() => import(/* webpackChunkName: "route-statement" */ '../features/statement/StatementPage')) },
            { path: 'limits', lazy: page(() => import(/* webpackChunkName: "route-limits" */ '../features/limits/LimitsPage')) },
            {
              path: 'contact',
              handle: { topOffset: true } satisfies RouteHandle,
              // With the how-to videos (the bot's links for a player): /howto is public and would end the session.
              lazy: page(() => import(/* webpackChunkName: "route-contact" */ './UserContactPage')),
            },
          ],
        },
        { path: 'terminated', lazy: page(() => import(/* webpackChunkName: "route-terminated" */ '../features/terminated/TerminatedPage')) },
        { path: '*', lazy: page(() => import(/* webpackChunkName: "route-not-found" */ '../features/not-found/NotFoundPage')) },
      ],
    },
  ];
}

/** The browser router (history mode, base /), registered as the app's navigator. */
export function createAppRouter(store: AppStore, routes: RouteObject[] = buildRoutes(store)) {
  const router = createBrowserRouter(routes);
  setNavigator(
    (to, options) => void router.navigate(to, options),
    () => router.state.location.pathname + router.state.location.search,
  );
  return router;
}
