import { i18n } from '../../core/i18n';
import { errorText } from '../../core/notify';

/**
 * An error code's text in the wallet's screens: `wallet.errors.<CODE>` for the codes only the player's area meets
 * (issue 42: SEAMLESS_GAME, SEAMLESS_OFF), then errorText (errors.<CODE>, ..., the generic text). Kept in the user
 * part of the texts (core/localeParts.ts), so /login does not download them: `errors` is loaded at start.
 */
export function walletErrorText(code: string): string {
  const key = `wallet.errors.${code}`;
  return i18n.exists(key) ? i18n.t(key) : errorText(code);
}
