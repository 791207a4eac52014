import { GIFTLINK_KEY } from '../../../shared/giftlink-key';

/**
 * The gift link as the server expects it (docs/deposits.md): crypto-js AES in passphrase mode with the fixed
 * key, OpenSSL-format base64. crypto-js is loaded on first use, so it is in no route's first download.
 */
export async function encryptGiftLink(link: string): Promise<string> {
  const { default: AES } = await import(/* webpackChunkName: "crypto-aes" */ 'crypto-js/aes');
  return AES.encrypt(link.trim(), GIFTLINK_KEY).toString();
}

/** Spec §1: the wallet-app link deposit takes at least 2 baht. */
export const GIFT_MINIMUM_BAHT = 2;
