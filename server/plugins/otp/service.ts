import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest, conflict, tooMany } from '../../errors';
import type { AccountRules } from '../accounts/rules';
import { phoneTaken } from '../accounts/repository';
import { checkPhone } from '../accounts/validation';
import type { RequestScope } from '../../lib/request-context';
import * as repo from './repository';

export type SendResult = { otpRef: string; otpToken: string } | { code: 'OTP_VERIFIED' };

const iso = (d: Date) => d.toISOString();
const minus = (d: Date, seconds: number) => new Date(d.getTime() - seconds * 1000);
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
// No 0/O or 1/I in references: people read them off a phone screen.
const REF_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export type SmsLang = 'th' | 'la' | 'en';
export const SMS_LANGS: readonly SmsLang[] = ['th', 'la', 'en'];

/**
 * The language of the OTP message (issue 12): the `lang` the SPA sends (the player's language), else the first
 * of th, la, en in Accept-Language, else the market's own (la in the Lao market, th otherwise).
 */
export function smsLanguage(lang: string | undefined, acceptLanguage: string | undefined, market: 'th' | 'lao'): SmsLang {
  if (lang && (SMS_LANGS as readonly string[]).includes(lang)) return lang as SmsLang;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase().split('-')[0];
    // lo is the ISO code of Lao; the SPA calls it la.
    const l = tag === 'lo' ? 'la' : tag;
    if ((SMS_LANGS as readonly string[]).includes(l)) return l as SmsLang;
  }
  return market === 'lao' ? 'la' : 'th';
}

/**
 * The text of the OTP message in the player's language. Every language starts "OTP {code} (Ref {ref})": the e2e
 * test and the demo page read the 6-digit code out of it.
 */
export function otpText(code: string, ref: string, ttlSeconds: number, lang: SmsLang = 'en'): string {
  const min = Math.round(ttlSeconds / 60);
  const head = `OTP ${code} (Ref ${ref})`;
  if (lang === 'th') return `${head} ใช้ได้ ${min} นาที ห้ามบอกรหัสนี้กับผู้อื่น`;
  if (lang === 'la') return `${head} ໃຊ້ໄດ້ ${min} ນາທີ ຫ້າມບອກລະຫັດນີ້ໃຫ້ຜູ້ອື່ນ`;
  return `${head} valid ${min} min. Never share this code.`;
}

/** OTP for registration: send (with per-phone limits) and verify (with a try limit). Only hashes are stored. */
export class OtpService {
  private readonly codeKey: Buffer;

  constructor(
    private readonly app: FastifyInstance,
    private readonly rules: AccountRules,
  ) {
    // A keyed hash: a plain hash of a 6-digit code is reversed by trying the million codes.
    this.codeKey = crypto.createHmac('sha256', app.config.jwtSecret).update('otp-code').digest();
  }

  private codeHash(tokenHash: string, code: string): string {
    return crypto.createHmac('sha256', this.codeKey).update(`${tokenHash}:${code}`).digest('hex');
  }

  /** `scope`: the request it is sent for (its logger and the SMS call's request id; docs/operations.md "Request ids"). */
  async send(phoneNumber: string, lang: SmsLang = this.app.config.market === 'lao' ? 'la' : 'th', scope?: RequestScope): Promise<SendResult> {
    const { db } = this.app;
    const phone = checkPhone(phoneNumber, this.app.config.market);
    if (await phoneTaken(db, phone)) throw conflict('EXISTING_USER');
    const now = this.app.clock.now();
    if (await repo.phoneVerifiedSince(db, phone, iso(minus(now, this.rules.otpVerifiedValidSeconds)))) return { code: 'OTP_VERIFIED' };

    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    const token = crypto.randomBytes(32).toString('base64url');
    const ref = Array.from({ length: 6 }, () => REF_ALPHABET[crypto.randomInt(REF_ALPHABET.length)]).join('');
    const tokenHash = sha256(token);

    const id = await db.transaction().execute(async (trx) => {
      await repo.lockPhone(trx, phone, iso(now));
      if ((await repo.sendsSince(trx, phone, iso(minus(now, 3600)))) >= this.rules.otpSendsPerHour) throw tooMany('REQUEST_LIMIT');
      if ((await repo.sendsSince(trx, phone, iso(minus(now, 60)))) >= this.rules.otpSendsPerMinute) throw tooMany('REQUEST_LIMIT_1MIN');
      return repo.insertOtp(trx, {
        phone, token_hash: tokenHash, ref, code_hash: this.codeHash(tokenHash, code), created_at: iso(now),
        expires_at: iso(new Date(now.getTime() + this.rules.otpTtlSeconds * 1000)),
      });
    });

    // The SMS goes out after the commit (a slow gateway must not hold the lock); if it fails the row goes away.
    try {
      await this.app.sms.send(phone, otpText(code, ref, this.rules.otpTtlSeconds, lang), scope?.call);
    } catch (err) {
      await repo.deleteOtp(db, id);
      (scope?.log ?? this.app.log).warn({ err }, 'OTP SMS not sent');
      throw new AppError(502, 'OTP_SEND_FAIL');
    }
    await repo.expireOlderOtps(db, phone, id, iso(now));
    return { otpRef: ref, otpToken: token };
  }

  async verify(otpToken: string, otpCode: string): Promise<{ code: 'OTP_CODE_VALID' }> {
    const { db } = this.app;
    const tokenHash = sha256(otpToken);
    const otp = await repo.findOtpByTokenHash(db, tokenHash);
    if (!otp) throw badRequest('OTP_TOKEN_INVALID');
    const matches = () => {
      const given = Buffer.from(this.codeHash(tokenHash, otpCode.trim()), 'hex');
      return crypto.timingSafeEqual(given, Buffer.from(otp.code_hash, 'hex'));
    };
    // The same right answer twice (a double submit) is still right.
    if (otp.verified_at && matches()) return { code: 'OTP_CODE_VALID' };
    const now = this.app.clock.now();
    if (otp.expires_at <= iso(now)) throw badRequest('OTP_EXPIRED');
    if (!(await repo.takeTry(db, Number(otp.id), this.rules.otpMaxTries))) throw tooMany('OTP_BLOCK');
    if (!matches()) throw badRequest('OTP_CODE_INVALID');
    await repo.markVerified(db, Number(otp.id), iso(now));
    return { code: 'OTP_CODE_VALID' };
  }
}
