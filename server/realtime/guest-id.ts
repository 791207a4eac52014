import crypto from 'node:crypto';

/**
 * Guest ids of the support chat (docs/chat.md "Identities"): `g_<random>_<mac>`, 16 random bytes and the first
 * 16 bytes of HMAC-SHA256(key, random), both base64url (22 characters each). The key is HKDF-SHA256 of
 * JWT_SECRET with info "chat-guest", so the server checks an id without a lookup, nobody can make one up, and a
 * guest id is useless to sign anything else (player tokens are signed with JWT_SECRET itself).
 */
export interface GuestIds {
  issue(): string;
  /** True only for an id this server (or another with the same JWT_SECRET) issued. */
  verify(id: unknown): id is string;
}

const GUEST_ID = /^g_([A-Za-z0-9_-]{22})_([A-Za-z0-9_-]{22})$/;

export function guestIds(jwtSecret: string): GuestIds {
  const key = Buffer.from(crypto.hkdfSync('sha256', Buffer.from(jwtSecret, 'utf8'), Buffer.alloc(0), 'chat-guest', 32));
  const mac = (random: Buffer) => crypto.createHmac('sha256', key).update(random).digest().subarray(0, 16);
  return {
    issue() {
      const random = crypto.randomBytes(16);
      return `g_${random.toString('base64url')}_${mac(random).toString('base64url')}`;
    },
    verify(id: unknown): id is string {
      if (typeof id !== 'string') return false;
      const m = GUEST_ID.exec(id);
      if (!m) return false;
      const random = Buffer.from(m[1], 'base64url');
      const given = Buffer.from(m[2], 'base64url');
      // A canonical encoding only (22 characters carry 132 bits: the last one has 4 unused bits that must be 0).
      if (random.length !== 16 || given.length !== 16 || random.toString('base64url') !== m[1] || given.toString('base64url') !== m[2]) return false;
      return crypto.timingSafeEqual(given, mac(random));
    },
  };
}
