/**
 * The staff token lives in sessionStorage: it dies with the tab, is never shared with the player app (which keeps
 * its own token under persist:token) and is not sent anywhere but the staff routes and the /staff socket.
 */
const KEY = 'staff-token';

export function readStaffToken(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeStaffToken(token: string | null): void {
  try {
    if (token) window.sessionStorage.setItem(KEY, token);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // storage refused (private mode quota): the session lasts as long as the page
  }
}
