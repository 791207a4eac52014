import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { StaffRole } from '../../db/schema-staff';
import { unauthorized } from '../../errors';
import * as repo from './repository';

export const STAFF_TOKEN_TTL_SECONDS = 12 * 3600;
export const STAFF_AUDIENCE = 'staff';
/** The login's second step (docs/staff.md "Second factor"): a password was right, a TOTP code is still due. */
export const STAFF_2FA_AUDIENCE = 'staff-2fa';
export const STAFF_2FA_TTL_SECONDS = 5 * 60;

/**
 * The staff tokens' signing key: HKDF-SHA256 of JWT_SECRET with info "staff". Players' tokens are signed with
 * JWT_SECRET itself, so neither kind of token passes the other's signature check (and staff tokens also carry
 * aud "staff", which the staff check requires).
 */
export function staffTokenKey(jwtSecret: string): Uint8Array {
  return new Uint8Array(crypto.hkdfSync('sha256', Buffer.from(jwtSecret, 'utf8'), Buffer.alloc(0), 'staff', 32));
}

/** Who a valid staff token belongs to. */
export interface StaffIdentity {
  staffId: number;
  username: string;
  name: string;
  role: StaffRole;
  /** The token's session (jti): what logout revokes. */
  sessionId: string;
}

export interface StaffTokens {
  /** A new session and its token for an active staff member; pass a transaction to issue it with other writes. */
  issue(staffId: number, trx?: Kysely<DB>): Promise<string>;
  /** The token's staff member, or an AppError 401 (UNAUTHORIZED for no token, invalid-token, EXPIRED_AUTH_TOKEN). */
  verify(token: string | undefined | null): Promise<StaffIdentity>;
  revoke(sessionId: string, trx?: Kysely<DB>): Promise<void>;
  /** Ends every session of a staff member (disable, and later a password or role change); returns how many. */
  revokeAll(staffId: number, trx?: Kysely<DB>): Promise<number>;
  /**
   * The challenge of a login whose password was right and whose TOTP code is due: HS256, aud staff-2fa, sub the
   * staff id, 5 minutes, no session. verify() refuses it (its audience is not staff), so it opens no staff route.
   */
  challenge(staffId: number): Promise<string>;
  /**
   * A live challenge's staff id, its id (jti: what makes it single-use) and its expiry, or 401 invalid-token (bad,
   * expired, or another kind of token).
   */
  verifyChallenge(challenge: string): Promise<StaffChallenge>;
}

/** A verified login challenge. */
export interface StaffChallenge { staffId: number; id: string; expiresAt: Date }

const iso = (d: Date) => d.toISOString();

/**
 * HS256 JWTs (sub: staff id, jti: session id, aud: staff, 12 h) backed by staff_sessions, so logout and disable
 * end a token before it expires. Time is the app's clock, for the signature's expiry and the session's alike.
 */
export function staffTokens(db: Kysely<DB>, jwtSecret: string, now: () => Date): StaffTokens {
  const key = staffTokenKey(jwtSecret);
  return {
    async issue(staffId, trx = db) {
      const jti = crypto.randomUUID();
      const at = now();
      const exp = Math.floor(at.getTime() / 1000) + STAFF_TOKEN_TTL_SECONDS;
      await repo.insertSession(trx, { id: jti, staff_id: staffId, created_at: iso(at), expires_at: iso(new Date(exp * 1000)) });
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(staffId))
        .setAudience(STAFF_AUDIENCE)
        .setJti(jti)
        .setIssuedAt(Math.floor(at.getTime() / 1000))
        .setExpirationTime(exp)
        .sign(key);
    },

    async verify(token) {
      if (!token) throw unauthorized('UNAUTHORIZED');
      let sub: string | undefined;
      let jti: string | undefined;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: STAFF_AUDIENCE, currentDate: now() });
        sub = payload.sub;
        jti = payload.jti;
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_JWT_EXPIRED') throw unauthorized('EXPIRED_AUTH_TOKEN');
        throw unauthorized('invalid-token');
      }
      if (!sub || !jti) throw unauthorized('invalid-token');
      const row = await repo.sessionWithStaff(db, jti);
      if (!row || String(row.staff_id) !== sub || row.revoked_at) throw unauthorized('invalid-token');
      if (row.expires_at <= iso(now())) throw unauthorized('EXPIRED_AUTH_TOKEN');
      // Disabling (and a lock of failed codes) revokes the sessions too; this holds even for a row written by hand.
      if (row.status !== 'active' || row.totp_locked_at !== null) throw unauthorized('invalid-token');
      return { staffId: Number(row.staff_id), username: row.username, name: row.name, role: row.role, sessionId: jti };
    },

    async revoke(sessionId, trx = db) {
      await repo.revokeSession(trx, sessionId, iso(now()));
    },

    async revokeAll(staffId, trx = db) {
      return repo.revokeAllSessions(trx, staffId, iso(now()));
    },

    async challenge(staffId) {
      const at = Math.floor(now().getTime() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(staffId))
        .setAudience(STAFF_2FA_AUDIENCE)
        .setJti(crypto.randomUUID())
        .setIssuedAt(at)
        .setExpirationTime(at + STAFF_2FA_TTL_SECONDS)
        .sign(key);
    },

    async verifyChallenge(challenge) {
      try {
        const { payload } = await jwtVerify(challenge, key, { algorithms: ['HS256'], audience: STAFF_2FA_AUDIENCE, currentDate: now() });
        const id = Number(payload.sub);
        if (!Number.isSafeInteger(id) || id <= 0 || !payload.jti || typeof payload.exp !== 'number') throw new Error('no staff id');
        return { staffId: id, id: payload.jti, expiresAt: new Date(payload.exp * 1000) };
      } catch {
        throw unauthorized('invalid-token');
      }
    },
  };
}
