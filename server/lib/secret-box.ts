import crypto from 'node:crypto';

/**
 * Secrets the server must be able to read back (game account passwords: the player is shown them), kept
 * encrypted at rest: AES-256-GCM, a random 12-byte IV per value, the 16-byte tag checked on every open.
 *
 * Stored format: `v1:` + base64url(iv | tag | ciphertext). The version prefix names the key and algorithm,
 * so a later key rotation can add `v2:` values and read both while it re-seals the old ones.
 */
/** Every value sealed with today's format starts with this (the start-up step and SQL filters rely on it). */
export const SEALED_PREFIX = 'v1:';
const PREFIX = SEALED_PREFIX;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;
/** A v1 value is at least the IV and the tag: 28 bytes, 38 base64url characters. */
const SEALED_RE = /^v1:[A-Za-z0-9_-]{38,}$/;

/** A value that does not open with the key: another key, an altered value, or not a sealed value at all. */
export class SecretBoxError extends Error {
  constructor(message = 'the value does not open with this key') {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function sealSecret(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function openSecret(key: Buffer, sealed: string): string {
  if (!SEALED_RE.test(sealed)) throw new SecretBoxError('not a sealed value');
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('not a sealed value');
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError();
  }
}

/** Whether a stored value is in the sealed form (plaintext written before encryption is not). */
export function isSealed(value: string): boolean {
  return SEALED_RE.test(value);
}

/**
 * The 32-byte key a setting stands for: a base64 (or base64url) 32-byte key as is; any other text of at
 * least 32 characters through HKDF-SHA256; null for anything shorter.
 */
export function secretKeyFrom(setting: string): Buffer | null {
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(setting)) {
    const raw = Buffer.from(setting, 'base64');
    if (raw.length === SECRET_KEY_BYTES) return raw;
  }
  if (setting.length < 32) return null;
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(setting, 'utf8'), Buffer.alloc(0), 'player-wallet secret-box v1', SECRET_KEY_BYTES));
}

export function newSecretKey(): string {
  return crypto.randomBytes(SECRET_KEY_BYTES).toString('base64');
}
