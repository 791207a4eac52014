/**
 * What the service worker (src/sw.ts) and the page agree on, and which navigations the worker answers. Pure,
 * so jest checks it without a worker (swRules.test.ts).
 */

/** The message the page posts to a waiting worker to make it take over (workbox-window's messageSkipWaiting). */
export const SKIP_WAITING = 'SKIP_WAITING';

/** The precached page a navigation gets when the network fails (public/offline.html). */
export const OFFLINE_PAGE = '/offline.html';

/**
 * Paths the worker never answers nor caches: the API and the server's own pages and streams, the operator's
 * media (Range requests) and the staff console (its own page and bundle). The browser fetches them itself.
 */
export const NEVER_HANDLED_PREFIXES = ['/api', '/demo', '/sim', '/socket.io', '/media', '/healthz', '/readyz', '/metrics', '/staff'] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** For workbox's NavigationRoute denylist, which is tested against path + query. */
export const NAVIGATION_DENYLIST: RegExp[] = [new RegExp(`^(?:${NEVER_HANDLED_PREFIXES.map(escape).join('|')})(?:[/?#]|$)`)];

/** True when the worker answers a navigation to this path (network, else the offline page). */
export function isNavigationHandled(pathAndQuery: string): boolean {
  return !NAVIGATION_DENYLIST.some((re) => re.test(pathAndQuery));
}
