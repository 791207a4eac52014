import { useSyncExternalStore } from 'react';

import { i18n } from './i18n';

/** Error toasts stay 4 seconds (spec §9). */
export const ERROR_TOAST_MS = 4000;

export interface Toast {
  message: string;
  variant: 'error' | 'success' | 'info';
  autoHideDuration?: number;
  /** Stays until its action (or another close) dismisses it. */
  persist?: boolean;
  /** A button in the toast (e.g. the update prompt's Reload); pressing it closes the toast. */
  action?: { label: string; onAction: () => void };
}

/**
 * Toasts are shown by notistack, which is loaded the first time a toast is needed (it is not part of the
 * first screen's download). Until then toasts wait here; the Toaster mounts notistack and drains them.
 */
let deliver: ((toast: Toast) => void) | null = null;
const pending: Toast[] = [];
let requested = false;
const listeners = new Set<() => void>();

export function showToast(toast: Toast): void {
  if (deliver) {
    deliver(toast);
    return;
  }
  pending.push(toast);
  if (!requested) {
    requested = true;
    listeners.forEach((listener) => listener());
  }
}

/** Called by the notistack host once mounted; returns the disconnect function. */
export function connectToaster(show: (toast: Toast) => void): () => void {
  deliver = show;
  pending.splice(0).forEach(show);
  return () => {
    if (deliver === show) deliver = null;
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True once any toast has been asked for: time to load notistack. */
export function useToastsRequested(): boolean {
  return useSyncExternalStore(subscribe, () => requested, () => false);
}

/** The translated text for an error code (values fill its {{placeholders}}): errors.<CODE>, a slip reason, or the generic error text. */
export function errorText(code: string, values?: Record<string, unknown>): string {
  if (i18n.exists(`errors.${code}`)) return i18n.t(`errors.${code}`, values);
  if (i18n.exists(`slipReasons.${code}`)) return i18n.t(`slipReasons.${code}`);
  return i18n.t('errors.GENERIC');
}

export function toastError(code: string): void {
  showToast({ message: errorText(code), variant: 'error', autoHideDuration: ERROR_TOAST_MS });
}

export function toastSuccess(message: string): void {
  showToast({ message, variant: 'success' });
}
