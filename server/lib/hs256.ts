import crypto from 'node:crypto';

/**
 * HS256 JSON Web Tokens, signed and checked synchronously with node:crypto (RFC 7515/7519, compact form only).
 *
 * The player's bearer token is checked on every authenticated request. jose checks it through WebCrypto, whose HMAC
 * runs as an asynchronous job on libuv's thread pool: every request waited for a pool thread and a hop back to the
 * main thread, and the profile of GET /api/wallet showed the event loop idle while that job competed for the
 * machine's cores (issue 13). An HMAC of a few hundred bytes costs microseconds; it is cheaper done in place.
 *
 * Strict by construction: the header must say exactly HS256 with no critical extensions, the signature is compared
 * as its canonical base64url text in constant time, and the claims follow jose's rules (exp: expired when
 * exp <= now; nbf: not yet valid when nbf > now; iat, exp, nbf numbers; sub and jti strings).
 */
export type JwtErrorCode = 'ERR_JWT_EXPIRED' | 'ERR_JWT_INVALID';

export class JwtError extends Error {
  constructor(readonly code: JwtErrorCode, message: string) {
    super(message);
  }
}

export interface JwtClaims {
  sub?: string;
  jti?: string;
  iat?: number;
  exp?: number;
  nbf?: number;
  aud?: string | string[];
  [claim: string]: unknown;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface Hs256 {
  sign(claims: JwtClaims): string;
  /** The claims of a well-signed, current token; throws JwtError otherwise. `nowSeconds` defaults to the wall clock. */
  verify(token: string, nowSeconds?: number): JwtClaims;
}

/**
 * Tokens whose signature and claims' form were checked, kept so the next request with the same token skips the HMAC
 * and the parsing (a player sends the same token on every request; about a tenth of GET /api/wallet's CPU here,
 * issue 13). Only well-signed tokens get in, so nobody without the key can fill it; the times (exp, nbf) are checked
 * again on every use. The oldest entry goes when it is full.
 */
export const VERIFIED_TOKENS_KEPT = 10_000;

export function hs256(secret: string | Buffer): Hs256 {
  const key = crypto.createSecretKey(typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret);
  const mac = (signingInput: string) => crypto.createHmac('sha256', key).update(signingInput).digest('base64url');
  const invalid = (why: string) => new JwtError('ERR_JWT_INVALID', why);
  const verified = new Map<string, JwtClaims>();
  const checkTimes = (claims: JwtClaims, nowSeconds: number) => {
    if (claims.nbf !== undefined && claims.nbf > nowSeconds) throw invalid('"nbf" claim timestamp check failed');
    if (claims.exp !== undefined && claims.exp <= nowSeconds) throw new JwtError('ERR_JWT_EXPIRED', '"exp" claim timestamp check failed');
    return claims;
  };

  return {
    sign(claims) {
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const signingInput = `${HEADER}.${payload}`;
      return `${signingInput}.${mac(signingInput)}`;
    },

    verify(token, nowSeconds = Math.floor(Date.now() / 1000)) {
      const known = verified.get(token);
      if (known) return checkTimes(known, nowSeconds);
      const parts = token.split('.');
      if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) throw invalid('not a compact JWS');
      const [h, p, s] = parts;
      const expected = Buffer.from(mac(`${h}.${p}`));
      const given = Buffer.from(s);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw invalid('signature verification failed');
      // Signed by us, yet still read with care: the header names the algorithm that was checked, nothing else.
      const header = parseObject(h);
      if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) throw invalid('unexpected header');
      const claims = parseObject(p) as JwtClaims | null;
      if (!claims) throw invalid('the payload is not a JSON object');
      for (const name of ['iat', 'exp', 'nbf'] as const) {
        if (claims[name] !== undefined && (typeof claims[name] !== 'number' || !Number.isFinite(claims[name]))) throw invalid(`"${name}" claim must be a number`);
      }
      for (const name of ['sub', 'jti'] as const) {
        if (claims[name] !== undefined && typeof claims[name] !== 'string') throw invalid(`"${name}" claim must be a string`);
      }
      Object.freeze(claims);
      if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
      return checkTimes(claims, nowSeconds);
    },
  };
}

function parseObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
