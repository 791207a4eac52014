/**
 * The fixed key the spec's client uses to encrypt a mobile-wallet gift link before sending it
 * (crypto-js AES, passphrase mode: `AES.encrypt(link, GIFTLINK_KEY).toString()`). The server decrypts
 * with the same constant. It ships inside the SPA, so it hides the link from casual logs and proxies;
 * it is not a secret and the server never relies on it for authorisation.
 */
export const GIFTLINK_KEY = 'pw-giftlink-v1:7f3c9a2e5b8d41f0a6c2e9b4d7f1a3c5';
