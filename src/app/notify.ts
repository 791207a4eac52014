import { enqueueSnackbar } from 'notistack';

import { i18n } from './i18n';

/** Error toasts stay 4 seconds (spec §9). */
export const ERROR_TOAST_MS = 4000;

/** The translated text for an error code: errors.<CODE>, a slip reason, or the generic error text. */
export function errorText(code: string): string {
  if (i18n.exists(`errors.${code}`)) return i18n.t(`errors.${code}`);
  if (i18n.exists(`slipReasons.${code}`)) return i18n.t(`slipReasons.${code}`);
  return i18n.t('errors.GENERIC');
}

export function toastError(code: string): void {
  enqueueSnackbar(errorText(code), { variant: 'error', autoHideDuration: ERROR_TOAST_MS, preventDuplicate: true });
}

export function toastSuccess(message: string): void {
  enqueueSnackbar(message, { variant: 'success' });
}
