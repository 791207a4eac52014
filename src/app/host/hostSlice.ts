import type { UnknownAction } from '@reduxjs/toolkit';
import { persistReducer, type PersistConfig, type Storage } from 'redux-persist';

import { isLocale, type Locale } from '../../lib/locale';

/**
 * The mobile/iframe build's host controls (VARIANT=mobile, src/app/host/hostBridge.ts): the top bar controls the host
 * app shows itself, so the SPA hides its own. Only the mobile build's store has this slice (app/store.ts); the web
 * build drops it with the flag. Kept in sessionStorage: a reload or in-app navigation inside the frame keeps what the
 * host asked for, a new session starts without it.
 */
export const HOST_CONTROLS = ['logout', 'language'] as const;
export type HostControl = (typeof HOST_CONTROLS)[number];

export interface HostState {
  hidden: HostControl[];
}

const initialState: HostState = { hidden: [] };

/**
 * A typed action and a plain reducer rather than createSlice: this module holds declarations only, so webpack finds
 * it free of side effects and drops it from the web build, where nothing uses it (the main chunk stays as it was).
 */
export const HOST_CONTROLS_REQUESTED = 'host/controlsRequested';
export type HostControlsRequested = {
  type: typeof HOST_CONTROLS_REQUESTED;
  payload: HostControl[];
};

/** The host said which controls it shows itself (the query parameter or a host-controls message): the latest wins. */
export const hostControlsRequested = (hide: HostControl[]): HostControlsRequested => ({ type: HOST_CONTROLS_REQUESTED, payload: hide });

export function hostReducer(state: HostState = initialState, action: UnknownAction): HostState {
  if (action.type !== HOST_CONTROLS_REQUESTED) return state;
  const hide = (action as unknown as HostControlsRequested).payload;
  return { hidden: HOST_CONTROLS.filter((control) => hide.includes(control)) };
}

/** The query parameter naming the controls the host shows itself: ?hostControls=logout,language. */
export const HOST_CONTROLS_PARAM = 'hostControls';

/** The controls a query string asks to hide (unknown names ignored), or null when it does not say. */
export function hostControlsFromQuery(search: string): HostControl[] | null {
  const value = new URLSearchParams(search).get(HOST_CONTROLS_PARAM);
  if (value === null) return null;
  const names = value.split(',').map((name) => name.trim());
  return HOST_CONTROLS.filter((control) => names.includes(control));
}

/** The query parameter with the language the host app runs in (?locale=th|la|en), its own switcher being hidden. */
export const HOST_LOCALE_PARAM = 'locale';

/** The language a query string names, or null when it names none the app has. */
export function hostLocaleFromQuery(search: string): Locale | null {
  const value = new URLSearchParams(search).get(HOST_LOCALE_PARAM);
  return isLocale(value) ? value : null;
}

/** The controls the host hides; none outside the mobile build (no host slice there). */
export const selectHostHidden = (state: object): HostControl[] => (state as { host?: HostState }).host?.hidden ?? NONE;
const NONE: HostControl[] = [];

function sessionStorageOrNull(): globalThis.Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null; // storage disabled: the host's choice lasts until the page reloads
  }
}

const sessionStore: Storage = {
  getItem: async (key: string) => sessionStorageOrNull()?.getItem(key) ?? null,
  setItem: async (key: string, value: string) => sessionStorageOrNull()?.setItem(key, value),
  removeItem: async (key: string) => sessionStorageOrNull()?.removeItem(key),
};

const hostPersist: PersistConfig<HostState> = { key: 'host', storage: sessionStore };

/**
 * The app's root reducer with the host slice beside it (kept in sessionStorage as persist:host). Wrapped here rather
 * than listed in app/store.ts's combineReducers, so the web build's store is exactly what it was.
 */
export function withHostControls<S extends object>(root: (state: S | undefined, action: UnknownAction) => S) {
  const host = persistReducer(hostPersist, hostReducer);
  type HostPart = ReturnType<typeof host>;
  return (state: (S & { host?: HostPart }) | undefined, action: UnknownAction): S & { host: HostPart } => {
    const { host: hostState, ...rest } = state ?? ({} as S & { host?: HostPart });
    const nextRest = root(state ? (rest as S) : undefined, action);
    const nextHost = host(hostState, action);
    return state && nextRest === rest && nextHost === hostState ? (state as S & { host: HostPart }) : { ...nextRest, host: nextHost };
  };
}
