import { useEffect, type RefObject } from 'react';

/**
 * When a change removes or disables the focused control (a button that turns busy, a QR that is replaced by
 * the form), focus would fall to the page body, outside the dialog, where Escape and Tab no longer work.
 * After each change of `key`, a lost focus is put back on `target` (a container with tabIndex -1).
 */
export function useKeepFocus(target: RefObject<HTMLElement | null>, key: unknown): void {
  useEffect(() => {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected || (active as HTMLButtonElement).disabled === true;
    if (lost) target.current?.focus();
  }, [target, key]);
}
