import { redirect, type LoaderFunctionArgs } from 'react-router-dom';

import { endSessionForPublicPage } from '../features/session/logout';
import { selectToken } from '../features/session/sessionSlice';
import { classifyError } from '../core/apiErrors';
import { takeBootActive } from './bootData';
import { lookupApi } from '../core/lookupApi';
import { loginPathFor, requiresAuth } from '../core/navigation';
import type { AppStore } from './store';

/** The body class spec §2 calls the terminated style; CSS hides the public screens while it is on. */
export const TERMINATED_CLASS = 'terminated';

const PUBLIC_PAGES = new Set(['/login', '/register', '/howto', '/contact']);

export function isPublicPage(pathname: string): boolean {
  return PUBLIC_PAGES.has(pathname.replace(/\/+$/, '') || '/');
}

async function siteIsGone(store: AppStore): Promise<boolean> {
  // The first navigation of a page the server served with its boot data (bootData.ts): that answer is fresh.
  const boot = takeBootActive();
  if (boot) return boot.terminated === 'gone';
  const result = await store.dispatch(
    lookupApi.endpoints.getSiteActive.initiate(undefined, { forceRefetch: true, subscribe: false }),
  );
  if (result.data?.terminated === 'gone') return true;
  return result.error !== undefined && classifyError(result.error).kind === 'terminated';
}

/**
 * The navigation guard of spec §2, run before every navigation (root loader, always revalidated):
 * 1. on /login the body gets the terminated style;
 * 2. the site-active lookup: "gone" -> /terminated, otherwise the style is cleared;
 * 3. a route under /user without a stored token -> /login?next=<url>.
 * And spec §4: a public page visited while holding a token ends the session, on the server first.
 */
export function createGuard(store: AppStore) {
  return async function guard({ request }: LoaderFunctionArgs): Promise<null> {
    const url = new URL(request.url);
    const { pathname } = url;
    // "The browser path": the page being left on in-app navigations, the requested one on a fresh load.
    if (pathname === '/login' || window.location.pathname === '/login') document.body.classList.add(TERMINATED_CLASS);

    if (await siteIsGone(store)) {
      if (pathname !== '/terminated') throw redirect('/terminated');
      return null;
    }
    document.body.classList.remove(TERMINATED_CLASS);

    const token = selectToken(store.getState());
    if (requiresAuth(pathname) && !token) {
      throw redirect(loginPathFor(pathname + url.search));
    }
    // Revoked on the server, then forgotten here (also when the server cannot be reached).
    if (isPublicPage(pathname) && token) await store.dispatch(endSessionForPublicPage());
    return null;
  };
}
