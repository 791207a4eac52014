import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../errors';
import { hashPassword } from '../../lib/password';
import type { RequestScope } from '../../lib/request-context';
import { findResetOtp, markResetUsed } from './otp-repository';
import type { OtpService, SmsLang } from './otp-service';
import type { AccountRules } from './rules';
import * as repo from './repository';
import { checkPassword } from './validation';

const iso = (d: Date) => d.toISOString();
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/**
 * A way back into a forgotten password (issue 40 item 4, docs/accounts.md "Forgotten password"): the phone gets a
 * reset code by SMS (POST /api/account/forgot, the OTP plugin's limits), the code is checked by POST /api/otp/verify
 * (its 5 tries), and POST /api/account/reset sets the new password with the verified code's token, once. Setting it
 * ends every session of the player and writes the player's audit row, in one transaction.
 */
export class RecoveryService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly rules: AccountRules,
    private readonly otp: OtpService,
  ) {}

  /** The same answer for every phone of the right format, registered or not (OtpService.sendReset). */
  forgot(phoneNumber: string, lang: SmsLang, scope?: RequestScope): Promise<{ otpRef: string; otpToken: string }> {
    return this.otp.sendReset(phoneNumber, lang, scope);
  }

  /**
   * The new password for the phone of a verified reset code. Refused: PASSWORD_TOO_SHORT (checked first, nothing
   * used), OTP_TOKEN_INVALID (no reset code has this token), UNVERIFIED_OTP (its code was not verified yet),
   * OTP_EXPIRED (verified longer ago than OTP_VERIFIED_VALID_SECONDS, or already used). The login lock, if one is in
   * force, stays: a reset is not a way around it. Answers the player's id.
   */
  async reset(otpToken: string, newPassword: string, scope?: RequestScope): Promise<number> {
    const { db } = this.app;
    checkPassword(newPassword, this.rules);
    const otp = await findResetOtp(db, sha256(otpToken));
    if (!otp) throw badRequest('OTP_TOKEN_INVALID');
    if (otp.verified_at === null) throw badRequest('UNVERIFIED_OTP');
    const now = this.app.clock.now();
    const validFrom = iso(new Date(now.getTime() - this.rules.otpVerifiedValidSeconds * 1000));
    if (otp.used_at !== null || otp.verified_at <= validFrom) throw badRequest('OTP_EXPIRED');
    // A verified code exists only for a phone that was sent one, so only for a registered phone; a player deleted
    // since (never done by this server) would find no row.
    const player = await repo.findPlayerByPhone(db, otp.phone);
    if (!player) throw badRequest('OTP_TOKEN_INVALID');
    const playerId = Number(player.id);
    const hash = await hashPassword(newPassword);
    await db.transaction().execute(async (trx) => {
      // First, so of two submits of one code only one sets a password (the other waits on the row, then finds it used).
      if (!(await markResetUsed(trx, Number(otp.id), iso(now)))) throw badRequest('OTP_EXPIRED');
      await repo.updatePasswordHash(trx, playerId, hash, iso(now));
      await this.app.tokens.revokeAll(playerId, trx);
      await repo.insertAccountAudit(trx, { playerId, action: 'PASSWORD_RESET', detail: { otpRef: otp.ref }, requestId: scope?.call.requestId, now: iso(now) });
    });
    (scope?.log ?? this.app.log).info({ playerId }, 'password reset by SMS code; every session ended');
    return playerId;
  }
}
