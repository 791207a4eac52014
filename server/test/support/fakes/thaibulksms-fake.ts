import crypto from 'node:crypto';
import { startFake, type FakeAnswer, type FakeServer, type SeenRequest } from './fake-server';

/**
 * ThaiBulkSMS's OTP API v2 as its documentation says (docs/providers/thaibulksms.md): `POST /v2/otp/request` and
 * `POST /v2/otp/verify` with the OTP application's key and secret in the body (JSON, or a form as the manual's PHP
 * sample posts), the documented answers as data, its documented errors, and the pin it "texted" for a test to read.
 */

/** The documented answers, copied as data (the OTP manual, as quoted in docs/providers/thaibulksms.md). */
export const THAIBULKSMS_DOC_EXAMPLES = {
  request: { status: 'success', token: 'a9e8a5a4-6cdc-4a4c-8d7e-4f1f4a0a6f11', refno: '190IB' },
  verify: { status: 'success', message: 'Code is correct.' },
} as const;

/** A request for this number answers the documented example exactly (its token and refno), with pin 123456. */
export const DOC_EXAMPLE_MSISDN = '0812345678';

/** The documented errors: their body `{code, errors: [{message}]}` and HTTP status. */
export const THAIBULKSMS_DOC_ERRORS = {
  invalid_pin: { status: 400, code: 400, message: 'Code is invalid.' },
  expired: { status: 400, code: 400, message: 'Token is expire.' },
  application_not_found: { status: 400, code: 400, message: 'Application not found.' },
  invalid_parameter: { status: 400, code: 400, message: 'Invalid Parameter.' },
  msisdn_exceeded_limit: { status: 400, code: 115, message: 'ERROR_MSISDN_EXCEEDED_LIMIT' },
  insufficient_credit: { status: 423, code: 116, message: 'ERROR_INSUFFICIENT_CREDIT' },
} as const;
export type ThaiBulkSmsError = keyof typeof THAIBULKSMS_DOC_ERRORS;

interface FakeOtp {
  msisdn: string;
  pin: string;
  refno: string;
  expired: boolean;
  checks: number;
}

export interface ThaiBulkSmsFake extends FakeServer {
  apiKey: string;
  apiSecret: string;
  /** Codes by token. */
  otps: Map<string, FakeOtp>;
  /** The pin of the newest code texted to this phone (what the player reads off the SMS). */
  pinFor(msisdn: string): string | undefined;
  /** How many codes were texted to the phone. */
  sentTo(msisdn: string): number;
  /** The provider's own expiry: every code so far is past its time. */
  expireAll(): void;
  /** The next answers (one per entry) are this documented error instead. */
  failWith(...errors: ThaiBulkSmsError[]): void;
  /** Back to normal: no queued error, mode ok, requests forgotten (codes stay). */
  reset(): void;
}

/** The body's fields, sent as JSON or as a form. */
function fieldsOf(req: SeenRequest): Record<string, string> {
  if (req.body && typeof req.body === 'object') return Object.fromEntries(Object.entries(req.body as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  if (typeof req.body === 'string') return Object.fromEntries(new URLSearchParams(req.body));
  return {};
}

export async function startThaiBulkSmsFake(apiKey = '1724714224731529', apiSecret = 'tbs-test-secret-0123456789abcdef'): Promise<ThaiBulkSmsFake> {
  const otps = new Map<string, FakeOtp>();
  const queued: ThaiBulkSmsError[] = [];
  const error = (e: ThaiBulkSmsError): FakeAnswer => {
    const d = THAIBULKSMS_DOC_ERRORS[e];
    return { status: d.status, body: { code: d.code, errors: [{ message: d.message }] } };
  };
  const handle = (req: SeenRequest): FakeAnswer => {
    if (req.method !== 'POST' || (req.path !== '/v2/otp/request' && req.path !== '/v2/otp/verify')) return { status: 404, body: { code: 404, errors: [{ message: 'Not found.' }] } };
    const f = fieldsOf(req);
    if (f.key !== apiKey || f.secret !== apiSecret) return error('application_not_found');
    const next = queued.shift();
    if (next) return error(next);
    if (req.path === '/v2/otp/request') {
      if (!/^(0|66)\d{8,9}$/.test(f.msisdn ?? '')) return error('invalid_parameter');
      if (f.msisdn === DOC_EXAMPLE_MSISDN) {
        const d = THAIBULKSMS_DOC_EXAMPLES.request;
        otps.delete(d.token); // re-added last, so it is the number's newest code
        otps.set(d.token, { msisdn: f.msisdn, pin: '123456', refno: d.refno, expired: false, checks: 0 });
        return { status: 200, body: d };
      }
      const token = crypto.randomUUID();
      const refno = Array.from({ length: 5 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'[crypto.randomInt(34)]).join('');
      otps.set(token, { msisdn: f.msisdn, pin: String(crypto.randomInt(0, 1_000_000)).padStart(6, '0'), refno, expired: false, checks: 0 });
      return { status: 200, body: { status: 'success', token, refno } };
    }
    const otp = otps.get(f.token ?? '');
    if (!f.token || !f.pin) return error('invalid_parameter');
    if (!otp || otp.expired) return error('expired');
    otp.checks++;
    if (otp.pin !== f.pin) return error('invalid_pin');
    return { status: 200, body: THAIBULKSMS_DOC_EXAMPLES.verify };
  };
  const server = await startFake(handle, () => ({ status: 500, body: { code: 500, errors: [{ message: 'Internal Server Error' }] } }));
  const newest = (msisdn: string) => [...otps.values()].filter((o) => o.msisdn === msisdn);
  return Object.assign(server, {
    apiKey,
    apiSecret,
    otps,
    pinFor: (msisdn: string) => newest(msisdn).at(-1)?.pin,
    sentTo: (msisdn: string) => newest(msisdn).length,
    expireAll: () => otps.forEach((o) => (o.expired = true)),
    failWith: (...errors: ThaiBulkSmsError[]) => void queued.push(...errors),
    reset: () => {
      queued.length = 0;
      server.mode = 'ok';
      server.requests.length = 0;
    },
  });
}
