import { useEffect, useState } from 'react';

/** Spec §9: loading indicators appear only when the work takes longer than 200 ms. */
export const LOADING_DELAY_MS = 200;

/** `active`, but only once it has stayed true for `delay` ms. */
export function useDelayedFlag(active: boolean, delay = LOADING_DELAY_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), delay);
    return () => clearTimeout(timer);
  }, [active, delay]);
  return active && shown;
}
