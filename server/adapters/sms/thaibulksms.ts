import type { ProviderCall } from '../../lib/request-context';
import { ProviderTimeoutError, adapterClient, type AdapterHttpSettings, type HttpClient, type LogSink } from '../http';
import { SmsSendError, type OtpCheck, type OtpProvider } from './types';

/**
 * ThaiBulkSMS's OTP API, v2 (docs/providers/thaibulksms.md): `POST {base}/v2/otp/request {key, secret, msisdn}` ->
 * `{status: 'success', token, refno}`; `POST {base}/v2/otp/verify {key, secret, token, pin}` -> `{status: 'success',
 * message: 'Code is correct.'}`; errors are 4xx `{code, errors: [{message}]}`. The key and secret are the OTP
 * application's (OTP Manager), sent in the JSON body; no auth header. ThaiBulkSMS makes the code and texts it
 * with the template configured in its console: our otpText is not used.
 */
export const THAIBULKSMS_BASE_URL = 'https://otp.thaibulksms.com';

export interface ThaiBulkSmsOptions extends AdapterHttpSettings {
  apiKey: string;
  apiSecret: string;
}

/** Personal data and secrets in the bodies: the phone to its last 4 digits; key, secret, token and pin never logged. */
export const THAIBULKSMS_MASK = { msisdn: 'phone', key: 'secret', secret: 'secret', token: 'secret', pin: 'secret' } as const;

/**
 * The documented messages (by their text, compared case-insensitively without the full stop) to what they mean
 * for a check. Anything else is `unavailable` with an error line: never `ok`.
 */
export const THAIBULKSMS_VERIFY_ERRORS: Record<string, { check: Exclude<OtpCheck, 'ok'>; operator?: true }> = {
  'code is invalid': { check: 'invalid' },
  'token is expire': { check: 'expired' },
  'token is expired': { check: 'expired' },
  'application not found': { check: 'unavailable', operator: true },
  'invalid parameter': { check: 'unavailable', operator: true },
};

/** The documented coded errors of a request (`code`): the provider's own per-number limit and the credit. */
export const THAIBULKSMS_REQUEST_CODES: Record<string, string> = {
  '115': 'ERROR_MSISDN_EXCEEDED_LIMIT: ThaiBulkSMS refused this number for now (its own per-number limit)',
  '116': 'ERROR_INSUFFICIENT_CREDIT: the OTP account has no credit left; top it up in the ThaiBulkSMS console',
};

interface ErrorBody {
  status?: unknown;
  token?: unknown;
  refno?: unknown;
  code?: unknown;
  message?: unknown;
  errors?: { message?: unknown }[];
}

/** The error's message wherever the answer carries it: `errors[0].message`, else `message` (text or `{message}`). */
export function messageOf(body: ErrorBody | null): string {
  const first = Array.isArray(body?.errors) ? body?.errors[0]?.message : undefined;
  if (typeof first === 'string') return first;
  const m = body?.message as unknown;
  if (typeof m === 'string') return m;
  if (m && typeof m === 'object' && typeof (m as { message?: unknown }).message === 'string') return (m as { message: string }).message;
  return '';
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\.+$/, '');
/** A reference the otp_requests row can hold (varchar(8)) and a player can read. */
const REF = /^[A-Za-z0-9]{1,8}$/;

export class ThaiBulkSmsOtp implements OtpProvider {
  readonly name = 'thaibulksms';
  readonly http: HttpClient;
  private readonly log?: LogSink;

  constructor(private readonly opts: ThaiBulkSmsOptions) {
    this.log = opts.log;
    this.http = adapterClient('thaibulksms', THAIBULKSMS_BASE_URL, opts, { mask: THAIBULKSMS_MASK, secrets: [opts.apiKey, opts.apiSecret] });
  }

  /**
   * Texts a code to the phone. Not idempotent (a second call texts a second code), so never retried: a timeout is
   * SmsSendError with `maybeSent` (the caller keeps the send slot used), anything but success is SmsSendError.
   */
  async request(phone: string, call?: ProviderCall): Promise<{ providerToken: string; ref?: string }> {
    let status: number;
    let body: ErrorBody | null;
    try {
      const answer = await this.http.request({
        operation: 'request',
        method: 'POST',
        path: '/v2/otp/request',
        json: { key: this.opts.apiKey, secret: this.opts.apiSecret, msisdn: phone },
        idempotent: false,
        call,
      });
      status = answer.status;
      body = answer.body as ErrorBody | null;
    } catch (e) {
      // Circuit open, connection refused, 5xx: nothing (or nothing known) sent. A timeout: it may have gone out.
      throw new SmsSendError('ThaiBulkSMS OTP request failed', { maybeSent: e instanceof ProviderTimeoutError });
    }
    if (status === 200 && body?.status === 'success' && typeof body.token === 'string' && body.token) {
      const ref = typeof body.refno === 'string' && REF.test(body.refno) ? body.refno : undefined;
      return { providerToken: body.token, ...(ref ? { ref } : {}) };
    }
    const code = body?.code === undefined || body?.code === null ? '' : String(body.code);
    const message = messageOf(body);
    const why = THAIBULKSMS_REQUEST_CODES[code] ?? (norm(message) === 'application not found' ? 'check THAIBULKSMS_API_KEY and THAIBULKSMS_API_SECRET (the OTP application\'s key and secret)' : 'an answer the adapter does not know');
    this.log?.error({ provider: 'thaibulksms', reqId: call?.requestId, status, code: code || null, message: message || null }, `ThaiBulkSMS refused the OTP request: ${why}`);
    throw new SmsSendError('ThaiBulkSMS refused the OTP request');
  }

  /**
   * Asks whether the pin is the token's code. The documentation does not say whether a check uses the code up, so
   * it is sent once (not idempotent): a timeout is `unavailable`, never a second check.
   */
  async verify(providerToken: string, pin: string, call?: ProviderCall): Promise<OtpCheck> {
    let status: number;
    let body: ErrorBody | null;
    try {
      const answer = await this.http.request({
        operation: 'verify',
        method: 'POST',
        path: '/v2/otp/verify',
        json: { key: this.opts.apiKey, secret: this.opts.apiSecret, token: providerToken, pin },
        idempotent: false,
        call,
      });
      status = answer.status;
      body = answer.body as ErrorBody | null;
    } catch {
      return 'unavailable'; // logged by the client
    }
    if (status === 200 && body?.status === 'success') return 'ok';
    const message = messageOf(body);
    const known = THAIBULKSMS_VERIFY_ERRORS[norm(message)];
    if (!known || known.operator) {
      this.log?.error(
        { provider: 'thaibulksms', reqId: call?.requestId, status, message: message || null },
        known ? 'ThaiBulkSMS refused our OTP check: check THAIBULKSMS_API_KEY and THAIBULKSMS_API_SECRET' : 'ThaiBulkSMS answered the OTP check with something undocumented',
      );
    }
    return known?.check ?? 'unavailable';
  }
}
