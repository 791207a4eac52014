import crypto from 'node:crypto';

/**
 * Slip images open in a new window (spec §7), where no Bearer header can go, so the URL itself carries the
 * authorisation: an HMAC over (player, slip, expiry) with a key derived from the server secret. The link
 * works only for that player's slip and only until it expires.
 */
export const SLIP_LINK_TTL_SECONDS = 3600;

const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('slip-image-link-v1').digest();

function mac(secret: string, playerId: number, slipId: string, exp: number): string {
  return crypto.createHmac('sha256', keyOf(secret)).update(`${playerId}.${slipId}.${exp}`).digest('base64url');
}

export function slipImageUrl(secret: string, playerId: number, slipId: string, now: Date, ttlSeconds = SLIP_LINK_TTL_SECONDS): string {
  const exp = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return `/api/statement/slip/image/${slipId}?p=${playerId}&exp=${exp}&sig=${mac(secret, playerId, slipId, exp)}`;
}

export function checkSlipImageUrl(secret: string, slipId: string, q: { p?: string; exp?: string; sig?: string }, now: Date): number | null {
  if (!q.p || !/^\d{1,15}$/.test(q.p) || !q.exp || !/^\d{1,12}$/.test(q.exp) || !q.sig) return null;
  const playerId = Number(q.p);
  const exp = Number(q.exp);
  if (exp < Math.floor(now.getTime() / 1000)) return null;
  const expected = Buffer.from(mac(secret, playerId, slipId, exp));
  const given = Buffer.from(q.sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return playerId;
}
