import type { UnknownAction } from '@reduxjs/toolkit';

import { isLocale, type Locale } from '../../lib/locale';
import { api } from '../../core/api';
import { localeChosen } from '../../core/prefs';
import type { AppStore } from '../store';
import { walletApi } from '../../core/walletApi';
import { hostControlsRequested, HOST_CONTROLS, type HostControl } from './hostSlice';

/**
 * The mobile/iframe build's link to the host app that embeds it (VARIANT=mobile only; app/start.tsx loads this chunk,
 * the web build never does). docs/client.md "Mobile/iframe build" describes the messages:
 * - from the host: {type: 'host-controls', hide: ['logout', 'language']}: the top bar leaves those controls to the
 *   host (as the ?hostControls= query parameter does at start); {type: 'locale', locale: 'th' | 'la' | 'en'}: the
 *   host's language, since its switcher replaces the app's (as ?locale= does at start);
 * - to the host: {type: 'ready'} once listening, {type: 'route', path} on every route change, {type: 'balance', amount}
 *   whenever the wallet balance (baht) changes.
 * Messages go only to, and are accepted only from, the allowed host origins (GET /api/lookup/frame, FRAME_ANCESTORS),
 * never '*'; a message must also come from the window that embeds the app.
 */
export type HostMessage = { type: 'ready' } | { type: 'route'; path: string } | { type: 'balance'; amount: number };
export type HostCommand = { type: 'host-controls'; hide: HostControl[] } | { type: 'locale'; locale: Locale };

/** The host's command in a message's data, or null for anything else (unknown types, wrong shapes). */
export function readHostCommand(data: unknown): HostCommand | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, hide, locale } = data as { type?: unknown; hide?: unknown; locale?: unknown };
  if (type === 'locale') return isLocale(locale) ? { type, locale } : null;
  if (type !== 'host-controls' || !Array.isArray(hide)) return null;
  return { type, hide: HOST_CONTROLS.filter((control) => hide.includes(control)) };
}

/** Whether `origin` is one of the allowed host origins (exact match; never a wildcard). */
export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  return origin !== '' && origin !== 'null' && allowed.includes(origin);
}

/**
 * Where messages go: the embedding page's origin when the browser names it (location.ancestorOrigins, or the
 * referrer) and it is allowed; otherwise every allowed origin (the browser delivers only to the one that matches).
 */
export function targetOrigins(allowed: readonly string[], hostOrigin: string | null | undefined): string[] {
  if (hostOrigin && isAllowedOrigin(hostOrigin, allowed)) return [hostOrigin];
  return [...allowed];
}

/** What the bridge reads of the router: where the app is, and a call on every change. */
export interface BridgeRouter {
  state: { location: { pathname: string; search: string } };
  subscribe(listener: () => void): () => void;
}

interface BridgeStore {
  dispatch(action: UnknownAction): unknown;
  getState(): unknown;
  subscribe(listener: () => void): () => void;
}

export interface HostBridgeOptions {
  /** The app's window: where the host's messages arrive. */
  win: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** The embedding window (window.parent); null when the app is not in a frame. */
  host: Pick<Window, 'postMessage'> | null;
  allowedOrigins: readonly string[];
  /** The embedding page's origin, when known. */
  hostOrigin?: string | null;
  store: BridgeStore;
  router: BridgeRouter;
}

const selectWallet = walletApi.endpoints.getWallet.select();

/** GET /api/lookup/frame: the allowed host origins (server/http/host-frame.ts). */
const hostApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHostOrigins: build.query<{ hostOrigins: string[] }, void>({ query: () => '/api/lookup/frame', extraOptions: { silent: true } }),
  }),
});

/** Starts listening and reporting; returns the function that stops both. */
export function connectHostBridge({ win, host, allowedOrigins, hostOrigin, store, router }: HostBridgeOptions): () => void {
  if (!host || allowedOrigins.length === 0) return () => undefined;
  const targets = targetOrigins(allowedOrigins, hostOrigin);
  const post = (message: HostMessage) => {
    for (const origin of targets) host.postMessage(message, origin);
  };

  const onMessage = (event: MessageEvent) => {
    if (!isAllowedOrigin(event.origin, allowedOrigins) || event.source !== host) return;
    const command = readHostCommand(event.data);
    if (command?.type === 'host-controls') store.dispatch(hostControlsRequested(command.hide));
    if (command?.type === 'locale') store.dispatch(localeChosen(command.locale));
  };
  win.addEventListener('message', onMessage as EventListener);

  let lastPath: string | null = null;
  const reportRoute = () => {
    const { pathname, search } = router.state.location;
    const path = pathname + search;
    if (path === lastPath) return;
    lastPath = path;
    post({ type: 'route', path });
  };
  let lastAmount: number | undefined;
  const reportBalance = () => {
    const amount = selectWallet(store.getState() as Parameters<typeof selectWallet>[0]).data?.wallet.amount;
    // The cache empties when the session ends: the next player's first balance is news even if it is the same.
    if (amount === undefined) lastAmount = undefined;
    if (amount === undefined || amount === lastAmount) return;
    lastAmount = amount;
    post({ type: 'balance', amount });
  };

  post({ type: 'ready' });
  reportRoute();
  reportBalance();
  const stopRouter = router.subscribe(reportRoute);
  const stopStore = store.subscribe(reportBalance);
  return () => {
    win.removeEventListener('message', onMessage as EventListener);
    stopRouter();
    stopStore();
  };
}

/** The embedding page's origin as the browser tells it: ancestorOrigins (Chromium, Safari), else the referrer. */
function embeddingOrigin(win: Window): string | null {
  const ancestors = win.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    return win.document.referrer ? new URL(win.document.referrer).origin : null;
  } catch {
    return null;
  }
}

/** Reads the allowed host origins from the server, then connects; nothing happens outside a frame. */
export async function startHostBridge(win: Window, store: AppStore, router: BridgeRouter): Promise<void> {
  if (win.parent === win) return;
  const { hostOrigins } = await store.dispatch(hostApi.endpoints.getHostOrigins.initiate()).unwrap();
  connectHostBridge({ win, host: win.parent, allowedOrigins: hostOrigins, hostOrigin: embeddingOrigin(win), store, router });
}
