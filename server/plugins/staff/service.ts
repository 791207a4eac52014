import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { StaffRole } from '../../db/schema-staff';
import { tooMany, unauthorized } from '../../errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { clearGuesses, reserveGuess } from '../accounts/repository';
import type { AccountRules } from '../accounts/rules';
import * as repo from './repository';

/** The staff member as the console sees it (login answer, GET /api/staff/me). */
export interface StaffView { id: number; username: string; name: string; role: StaffRole }

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

  /** A hash to check unknown usernames against, so they cost the same time as known ones. */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword('not-a-password-of-any-staff');
    return this.dummyHash;
  }

  async login(username: string, password: string): Promise<{ token: string; staff: StaffView }> {
    const subject = normalizeUsername(username);
    const now = this.app.clock.now();
    // Counted before the slow check, known username or not, so parallel guesses cannot pass the limit.
    const reserved = await reserveGuess(
      this.db,
      'staff-login',
      subject,
      { now: iso(now), since: iso(shift(now, -this.rules.loginWindowSeconds)), lockUntil: iso(shift(now, this.rules.loginLockSeconds)) },
      this.rules.loginMaxFailures,
    );
    if (!reserved) throw tooMany('REQUEST_LIMIT');
    const staff = subject ? await repo.findStaffByUsername(this.db, subject) : undefined;
    const ok = await verifyPassword(password, staff?.password_hash ?? (await this.dummy()));
    if (!staff || !ok) throw unauthorized('WRONG_CREDENTIAL');
    if (staff.status !== 'active') {
      // The right password ends the guessing; that the account is disabled is told only to its holder.
      await clearGuesses(this.db, 'staff-login', subject);
      throw unauthorized('INACTIVE_USER');
    }
    const token = await this.db.transaction().execute(async (trx) => {
      await clearGuesses(trx, 'staff-login', subject);
      return this.app.staffTokens.issue(Number(staff.id), trx);
    });
    return { token, staff: { id: Number(staff.id), username: staff.username, name: staff.name, role: staff.role } };
  }
}
