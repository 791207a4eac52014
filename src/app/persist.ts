import type { Storage } from 'redux-persist';

/**
 * redux-persist storages for the keys of spec §3. Only client slices are persisted, never the API cache.
 *
 * The session (key `persist:token`) goes to localStorage when the player chose remember-me and to
 * sessionStorage otherwise; writing one removes the other so a single copy exists.
 */
function webStorage(kind: 'localStorage' | 'sessionStorage'): globalThis.Storage | null {
  try {
    return typeof window !== 'undefined' ? window[kind] : null;
  } catch {
    return null; // storage disabled (privacy mode): run without persistence
  }
}

/** The `remember` flag inside a serialized redux-persist record ({"remember":"true",...}). */
export function rememberFlagOf(serialized: string): boolean {
  try {
    const record = JSON.parse(serialized) as Record<string, unknown>;
    return typeof record.remember === 'string' && JSON.parse(record.remember) === true;
  } catch {
    return false;
  }
}

export const sessionStorageRouter: Storage = {
  getItem: async (key: string) => webStorage('localStorage')?.getItem(key) ?? webStorage('sessionStorage')?.getItem(key) ?? null,
  setItem: async (key: string, value: string) => {
    const [keep, drop] = rememberFlagOf(value)
      ? [webStorage('localStorage'), webStorage('sessionStorage')]
      : [webStorage('sessionStorage'), webStorage('localStorage')];
    keep?.setItem(key, value);
    drop?.removeItem(key);
  },
  removeItem: async (key: string) => {
    webStorage('localStorage')?.removeItem(key);
    webStorage('sessionStorage')?.removeItem(key);
  },
};

export const localStore: Storage = {
  getItem: async (key: string) => webStorage('localStorage')?.getItem(key) ?? null,
  setItem: async (key: string, value: string) => webStorage('localStorage')?.setItem(key, value),
  removeItem: async (key: string) => webStorage('localStorage')?.removeItem(key),
};
