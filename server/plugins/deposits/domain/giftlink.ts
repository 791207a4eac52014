import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import { GIFTLINK_KEY } from '../../../../shared/giftlink-key';

export { GIFTLINK_KEY };

/**
 * Mobile-wallet gift links (TrueMoney "ang pao" vouchers). The client sends the link encrypted with
 * crypto-js AES in passphrase mode under the shared fixed key; the server decrypts, accepts only a
 * gift-voucher link and extracts the voucher id, which is what the redeemer and duplicate check use.
 */
export const GIFT_HOST = 'gift.truemoney.com';
const VOUCHER = /^[A-Za-z0-9]{10,40}$/;
const MAX_CIPHERTEXT = 2048;

/** What the SPA does (also used by tests and the demo bank page). */
export function encryptGiftLink(link: string, key: string = GIFTLINK_KEY): string {
  return AES.encrypt(link, key).toString();
}

/** The plain link, or null when the text is not a ciphertext made with the key. */
export function decryptGiftLink(ciphertext: string, key: string = GIFTLINK_KEY): string | null {
  if (typeof ciphertext !== 'string' || ciphertext.length === 0 || ciphertext.length > MAX_CIPHERTEXT) return null;
  // Passphrase mode output is base64 of "Salted__" + salt + ciphertext.
  if (!/^U2FsdGVkX1[A-Za-z0-9+/=]+$/.test(ciphertext.trim())) return null;
  try {
    // A wrong key yields either an exception (bad padding / malformed UTF-8) or garbage or an empty string.
    const plain = AES.decrypt(ciphertext.trim(), key).toString(Utf8);
    return plain.length > 0 ? plain : null;
  } catch {
    return null;
  }
}

/** The voucher id of a gift-voucher link (https://gift.truemoney.com/campaign/?v=<id>), or null. */
export function voucherIdOf(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.hostname !== GIFT_HOST || url.port !== '' || url.username || url.password) return null;
  if (url.pathname !== '/campaign/' && url.pathname !== '/campaign') return null;
  const values = url.searchParams.getAll('v');
  if (values.length !== 1 || !VOUCHER.test(values[0])) return null;
  return values[0];
}

export type GiftLinkResult = { ok: true; voucherId: string; link: string } | { ok: false; code: 'TRUELINK_INVALID' };

/** Decrypt and validate in one step: anything not a voucher link encrypted with the key is TRUELINK_INVALID. */
export function openGiftLink(ciphertext: string, key: string = GIFTLINK_KEY): GiftLinkResult {
  const link = decryptGiftLink(ciphertext, key);
  const voucherId = link === null ? null : voucherIdOf(link);
  if (link === null || voucherId === null) return { ok: false, code: 'TRUELINK_INVALID' };
  return { ok: true, voucherId, link };
}

/** The canonical link for a voucher id (the demo issues these). */
export const giftLinkFor = (voucherId: string): string => `https://${GIFT_HOST}/campaign/?v=${voucherId}`;
