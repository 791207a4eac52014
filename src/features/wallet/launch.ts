import type { GameSlot } from '../../app/walletApi';
import type { Locale } from '../../lib/locale';
import type { GameCredentials } from './walletEndpoints';

export type LaunchTarget = 'web' | 'android' | 'ios';

/**
 * The auto-login path for the web button, built from the current credentials: the wallet's `web` path says
 * whether the game logs in with the password too (/api/autoLogin/{game}/{username}/{password}), but a password
 * reset may have made the password in it stale.
 */
export function autoLoginPath(slot: GameSlot, credentials: GameCredentials | undefined): string | null {
  if (!slot.web) return null;
  if (!credentials) return slot.web;
  const withPassword = slot.web.replace(/^\/api\/autoLogin\//, '').split('/').length >= 3;
  const base = `/api/autoLogin/${encodeURIComponent(slot.code)}/${encodeURIComponent(credentials.username)}`;
  return withPassword ? `${base}/${encodeURIComponent(credentials.password)}` : base;
}

/** The game in the player's language: &lang=th|la|en on the provider's link. */
export function withLanguage(link: string, locale: Locale, base = window.location.origin): string {
  const url = new URL(link, base);
  url.searchParams.set('lang', locale);
  return url.toString();
}

/** The buttons a game offers: its web client (through auto-login) and its apps, as present. */
export function launchTargets(slot: GameSlot): LaunchTarget[] {
  return (['web', 'android', 'ios'] as const).filter((target) => !!slot[target]);
}

/**
 * A window opened synchronously in the click (popup blockers allow that), pointed at the game once the
 * transfer and the auto-login link are done. Null when the browser refused to open one.
 */
export interface PendingWindow {
  go(link: string): boolean;
  cancel(): void;
}

export function openPendingWindow(loadingText: string): PendingWindow | null {
  const win = window.open('', '_blank');
  if (!win) return null;
  try {
    win.document.title = loadingText;
    win.document.body.textContent = loadingText;
  } catch {
    // Nothing to show in it; it still navigates.
  }
  return {
    go(link) {
      if (win.closed) return false;
      // The game must not get a handle on the wallet.
      win.opener = null;
      win.location.href = link;
      return true;
    },
    cancel() {
      if (!win.closed) win.close();
    },
  };
}
