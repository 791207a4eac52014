import crypto from 'node:crypto';

/**
 * The launch token in the simulator's game URL: which game, which provider account, which password version,
 * until when; HMAC-SHA256 signed. `v1.<payload>.<mac>`, both parts base64url.
 */
export interface LaunchClaims {
  /** Game code. */
  g: string;
  /** Username at the provider. */
  u: string;
  /** Password version when issued; a reset makes older tokens invalid. */
  v: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export function signLaunchToken(key: Buffer, claims: LaunchClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const mac = crypto.createHmac('sha256', key).update(payload).digest('base64url');
  return `v1.${payload}.${mac}`;
}

/** The claims of a well-signed, unexpired token for that game, or null. */
export function verifyLaunchToken(key: Buffer, token: string, gameCode: string, now: Date): LaunchClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1') return null;
  const [, payload, mac] = parts;
  const expected = crypto.createHmac('sha256', key).update(payload).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const c = claims as Partial<LaunchClaims>;
  if (typeof c.g !== 'string' || typeof c.u !== 'string' || typeof c.v !== 'number' || typeof c.exp !== 'number') return null;
  if (c.g !== gameCode) return null;
  if (c.exp * 1000 <= now.getTime()) return null;
  return c as LaunchClaims;
}
