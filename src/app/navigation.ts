/**
 * Navigation from outside components (the base API's response handling, thunks). The router registers its
 * navigate function at start-up; before that, a full page load is the honest fallback.
 */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

const fallback: Navigate = (to) => window.location.assign(to);
let current: Navigate = fallback;

export function setNavigator(navigate: Navigate): () => void {
  current = navigate;
  return () => {
    if (current === navigate) current = fallback;
  };
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  current(to, options);
}
