import { openSecret, sealSecret } from '../../lib/secret-box';
import { generateTotpSecret, otpauthUri } from '../../lib/totp';

/**
 * The staff second factor's secrets at rest (docs/staff.md "Second factor"): sealed like game account passwords
 * (server/lib/secret-box.ts, AES-256-GCM with GAME_SECRET_KEY, the key in config.gameSecretKey), since the server
 * must read them back to check codes; a database dump alone does not give anyone the codes.
 */
export const TOTP_ISSUER = 'Player Wallet Staff';

export const sealTotpSecret = (key: Buffer, secret: string): string => sealSecret(key, secret);

/** The base32 secret of a stored value; throws SecretBoxError when it does not open with the key. */
export const openTotpSecret = (key: Buffer, stored: string): string => openSecret(key, stored);

/** A new secret for an account: what to store (sealed) and what to show its holder once (base32 and the URI). */
export function newTotpEnrolment(key: Buffer, username: string, secret = generateTotpSecret()): { sealed: string; secret: string; uri: string } {
  return { sealed: sealTotpSecret(key, secret), secret, uri: otpauthUri(TOTP_ISSUER, username, secret) };
}
