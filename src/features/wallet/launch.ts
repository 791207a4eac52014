import { errorCode } from '../../core/apiErrors';
import type { AppDispatch, RootState } from '../../app/store';
import type { GameSlot } from '../../core/walletApi';
import type { Locale } from '../../lib/locale';
import { selectLaunch, selectMoveState } from './flowSlices';
import { isLaunching, launchFailed, linkReady, started, transferSettled, type LaunchTarget } from './launchSlice';
import { moveMoney } from './moveMoney';
import { WALLET_CODE } from './selectors';
import { walletEndpoints, type GameCredentials } from './walletEndpoints';

export type { LaunchTarget } from './launchSlice';

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

interface LaunchRequest {
  slot: GameSlot;
  target: LaunchTarget;
  /** Baht to move from the wallet first, or null to skip the transfer (spec §2: skipped at 0). */
  amount: number | null;
  credentials: GameCredentials | undefined;
  locale: Locale;
  /** The text the waiting window shows. */
  openingText: string;
}

/**
 * Spec §2 play, through the gameLaunch slice: the window opens in the click (popup blockers allow that), the
 * amount moves first through moveFlow when above 0, then the game's link (auto-login for web) is opened in it,
 * or offered as a link when the browser refused the window. Refused while a launch or a movement runs.
 */
export const gameLaunched =
  ({ slot, target, amount, credentials, locale, openingText }: LaunchRequest, openWindow = openPendingWindow) =>
  async (dispatch: AppDispatch, getState: () => RootState): Promise<void> => {
    const state = getState();
    if (isLaunching(selectLaunch(state)) || selectMoveState(state).flow.status === 'submitting') return;
    const pending = openWindow(openingText);
    dispatch(started({ game: slot.code, target, transfer: amount !== null }));
    try {
      if (amount !== null) {
        const answer = await dispatch(moveMoney({ kind: 'transfer', body: { from: WALLET_CODE, to: slot.code, amount } }));
        dispatch(transferSettled({ ok: !!answer }));
        if (!answer) {
          pending?.cancel();
          return;
        }
      }
      let link: string | null = slot[target];
      if (target === 'web') {
        const path = autoLoginPath(slot, credentials);
        if (!path) throw new Error('NO_GAME');
        link = withLanguage((await dispatch(walletEndpoints.endpoints.autoLogin.initiate(path, { track: false })).unwrap()).link, locale);
      }
      if (!link) throw new Error('NO_GAME');
      dispatch(linkReady({ link, opened: !!pending?.go(link) }));
    } catch (failure) {
      pending?.cancel();
      dispatch(launchFailed({ code: errorCode(failure as Parameters<typeof errorCode>[0]) }));
    }
  };

/**
 * Issue 42: a seamless game's Play, through the same gameLaunch slice and the same window as a transfer game's web
 * button: the window opens in the tap (popup blockers allow that), GET /api/seamless/launch/{code} answers the link
 * (a fresh game session; no transfer, the game plays from the wallet), which the window is pointed at, or which is
 * offered as a link when the browser refused the window. The game's language and device kind go with the launch
 * call; the aggregator's link is opened as given (its own URL, session in it). Refused while a launch or a movement runs.
 */
/** The game client a seamless launch asks for: a touch screen's (phones, tablets) or the desktop one. */
export function launchPlatform(): 'desktop' | 'mobile' {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches ? 'mobile' : 'desktop';
}

export const seamlessLaunched =
  ({ slot, locale, openingText }: { slot: GameSlot; locale: Locale; openingText: string }, openWindow = openPendingWindow) =>
  async (dispatch: AppDispatch, getState: () => RootState): Promise<void> => {
    const state = getState();
    if (!slot.seamless || isLaunching(selectLaunch(state)) || selectMoveState(state).flow.status === 'submitting') return;
    const pending = openWindow(openingText);
    dispatch(started({ game: slot.code, target: 'web', transfer: false }));
    try {
      const request = { code: slot.code, lang: locale, platform: launchPlatform() };
      const answer = await dispatch(walletEndpoints.endpoints.seamlessLaunch.initiate(request, { track: false })).unwrap();
      if (!answer.link) throw new Error('NO_GAME');
      // Absolute: the simulator answers a path of our own origin, and the waiting window is about:blank.
      const link = new URL(answer.link, window.location.origin).toString();
      dispatch(linkReady({ link, opened: !!pending?.go(link) }));
    } catch (failure) {
      pending?.cancel();
      dispatch(launchFailed({ code: errorCode(failure as Parameters<typeof errorCode>[0]) }));
    }
  };
