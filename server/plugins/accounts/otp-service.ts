import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest, conflict, tooMany } from '../../errors';
import type { AccountRules } from './rules';
import { phoneTaken } from './repository';
import { checkPhone } from './validation';
import type { ProviderCall, RequestScope } from '../../lib/request-context';
import { SmsSendError } from '../../adapters/sms/types';
import type { OtpPurpose } from '../../db/schema-accounts';
import * as repo from './otp-repository';

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
export function otpText(code: string, ref: string, ttlSeconds: number, lang: SmsLang = 'en', purpose: OtpPurpose = 'register'): string {
  const min = Math.round(ttlSeconds / 60);
  // A reset code says what it unlocks, so a player asked for it by someone else knows what they would give away.
  const head = `OTP ${code} (Ref ${ref})${purpose === 'reset' ? RESET_WORDS[lang] : ''}`;
  if (lang === 'th') return `${head} ใช้ได้ ${min} นาที ห้ามบอกรหัสนี้กับผู้อื่น`;
  if (lang === 'la') return `${head} ໃຊ້ໄດ້ ${min} ນາທີ ຫ້າມບອກລະຫັດນີ້ໃຫ້ຜູ້ອື່ນ`;
  return `${head} valid ${min} min. Never share this code.`;
}

const RESET_WORDS: Record<SmsLang, string> = {
  th: ' สำหรับตั้งรหัสผ่านใหม่',
  la: ' ສຳລັບຕັ້ງລະຫັດຜ່ານໃໝ່',
  en: ' to reset your password,',
};

/** A code just stored: its row, and what only the SMS and the answer carry. */
interface IssuedOtp { id: number; code: string; ref: string; token: string }

/**
 * OTP for registration and for a forgotten password: send (with per-phone limits, shared by both) and verify (with a
 * try limit). Only hashes are stored.
 */
export class OtpService {
  private readonly codeKey: Buffer;
  /** Reset SMS still being sent (they go after the answer): awaited when the app closes, and by tests. */
  private readonly sending = new Set<Promise<void>>();

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

