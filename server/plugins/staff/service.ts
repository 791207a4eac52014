import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { StaffRole } from '../../db/schema-staff';
import type { GuessScope } from '../../db/schema-accounts';
import { AppError, tooMany, unauthorized } from '../../errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { verifyTotp } from '../../lib/totp';
import { clearGuesses, reserveGuess, type AccountRules } from '../accounts';
import { recordStaffAction } from './audit';
import * as repo from './repository';
import type { RequestScope } from '../../lib/request-context';
import { openTotpSecret } from './totp';

/**
 * Roles that sign in only with a second factor: they approve payments and settle payouts. An account of one of them
 * without an enrolled secret is refused (403 TOTP_REQUIRED) until the operator runs `staff totp <username>`.
 */
export const TOTP_ROLES: ReadonlySet<string> = new Set<StaffRole>(['payments', 'admin']);

/** The staff member as the console sees it (login answer, GET /api/staff/me). */
export interface StaffView { id: number; username: string; name: string; role: StaffRole }

/** POST /api/staff/login: signed in, or (an account with a second factor) the challenge of the TOTP step. */
export type StaffLoginResult = { token: string; staff: StaffView } | { totpRequired: true; challenge: string };

export type StaffLoginRules = Pick<AccountRules, 'loginMaxFailures' | 'loginWindowSeconds' | 'loginLockSeconds'>;

const iso = (d: Date) => d.toISOString();
const shift = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000);

/** Usernames are compared lower-case and trimmed, at login and when an operator adds one. */
export const normalizeUsername = (username: string) => username.trim().toLowerCase();

