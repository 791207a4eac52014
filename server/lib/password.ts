import crypto from 'node:crypto';

/**
 * Password hashing for players (RULES.md: a slow salted hash, never logged).
 *
 * Stored format: `scrypt$N$r$p$salt$hash` with salt and hash in base64url. The cost parameters travel
 * with each hash, so raising them later only needs `needsRehash` at the next successful login.
 * N=2^15, r=8, p=1 costs about 130 ms and 32 MiB on the reference 2-core machine.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** Upper bound on N accepted from a stored hash, so a corrupted row cannot make one login eat the machine. */
const MAX_N = 2 ** 20;

function scrypt(plain: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes; leave headroom.
    crypto.scrypt(plain.normalize('NFC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(plain: string): Promise<string> {
  const { N, r, p } = SCRYPT_PARAMS;
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scrypt(plain, salt, N, r, p);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface Parsed { N: number; r: number; p: number; salt: Buffer; key: Buffer }

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
  if (!Number.isInteger(N) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0) return null;
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  if (salt.length < 8 || key.length !== KEY_LENGTH) return null;
  return { N, r, p, salt, key };
}

/** True when `plain` matches `stored`; false for a wrong password or a malformed hash (never throws for those). */
export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const h = parse(stored);
  if (!h) return false;
  const key = await scrypt(plain, h.salt, h.N, h.r, h.p);
  return crypto.timingSafeEqual(key, h.key);
}

/** True when the stored hash uses weaker parameters than today's, so a login can store a fresh one. */
export function needsRehash(stored: string): boolean {
  const h = parse(stored);
  return !h || h.N < SCRYPT_PARAMS.N || h.r < SCRYPT_PARAMS.r || h.p < SCRYPT_PARAMS.p;
}