    const otp = await this.issue(phone, now, 'register');
    // The SMS goes out after the commit (a slow gateway must not hold the lock); if it fails the row goes away,
    // unless it may have gone out (a provider's timeout): then the row stays, unusable, and its send slot used.
    let ref: string;
    try {
      ref = await this.deliver(otp, phone, () => otpText(otp.code, otp.ref, this.rules.otpTtlSeconds, lang), scope?.call, true);
    } catch (err) {
      if (!(err instanceof SmsSendError && err.maybeSent)) await repo.deleteOtp(db, otp.id);
      (scope?.log ?? this.app.log).warn({ err }, 'OTP SMS not sent');
      throw new AppError(502, 'OTP_SEND_FAIL');
    }
    await repo.expireOlderOtps(db, phone, otp.id, iso(now));
    return { otpRef: ref, otpToken: otp.token };
  }

  /**
   * Where the two ways of sending a code part (the only place, with `check`): our code in our text through
   * app.sms, or an OTP provider's (app.smsOtp) own code in its own template, its token stored on our row. Answers
   * the reference the SMS shows: the provider's when it gives one and `takeRef` (not for a reset, whose answer went
   * before the SMS), else ours.
   */
  private async deliver(otp: IssuedOtp, phone: string, text: () => string, call: ProviderCall | undefined, takeRef: boolean): Promise<string> {
    const provider = this.app.smsOtp;
    if (!provider) {
      await this.app.sms.send(phone, text(), call);
      return otp.ref;
    }
    const sent = await provider.request(phone, call);
    const ref = takeRef ? sent.ref : undefined;
    await repo.setProviderToken(this.app.db, otp.id, sent.providerToken, ref);
    return ref ?? otp.ref;
  }

  /**
   * A forgotten password's code (docs/accounts.md "Forgotten password"). Every phone of the right format gets the
   * same treatment and the same answer, registered or not: the same send limits (counted in the same rows), a stored
   * code and a reference and token. Only a registered phone is sent the SMS, and that goes after the answer, so
   * neither the answer, nor its timing, nor an SMS failure (502 on the registration's send) tells whether the phone
   * has an account. A failed SMS removes its row (no send slot used) and is logged; the player asks again.
   */
  async sendReset(phoneNumber: string, lang: SmsLang, scope?: RequestScope): Promise<{ otpRef: string; otpToken: string }> {
    const { db } = this.app;
    const phone = checkPhone(phoneNumber, this.app.config.market);
    const registered = await phoneTaken(db, phone);
    const now = this.app.clock.now();
    const otp = await this.issue(phone, now, 'reset');
    await repo.expireOlderOtps(db, phone, otp.id, iso(now));
    if (registered) {
      const log = scope?.log ?? this.app.log;
      const text = () => otpText(otp.code, otp.ref, this.rules.otpTtlSeconds, lang, 'reset');
      const sent: Promise<void> = this.deliver(otp, phone, text, scope?.call, false)
        .then(() => undefined)
        .catch(async (err: unknown) => {
          log.warn({ err }, 'password reset SMS not sent');
          if (!(err instanceof SmsSendError && err.maybeSent)) await repo.deleteOtp(db, otp.id);
        })
        .catch((err: unknown) => log.error({ err }, 'password reset OTP row not removed'))
        .finally(() => this.sending.delete(sent));
      this.sending.add(sent);
    }
    return { otpRef: otp.ref, otpToken: otp.token };
  }

  /** Resolves when every reset SMS started so far was sent (or failed and was cleaned up). */
  async settled(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  /**
   * Stores a new code for the phone within its send limits (1 a minute, 5 an hour, whatever the purpose), counted
   * and inserted under the phone's lock row so concurrent sends and processes cannot pass them.
   */
  private async issue(phone: string, now: Date, purpose: OtpPurpose): Promise<IssuedOtp> {
    // With an OTP provider the provider makes the code: ours is a random value nobody is sent, so its HMAC matches
    // no pin until the provider accepts one (markVerifiedWithCode).
    const code = this.app.smsOtp ? crypto.randomBytes(16).toString('hex') : String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    const token = crypto.randomBytes(32).toString('base64url');
    const ref = Array.from({ length: 6 }, () => REF_ALPHABET[crypto.randomInt(REF_ALPHABET.length)]).join('');
    const tokenHash = sha256(token);
    const id = await this.app.db.transaction().execute(async (trx) => {
      await repo.lockPhone(trx, phone, iso(now));
      if ((await repo.sendsSince(trx, phone, iso(minus(now, 3600)))) >= this.rules.otpSendsPerHour) throw tooMany('REQUEST_LIMIT');
      if ((await repo.sendsSince(trx, phone, iso(minus(now, 60)))) >= this.rules.otpSendsPerMinute) throw tooMany('REQUEST_LIMIT_1MIN');
      return repo.insertOtp(trx, {
        phone, token_hash: tokenHash, ref, code_hash: this.codeHash(tokenHash, code), created_at: iso(now),
        expires_at: iso(new Date(now.getTime() + this.rules.otpTtlSeconds * 1000)), purpose,
      });
    });
    return { id, code, ref, token };
  }

  /** `call`: the request's id for the provider's log lines (OTP provider only). */
  async verify(otpToken: string, otpCode: string, call?: ProviderCall): Promise<{ code: 'OTP_CODE_VALID' }> {
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
    const provider = this.app.smsOtp;
    if (provider && otp.provider_token) {
      // The provider's code: it checks the pin (after our try was taken, so our 5 tries bound its checks too).
      const checked = await provider.verify(otp.provider_token, otpCode.trim(), call);
      if (checked === 'invalid') throw badRequest('OTP_CODE_INVALID');
      if (checked === 'expired') throw badRequest('OTP_EXPIRED');
      // No definite answer: the try stays used (the check may have reached the provider); the player tries again.
      if (checked !== 'ok') throw new AppError(502, 'OTP_VERIFY_FAIL');
      await repo.markVerifiedWithCode(db, Number(otp.id), this.codeHash(tokenHash, otpCode.trim()), iso(now));
      return { code: 'OTP_CODE_VALID' };
    }
    // Our own code (or, with a provider, a row it never got a token for: a reset code for an unknown phone, never
    // sent, whose random code matches nothing, so it answers as a wrong code does).
    if (!matches()) throw badRequest('OTP_CODE_INVALID');
    await repo.markVerified(db, Number(otp.id), iso(now));
    return { code: 'OTP_CODE_VALID' };
  }
}