/** Staff login with the players' guess limits (docs/accounts.md "Guess limits", scope staff-login). */
export class StaffService {
  private readonly db: Kysely<DB>;
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly rules: StaffLoginRules,
  ) {
    this.db = app.db;
    this.dummy().catch(() => undefined);
  }

  /** A demo seed's account while DEMO is off: refused like a disabled one (docs/staff.md "Demo"). */
  private demoOff(staff: { demo: number }): boolean {
    return Number(staff.demo) === 1 && !this.app.config.demo;
  }

  /** A hash to check unknown usernames against, so they cost the same time as known ones. */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword('not-a-password-of-any-staff');
    return this.dummyHash;
  }

  /** Counts one try of a guarded secret before it is checked; 429 REQUEST_LIMIT past the limit (or while locked). */
  private async reserve(scope: GuessScope, subject: string, now: Date): Promise<void> {
    const reserved = await reserveGuess(
      this.db,
      scope,
      subject,
      { now: iso(now), since: iso(shift(now, -this.rules.loginWindowSeconds)), lockUntil: iso(shift(now, this.rules.loginLockSeconds)) },
      this.rules.loginMaxFailures,
    );
    if (!reserved) throw tooMany('REQUEST_LIMIT');
  }

  /** `scope` (each of the three): the request, whose id the audit row keeps and whose logger writes the lines. */
  async login(username: string, password: string, scope?: RequestScope): Promise<StaffLoginResult> {
    const subject = normalizeUsername(username);
    const now = this.app.clock.now();
    // Counted before the slow check, known username or not, so parallel guesses cannot pass the limit.
    await this.reserve('staff-login', subject, now);
    const staff = subject ? await repo.findStaffByUsername(this.db, subject) : undefined;
    const ok = await verifyPassword(password, staff?.password_hash ?? (await this.dummy()));
    if (!staff) {
      // No account to write an audit row for; the line says it happened, never what was typed.
      (scope?.log ?? this.app.log).warn('staff login with an unknown username');
      throw unauthorized('WRONG_CREDENTIAL');
    }
    if (!ok) {
      await recordStaffAction(this.db, { staffId: Number(staff.id), action: 'login.failed', subjectType: 'staff', subjectId: String(staff.id), detail: { factor: 'password' }, requestId: scope?.call.requestId }, now);
      throw unauthorized('WRONG_CREDENTIAL');
    }
    // A demo account (its login is public) signs in only while DEMO is on (issue 39 row 5), as if disabled.
    if (staff.status !== 'active' || staff.totp_locked_at !== null || this.demoOff(staff)) {
      // The right password ends the guessing; that the account is disabled is told only to its holder.
      await clearGuesses(this.db, 'staff-login', subject);
      throw unauthorized('INACTIVE_USER');
    }
    const id = Number(staff.id);
    if (staff.totp_secret === null && TOTP_ROLES.has(staff.role)) {
      // A role that settles money signs in with two factors only; told only to someone who knows the password.
      await clearGuesses(this.db, 'staff-login', subject);
      throw new AppError(403, 'TOTP_REQUIRED');
    }
    if (staff.totp_secret !== null) {
      // The password is right: its guessing ends; the code is guessed under its own counter (staff-totp).
      await clearGuesses(this.db, 'staff-login', subject);
      return { totpRequired: true, challenge: await this.app.staffTokens.challenge(id) };
    }
    const token = await this.db.transaction().execute(async (trx) => {
      await clearGuesses(trx, 'staff-login', subject);
      const issued = await this.app.staffTokens.issue(id, trx);
      await recordStaffAction(trx, { staffId: id, action: 'login', subjectType: 'staff', subjectId: String(id), requestId: scope?.call.requestId }, now);
      return issued;
    });
    return { token, staff: { id, username: staff.username, name: staff.name, role: staff.role } };
  }

  /**
   * POST /api/staff/login/totp: the second step. The challenge names the account (401 invalid-token when bad,
   * expired, or used for a sign-in already); the code is counted (scope staff-totp, subject the staff id) before it
   * is checked, and must belong to the previous, current or next 30-second step and to a step later than the last
   * one accepted (each code works once): else 401 WRONG_TOTP, audited, and counted toward the lockout. An account
   * disabled or locked since the password: 401 INACTIVE_USER, the code unchecked.
   */
  async loginTotp(challenge: string, code: string, scope?: RequestScope): Promise<{ token: string; staff: StaffView }> {
    const ticket = await this.app.staffTokens.verifyChallenge(challenge);
    const id = ticket.staffId;
    const now = this.app.clock.now();
    const subject = String(id);
    const staff = await repo.findStaffForTotp(this.db, id);
    if (!staff || staff.totp_secret === null) throw unauthorized('invalid-token');
    // A challenge that signed in once is spent: a copy of it (a log, a proxy, the browser's history) opens nothing.
    if (await repo.challengeUsed(this.db, ticket.id)) throw unauthorized('invalid-token');
    // Told only to someone who knew the password, and before any code is checked: a locked account is no oracle.
    if (staff.status !== 'active' || staff.totp_locked_at !== null || this.demoOff(staff)) throw unauthorized('INACTIVE_USER');
    await this.reserve('staff-totp', subject, now);
    let secret: string;
    try {
      secret = openTotpSecret(this.app.config.gameSecretKey, staff.totp_secret);
    } catch {
      // Never the value; the key changed or the row was altered. The operator re-enrols: staff totp <username>.
      (scope?.log ?? this.app.log).error({ staffId: id }, 'staff TOTP secret does not open with GAME_SECRET_KEY');
      throw new AppError(500, 'INTERNAL_SERVER_ERROR');
    }
    const step = verifyTotp(secret, code, now);
    if (step === null) {
      const locked = await this.failedCode(id, staff.totp_enrolled_at, now, scope);
      throw unauthorized(locked ? 'INACTIVE_USER' : 'WRONG_TOTP');
    }
    const token = await this.db.transaction().execute(async (trx) => {
      // Taken in the transaction that signs in: of two requests with one challenge, one signs in.
      if (!(await repo.takeChallenge(trx, { id: ticket.id, staff_id: id, expires_at: iso(ticket.expiresAt) }, iso(now)))) throw unauthorized('invalid-token');
      // Of two requests with one code, one signs in, the other is refused.
      if (!(await repo.acceptTotpStep(trx, id, step))) throw unauthorized('WRONG_TOTP');
      await clearGuesses(trx, 'staff-totp', subject);
      const issued = await this.app.staffTokens.issue(id, trx);
      await recordStaffAction(trx, { staffId: id, action: 'login.totp', subjectType: 'staff', subjectId: subject, requestId: scope?.call.requestId }, now);
      return issued;
    });
    return { token, staff: { id, username: staff.username, name: staff.name, role: staff.role } };
  }

  /**
   * A wrong code: its audit row, and when the failures since the window's start (or the secret's enrolment, if later)
   * reach STAFF_TOTP_MAX_FAILURES the second factor locks, every session ends and `login.totp.locked` is written, one
   * transaction. The staff row is locked first so parallel failures are counted one after another. True: locked now.
   */
  private async failedCode(staffId: number, enrolledAt: string | null, now: Date, scope?: RequestScope): Promise<boolean> {
    const { staffTotpMaxFailures: max, staffTotpFailureWindowSeconds: window } = this.app.config;
    const windowStart = iso(shift(now, -window));
    const since = enrolledAt !== null && enrolledAt > windowStart ? enrolledAt : windowStart;
    const requestId = scope?.call.requestId;
    const locked = await this.db.transaction().execute(async (trx) => {
      await repo.lockStaff(trx, staffId);
      await recordStaffAction(trx, { staffId, action: 'login.totp.failed', subjectType: 'staff', subjectId: String(staffId), requestId }, now);
      const failures = await repo.countTotpFailures(trx, staffId, since);
      if (failures < max || !(await repo.lockTotp(trx, staffId, iso(now)))) return false;
      await this.app.staffTokens.revokeAll(staffId, trx);
      await recordStaffAction(trx, { staffId, action: 'login.totp.locked', subjectType: 'staff', subjectId: String(staffId), detail: { failures, windowSeconds: window }, requestId }, now);
      return true;
    });
    if (locked) (scope?.log ?? this.app.log).warn({ staffId }, 'staff second factor locked after too many failed codes: reset it with staff totp <username>');
    return locked;
  }

  /** POST /api/staff/logout: the session ends and the audit log says so, together. */
  async logout(staffId: number, sessionId: string, scope?: RequestScope): Promise<void> {
    const now = this.app.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await this.app.staffTokens.revoke(sessionId, trx);
      await recordStaffAction(trx, { staffId, action: 'logout', subjectType: 'staff', subjectId: String(staffId), requestId: scope?.call.requestId }, now);
    });
  }

  /** GET /api/staff/audit: newest first, `limit` rows below `before` (an entry id) when given. */
  async audit(limit: number, before: number | null) {
    const rows = await repo.listAudit(this.db, limit, before);
    return {
      entries: rows.map((r) => ({
        id: Number(r.id),
        staff: { id: Number(r.staff_id), username: r.username, name: r.name },
        action: r.action,
        subjectType: r.subject_type,
        subjectId: r.subject_id,
        reason: r.reason,
        detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>),
        createdAt: r.created_at,
      })),
    };
  }
}
