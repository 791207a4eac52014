import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { GuessScope } from '../../db/schema-accounts';
import { AppError, badRequest, conflict, gone, tooMany, unauthorized, unprocessable } from '../../errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { insertPlayer } from '../../ledger';
import { phoneVerifiedSince } from './otp-repository';
import type { AccountRules } from './rules';
import * as repo from './repository';
import {
  INVALID_USER_INFO, checkBank, checkBankAccountName, checkBankAccountNo, checkCurrency, checkPassword, checkPhone,
  parseInviteCode, requiredText, toWireCurrency,
} from './validation';

/** The registration payload of spec §3 as it arrives (JSON schema has checked the types). */
export interface RegistrationBody {
  name: string; username: string; password: string; sourceCode: string; inviteCode?: string;
  bankCode?: string; bankAccountName?: string; bankAccountNo?: string; currency?: 'BAHT' | 'LAK';
  /** The player confirms they are at least MIN_PLAYER_AGE (docs/responsible-play.md); registration needs `true`. */
  ageConfirmed?: unknown;
}

export interface ProfileBody {
  name: string; bankCode: string; bankAccountName: string; bankAccountNo: string;
  /** The current password: required when the bank or the account number changes (issue 39 row 6). */
  password?: string;
}

export interface ProfileView {
  profile: { _id: string; username: string; name: string; createdAt: string };
  bankAccount: {
    bankAccountName: string; bankAccountNo: string; bankCode: string; currency: 'BAHT' | 'LAK';
    bank: { nameTH: string; nameEN: string };
    /** Withdrawals wait until then after a bank change (docs/accounts.md "Bank details"); null: no hold. */
    withdrawHoldUntil: string | null;
  };
}

const iso = (d: Date) => d.toISOString();
const minus = (d: Date, seconds: number) => new Date(d.getTime() - seconds * 1000);
const plus = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000);

