/**
 * The service worker (dist/sw.js, built by workbox-webpack-plugin's InjectManifest in production builds only;
 * docs/client.md "Installable app").
 *
 * - Precache: the player app's hashed assets (its JS, CSS, fonts), the icons and the offline page, listed by
 *   the build (`self.__WB_MANIFEST`). A tab keeps the chunks of the version it started with, so a deploy never
 *   mixes old and new chunks; a new worker waits until the player takes the "new version" reload.
 * - Navigations: always the network (index.html names the current chunks); when it fails (offline, or no
 *   answer in NAVIGATION_TIMEOUT_S), the precached offline page.
 * - Never touched: /api, /demo, /sim, /socket.io, /media, /healthz, /staff and the manifest. No route matches
 *   them, so the browser fetches them itself and nothing of theirs is ever cached.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';

import { NAVIGATION_DENYLIST, OFFLINE_PAGE, SKIP_WAITING } from './app/pwa/swRules';

/** The worker's own global scope; only what this file uses (the DOM lib has no service worker types). */
interface WorkerScope {
  __WB_MANIFEST: (PrecacheEntry | string)[];
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
declare const self: WorkerScope;

/** How long a navigation waits for the network before the offline page shows (a connection that hangs). */
const NAVIGATION_TIMEOUT_S = 10;

// The page's "Reload" on the update prompt (workbox-window's messageSkipWaiting): the waiting worker takes over.
self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data && data.type === SKIP_WAITING) void self.skipWaiting();
});

// The first worker controls the page that registered it at once (nothing older to mix with).
clientsClaim();
cleanupOutdatedCaches();

// Registered first, so a navigation never reaches the precache's cache-first route.
const network = new NetworkOnly({ networkTimeoutSeconds: NAVIGATION_TIMEOUT_S });
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await network.handle(options);
      } catch {
        return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
      }
    },
    { denylist: NAVIGATION_DENYLIST },
  ),
);
// Only the listed URLs: anything else (the API above all) matches no route and is the browser's own fetch.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
