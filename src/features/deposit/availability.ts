import { useSyncExternalStore } from 'react';

/**
 * What the deposit modal says when it has no method to show (issue 40 item 9): offline it is the connection
 * that is missing, not the operator's channels, so the player is told to reconnect rather than that deposits
 * are closed.
 */
export function emptyDepositTextKey(online: boolean): 'deposit.offline' | 'deposit.unavailable' {
  return online ? 'deposit.unavailable' : 'deposit.offline';
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Whether the browser says it is online (navigator.onLine and its events, as the offline banner reads it). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}