/** Account rules: registration, login with lockout, profile, bank account name, password change. */
export class AccountsService {
  private readonly db: Kysely<DB>;
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly rules: AccountRules,
  ) {
    this.db = app.db;
    // Made now, not at the first unknown phone, so that no login ever pays for it (same timing for every phone).
    this.dummy().catch(() => undefined);
  }

  private now(): Date {
    return this.app.clock.now();
  }

  /** A hash to check wrong phones against, so an unknown phone costs the same time as a known one. */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword('not-a-password-of-anyone');
    return this.dummyHash;
  }

  // ---- registration -------------------------------------------------------------------------------

  /**
   * Checks a registration payload in the order the codes are documented in docs/accounts.md. With
   * `partial`, bank fields that are absent or empty are skipped (the SPA validates step 3 before step 4).
   */
  private async checkRegistration(body: RegistrationBody, partial: boolean) {
    const market = this.app.config.market;
    const name = requiredText(body.name);
    const phone = checkPhone(body.username, market);
    const password = checkPassword(body.password, this.rules);
    const sourceCode = requiredText(body.sourceCode);
    if (!(await repo.sourceExists(this.db, sourceCode))) throw badRequest(INVALID_USER_INFO);

    const hasBank = [body.bankCode, body.bankAccountName, body.bankAccountNo].some((v) => (v ?? '').trim() !== '');
    let bank: { code: string; accountName: string; accountNo: string } | null = null;
    if (hasBank || !partial) {
      const row = checkBank(await repo.findBank(this.db, requiredText(body.bankCode)));
      bank = {
        code: row.code,
        accountName: checkBankAccountName(body.bankAccountName, row.english_name_only === 1),
        accountNo: checkBankAccountNo(body.bankAccountNo, this.rules),
      };
    }
    const currency = checkCurrency(body.currency, market);

    if (await repo.phoneTaken(this.db, phone)) throw conflict('EXISTING_USER');
    if (this.app.config.registerOtp) {
      const since = iso(minus(this.now(), this.rules.otpVerifiedValidSeconds));
      if (!(await phoneVerifiedSince(this.db, phone, since))) throw badRequest('UNVERIFIED_OTP');
    }
    if (bank && (await repo.bankAccountTaken(this.db, bank.accountNo))) throw conflict('EXISTING_BANK');

    // An invite code that names no player, or a closed account (gone, inactive), is ignored: the link may be old,
    // and it must not block a sign-up. It cannot name the registering player, whose row does not exist yet.
    const inviterId = parseInviteCode(body.inviteCode);
    const inviter = inviterId !== null && (await repo.openPlayerExists(this.db, inviterId)) ? inviterId : null;
    return { name, phone, password, sourceCode, bank, currency, inviter };
  }

  /**
   * Step 1 of the registration (issue 12): the phone's format and that no player holds it, so a registered phone
   * is told at once rather than after the profile step. POST /api/otp/send tells the same when OTP is on.
   */
  async checkPhone(username: string): Promise<void> {
    const phone = checkPhone(username, this.app.config.market);
    if (await repo.phoneTaken(this.db, phone)) throw conflict('EXISTING_USER');
  }

  async validate(body: RegistrationBody): Promise<void> {
    await this.checkRegistration(body, true);
  }

  /** `log`: the request's logger (its lines carry the request id; docs/operations.md "Request ids"). */
  async register(body: RegistrationBody, log: FastifyBaseLogger = this.app.log): Promise<number> {
    const r = await this.checkRegistration(body, false);
    // Last of the checks (the fields' codes come first, as documented); anything but JSON true is refused.
    if (body.ageConfirmed !== true) throw unprocessable('AGE_NOT_CONFIRMED');
    const bank = r.bank!;
    const passwordHash = await hashPassword(r.password);
    try {
      return await insertPlayer(this.db, {
        phone: r.phone, name: r.name, password_hash: passwordHash, bank_code: bank.code, bank_account_name: bank.accountName,
        bank_account_no: bank.accountNo, currency: r.currency, source_code: r.sourceCode, inviter_id: r.inviter, now: iso(this.now()),
        age_confirmed_at: iso(this.now()),
      });
    } catch (e) {
      throw this.mapUnique(e, 'REGISTER_FAIL', log);
    }
  }

  /** A lost race on a unique column becomes the same answer the pre-check gives. */
  private mapUnique(e: unknown, otherwise: string, log: FastifyBaseLogger): AppError {
    const column = repo.uniqueViolation(e);
    if (column === 'phone') return conflict('EXISTING_USER');
    if (column === 'bank_account_no') return conflict('EXISTING_BANK');
    log.error({ err: e }, 'account write failed');
    return new AppError(500, otherwise);
  }

  // ---- session ------------------------------------------------------------------------------------

  /**
   * Reserves one try at a guessable secret before it is checked (docs/accounts.md "Guess limits"); with the
   * limit used up it answers REQUEST_LIMIT and the secret is not checked at all, right or wrong.
   */
  private async reserveGuess(scope: GuessScope, subject: string): Promise<void> {
    const now = this.now();
    const at = {
      now: iso(now),
      since: iso(minus(now, this.rules.loginWindowSeconds)),
      lockUntil: iso(plus(now, this.rules.loginLockSeconds)),
    };
    if (!(await repo.reserveGuess(this.db, scope, subject, at, this.rules.loginMaxFailures))) throw tooMany('REQUEST_LIMIT');
  }

  async login(username: string, password: string): Promise<string> {
    const phone = username.trim();
    // Counted before the slow check, for a known phone or not alike, so parallel guesses cannot pass the limit.
    await this.reserveGuess('login', phone);
    const player = phone ? await repo.findPlayerByPhone(this.db, phone) : undefined;
    const ok = await verifyPassword(password, player?.password_hash ?? (await this.dummy()));
    // A wrong guess keeps its reserved try: that is the failure counted towards the lock.
    if (!player || !ok) throw unauthorized('WRONG_CREDENTIAL');
    // The demo seed's player (its login is public) signs in only while DEMO is on (issue 39 row 5): as if inactive.
    if (Number(player.demo) === 1 && !this.app.config.demo) {
      await repo.clearGuesses(this.db, 'login', phone);
      throw unauthorized('INACTIVE_USER');
    }
    if (player.status !== 'active') {
      // The right password ends the guessing whatever the account's state; the state is told only to its holder.
      await repo.clearGuesses(this.db, 'login', phone);
      throw player.status === 'gone' ? gone() : unauthorized('INACTIVE_USER');
    }
    return this.db.transaction().execute(async (trx) => {
      await repo.clearGuesses(trx, 'login', phone);
      return this.app.tokens.issue(Number(player.id), trx);
    });
  }

  async logout(sessionId: string): Promise<void> {
    await this.app.tokens.revoke(sessionId);
  }

  // ---- profile ------------------------------------------------------------------------------------

  async profile(playerId: number): Promise<ProfileView> {
    const row = await repo.profileRow(this.db, playerId);
    if (!row) throw unauthorized('invalid-token');
    return {
      profile: { _id: String(row.id), username: row.phone, name: row.name, createdAt: row.created_at },
      bankAccount: {
        bankAccountName: row.bank_account_name,
        bankAccountNo: row.bank_account_no,
        bankCode: row.bank_code,
        currency: toWireCurrency(row.currency),
        bank: { nameTH: row.name_th, nameEN: row.name_en },
        withdrawHoldUntil: row.bank_hold_until !== null && row.bank_hold_until > iso(this.now()) ? row.bank_hold_until : null,
      },
    };
  }

  /**
   * Name, bank, account name and number. A change of the bank or the account number (issue 39 row 6) needs the
   * current password, counted like a login try of the player's phone (so a stolen token gets no more guesses than
   * the login form), and is audited and starts the withdrawal hold, all in the change's transaction. The password
   * is checked before the number is looked up among other players, so a token alone cannot probe account numbers.
   */
  async updateProfile(playerId: number, body: ProfileBody, log: FastifyBaseLogger = this.app.log, requestId?: string): Promise<ProfileView> {
    const name = requiredText(body.name);
    const bank = checkBank(await repo.findBank(this.db, requiredText(body.bankCode)));
    const accountName = checkBankAccountName(body.bankAccountName, bank.english_name_only === 1);
    const accountNo = checkBankAccountNo(body.bankAccountNo, this.rules);
    const player = await repo.findPlayerById(this.db, playerId);
    if (!player) throw unauthorized('invalid-token');
    const bankChanged = bank.code !== player.bank_code || accountNo !== player.bank_account_no;
    if (bankChanged) await this.checkCurrentPassword(player, body.password);
    if (await repo.bankAccountTaken(this.db, accountNo, playerId)) throw conflict('EXISTING_BANK');
    const now = this.now();
    const holdUntil = bankChanged ? iso(plus(now, this.rules.bankChangeCooldownSeconds)) : undefined;
    try {
      await this.db.transaction().execute(async (trx) => {
        await repo.updateProfile(trx, playerId, {
          name, bank_code: bank.code, bank_account_name: accountName, bank_account_no: accountNo, now: iso(now),
          ...(holdUntil ? { bank_hold_until: holdUntil } : {}),
        });
        if (holdUntil) {
          // The last digits only: the audit trail says which account, not the whole number.
          const detail = {
            from: { bankCode: player.bank_code, accountNoEnd: player.bank_account_no.slice(-4) },
            to: { bankCode: bank.code, accountNoEnd: accountNo.slice(-4) },
            withdrawHoldUntil: holdUntil,
          };
          await repo.insertAccountAudit(trx, { playerId, action: 'BANK_CHANGED', detail, requestId, now: iso(now) });
        }
      });
    } catch (e) {
      throw this.mapUnique(e, 'INTERNAL_SERVER_ERROR', log);
    }
    return this.profile(playerId);
  }

  /**
   * The current password behind a token, for a bank change: one try of the phone's login counter is reserved first
   * (a missing password uses one too), so the login lock covers it (429 REQUEST_LIMIT, the right password included);
   * the right one clears the counter as a login does.
   */
  private async checkCurrentPassword(player: { phone: string; password_hash: string }, password: string | undefined): Promise<void> {
    await this.reserveGuess('login', player.phone);
    if (!password) throw unprocessable('PASSWORD_REQUIRED');
    if (!(await verifyPassword(password, player.password_hash))) throw unprocessable('WRONG_PASSWORD');
    await repo.clearGuesses(this.db, 'login', player.phone);
  }

  /** Corrects the name on the registered account; the bank itself is changed through the profile. */
  async updateBankAccountName(playerId: number, bankCode: string, bankAccountName: string): Promise<ProfileView> {
    const player = await repo.findPlayerById(this.db, playerId);
    if (!player) throw unauthorized('invalid-token');
    if (requiredText(bankCode) !== player.bank_code) throw badRequest('INVALID_BANK');
    // This call is the fix for KTB/TMB/BBL names, so English is required whatever the bank.
    const name = checkBankAccountName(bankAccountName, true);
    await repo.updateBankAccountName(this.db, playerId, name, iso(this.now()));
    return this.profile(playerId);
  }

  /** Sets a new password, revokes every earlier token and returns a fresh one, all or nothing. */
  async changePassword(playerId: number, oldPassword: string, newPassword: string): Promise<string> {
    checkPassword(newPassword, this.rules);
    // The old password is a guessable secret behind a token: its tries are counted per player like logins.
    await this.reserveGuess('changepwd', String(playerId));
    const player = await repo.findPlayerById(this.db, playerId);
    if (!player) throw unauthorized('invalid-token');
    if (!(await verifyPassword(oldPassword, player.password_hash))) throw unprocessable('WRONG_PASSWORD');
    const hash = await hashPassword(newPassword);
    return this.db.transaction().execute(async (trx) => {
      await repo.clearGuesses(trx, 'changepwd', String(playerId));
      await repo.updatePasswordHash(trx, playerId, hash, iso(this.now()));
      await this.app.tokens.revokeAll(playerId, trx);
      return this.app.tokens.issue(playerId, trx);
    });
  }
}
