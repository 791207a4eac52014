/**
 * Navigation from outside components (the base API's response handling, thunks). The router registers its
 * navigate function, and where it is, at start-up; before that, a full page load and the browser's address
 * are the honest fallbacks.
 */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;
/** The app's current path and query, e.g. '/user/home?tab=2'. */
export type Locate = () => string;

const fallback: Navigate = (to) => window.location.assign(to);
const fallbackLocate: Locate = () => window.location.pathname + window.location.search;
let current: Navigate = fallback;
let currentLocate: Locate = fallbackLocate;

export function setNavigator(navigate: Navigate, locate: Locate = fallbackLocate): () => void {
  current = navigate;
  currentLocate = locate;
  return () => {
    if (current === navigate) {
      current = fallback;
      currentLocate = fallbackLocate;
    }
  };
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  current(to, options);
}

/** Where the app is now (the router's location once registered). */
export function currentUrl(): string {
  return currentLocate();
}

/** Spec §2: everything under /user needs a stored token. */
export function requiresAuth(pathname: string): boolean {
  return pathname === '/user' || pathname.startsWith('/user/');
}

/**
 * The login screen, carrying the page to come back to when that page is in the player's area (spec §2 "carrying
 * the next URL"); on the login screen already, that screen as it is (several calls refused at once must not
 * drop the next URL the first one set); from anywhere else, plain /login.
 */
export function loginPathFor(url: string): string {
  const pathname = url.split(/[?#]/, 1)[0];
  if (pathname === '/login') return url;
  return requiresAuth(pathname) ? `/login?next=${encodeURIComponent(url)}` : '/login';
}

/** Only same-site paths may be followed after login; anything else goes to /user. */
export function safeNextPath(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/user';
}
