import { i18n } from '../../core/i18n';
import { ERROR_TOAST_MS, showToast } from '../../core/notify';

/**
 * A server message in the player's language: a known code (errors.<CODE> or slipReasons.<CODE>) is
 * translated; free text from the server is shown as it is; nothing at all is the generic error.
 */
export function serverMessageText(message: string | null | undefined): string {
  const text = (message ?? '').trim();
  if (text === '') return i18n.t('errors.GENERIC');
  if (i18n.exists(`errors.${text}`)) return i18n.t(`errors.${text}`);
  if (i18n.exists(`slipReasons.${text}`)) return i18n.t(`slipReasons.${text}`);
  return /^[A-Z0-9_]+$/.test(text) ? i18n.t('errors.GENERIC') : text;
}

/** Spec §8: a QR refused (hasQrcode false) shows the server's message as a red toast. */
export function toastServerMessage(message: string | null | undefined): void {
  showToast({ message: serverMessageText(message), variant: 'error', autoHideDuration: ERROR_TOAST_MS });
}
