import { ThaiBulkSmsOtp, messageOf } from './thaibulksms';
import { SmsSendError } from './types';
import type { FastifyInstance } from 'fastify';
import { circuitsOf } from '../http';
import { createOtpProvider } from './index';
import { ConfigError } from '../../config';
import { DOC_EXAMPLE_MSISDN, THAIBULKSMS_DOC_EXAMPLES, startThaiBulkSmsFake, type ThaiBulkSmsFake } from '../../test/support/fakes/thaibulksms-fake';
import { capturedLog } from '../../test/support/fakes/fake-server';

/** The ThaiBulkSMS OTP adapter over real HTTP against its contract fake (docs/providers/thaibulksms.md). */
let fake: ThaiBulkSmsFake;
beforeAll(async () => {
  fake = await startThaiBulkSmsFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const logger = capturedLog;
const otp = (over: Partial<ConstructorParameters<typeof ThaiBulkSmsOtp>[0]> = {}) =>
  new ThaiBulkSmsOtp({ apiKey: fake.apiKey, apiSecret: fake.apiSecret, baseUrl: fake.url, ...over });
const rejection = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('resolved');
};

test('the documented request and answer: POST /v2/otp/request {key, secret, msisdn} as JSON -> the token and refno', async () => {
  const res = await otp().request(DOC_EXAMPLE_MSISDN, { requestId: 'r-1' });
  expect(res).toEqual({ providerToken: THAIBULKSMS_DOC_EXAMPLES.request.token, ref: THAIBULKSMS_DOC_EXAMPLES.request.refno });
  expect(fake.requests).toMatchObject([{ method: 'POST', path: '/v2/otp/request', body: { key: fake.apiKey, secret: fake.apiSecret, msisdn: DOC_EXAMPLE_MSISDN } }]);
  expect(Object.keys(fake.requests[0].body as object).sort()).toEqual(['key', 'msisdn', 'secret']);
  expect(fake.requests[0].headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': 'r-1' });
  expect(fake.requests[0].headers.authorization).toBeUndefined();
});

test('verify: the right pin is ok (the documented answer), a wrong one invalid, an expired token expired', async () => {
  const phone = '0898765432';
  const { providerToken } = await otp().request(phone);
  const pin = fake.pinFor(phone)!;
  const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
  expect(await otp().verify(providerToken, wrong)).toBe('invalid');
  expect(await otp().verify(providerToken, pin)).toBe('ok');
  expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v2/otp/verify', body: { key: fake.apiKey, secret: fake.apiSecret, token: providerToken, pin } });
  fake.expireAll();
  expect(await otp().verify(providerToken, pin)).toBe('expired');
  expect(await otp().verify('no-such-token', pin)).toBe('expired');
});

test('every documented verify error maps: invalid, expired; our account refused and undocumented answers are unavailable', async () => {
  const { providerToken } = await otp().request('0898765433');
  const pin = fake.pinFor('0898765433')!;
  fake.failWith('invalid_pin', 'expired', 'application_not_found', 'invalid_parameter', 'insufficient_credit');
  const { sink, lines } = logger();
  const got = [];
  for (let i = 0; i < 5; i++) got.push(await otp({ log: sink }).verify(providerToken, pin));
  expect(got).toEqual(['invalid', 'expired', 'unavailable', 'unavailable', 'unavailable']);
  expect(lines.filter((l) => l.includes('refused our OTP check'))).toHaveLength(2);
  expect(lines.filter((l) => l.includes('undocumented'))).toHaveLength(1);
  // A wrong key or secret is "Application not found." whatever the call.
  expect(await otp({ apiSecret: 'wrong-secret' }).verify(providerToken, pin)).toBe('unavailable');
});

test('a refused request is SmsSendError (nothing sent): wrong key, a bad number, the per-number limit, no credit', async () => {
  const { sink, lines } = logger();
  for (const e of ['application_not_found', 'invalid_parameter', 'msisdn_exceeded_limit', 'insufficient_credit'] as const) {
    fake.failWith(e);
    const err = await rejection(otp({ log: sink }).request('0898765434'));
    expect(err).toBeInstanceOf(SmsSendError);
    expect((err as SmsSendError).maybeSent).toBe(false);
  }
  expect(await rejection(otp({ apiKey: '999' }).request('0898765434'))).toBeInstanceOf(SmsSendError);
  expect(await rejection(otp().request('12345'))).toBeInstanceOf(SmsSendError);
  expect(lines.join('\n')).toContain('ERROR_MSISDN_EXCEEDED_LIMIT');
  expect(lines.join('\n')).toContain('ERROR_INSUFFICIENT_CREDIT');
  expect(fake.sentTo('0898765434')).toBe(0);
});

test('the request is sent once: a timeout is SmsSendError maybeSent, a 5xx SmsSendError, never retried', async () => {
  fake.mode = 'timeout';
  const started = Date.now();
  const err = await rejection(otp({ timeoutMs: 150 }).request('0898765435'));
  expect([err instanceof SmsSendError, (err as SmsSendError).maybeSent]).toEqual([true, true]);
  expect(fake.requests).toHaveLength(1);
  expect(Date.now() - started).toBeLessThan(1_000);
  fake.reset();
  fake.mode = 'down';
  const down = await rejection(otp().request('0898765435'));
  expect([down instanceof SmsSendError, (down as SmsSendError).maybeSent]).toEqual([true, false]);
  expect(fake.requests).toHaveLength(1);
});

test('verify is sent once too: a timeout or a 5xx is unavailable; a slow answer within the timeout is fine', async () => {
  const { providerToken } = await otp().request('0898765436');
  const pin = fake.pinFor('0898765436')!;
  fake.reset();
  fake.mode = 'timeout';
  expect(await otp({ timeoutMs: 150 }).verify(providerToken, pin)).toBe('unavailable');
  expect(fake.requests).toHaveLength(1);
  fake.mode = 'down';
  expect(await otp().verify(providerToken, pin)).toBe('unavailable');
  expect(fake.requests).toHaveLength(2);
  fake.mode = 'slow';
  fake.slowMs = 50;
  expect(await otp({ timeoutMs: 1_000 }).verify(providerToken, pin)).toBe('ok');
});

test('after repeated outages the breaker opens: requests and checks refused fast, without calling ThaiBulkSMS', async () => {
  fake.mode = 'down';
  const p = otp({ breaker: { failureThreshold: 3, coolDownMs: 60_000 } });
  for (let i = 0; i < 3; i++) expect(await rejection(p.request('0898765437'))).toBeInstanceOf(SmsSendError);
  expect(p.http.breaker.state).toBe('open');
  fake.reset();
  const started = Date.now();
  const err = await rejection(p.request('0898765437'));
  expect([err instanceof SmsSendError, (err as SmsSendError).maybeSent]).toEqual([true, false]);
  expect(await p.verify('any-token', '123456')).toBe('unavailable');
  expect(Date.now() - started).toBeLessThan(50);
  expect(fake.requests).toHaveLength(0);
});

test('the key, the secret, the token and the pin are never in a log line; the phone only by its last 4 digits', async () => {
  const { sink, lines } = logger();
  const phone = '0891234567';
  const { providerToken } = await otp({ log: sink }).request(phone, { requestId: 'r-2' });
  const pin = fake.pinFor(phone)!;
  await otp({ log: sink }).verify(providerToken, pin);
  fake.failWith('application_not_found');
  await otp({ log: sink }).verify(providerToken, pin);
  const all = lines.join('\n');
  expect(lines.length).toBeGreaterThanOrEqual(4);
  for (const secret of [fake.apiKey, fake.apiSecret, providerToken, `"${pin}"`, phone]) expect(all).not.toContain(secret);
  expect(all).toContain('xxxxxx4567');
  expect(all).toContain('"reqId":"r-2"');
});

test('the error message is read wherever the answer carries it', () => {
  expect(messageOf({ code: 400, errors: [{ message: 'Code is invalid.' }] })).toBe('Code is invalid.');
  expect(messageOf({ message: 'Token is expire.' })).toBe('Token is expire.');
  expect(messageOf({ message: { message: 'Invalid Parameter.' } } as never)).toBe('Invalid Parameter.');
  expect(messageOf(null)).toBe('');
});

test('SMS_PROVIDER: unset or simulator is no provider; thaibulksms without its key or secret refuses the start, as does an unknown name', () => {
  const app = { log: { child: () => ({}) }, hasDecorator: () => false } as unknown as FastifyInstance;
  expect(createOtpProvider(app, {})).toBeNull();
  expect(createOtpProvider(app, { SMS_PROVIDER: 'simulator' })).toBeNull();
  expect(() => createOtpProvider(app, { SMS_PROVIDER: 'thaibulksms', THAIBULKSMS_API_SECRET: 's' })).toThrow(new ConfigError('THAIBULKSMS_API_KEY is required with SMS_PROVIDER=thaibulksms'));
  expect(() => createOtpProvider(app, { SMS_PROVIDER: 'thaibulksms', THAIBULKSMS_API_KEY: 'k' })).toThrow(/THAIBULKSMS_API_SECRET is required/);
  expect(() => createOtpProvider(app, { SMS_PROVIDER: 'twilio' })).toThrow(new ConfigError('SMS_PROVIDER "twilio" is not available; known: simulator, thaibulksms'));
  expect(() => createOtpProvider(app, { SMS_PROVIDER: 'thaibulksms', THAIBULKSMS_API_KEY: 'k', THAIBULKSMS_API_SECRET: 's', SMS_PROVIDER_TIMEOUT_MS: '5' })).toThrow(/SMS_PROVIDER_TIMEOUT_MS/);
  const p = createOtpProvider(app, { SMS_PROVIDER: 'thaibulksms', THAIBULKSMS_API_KEY: 'k', THAIBULKSMS_API_SECRET: 's' });
  expect(p).toBeInstanceOf(ThaiBulkSmsOtp);
  expect(circuitsOf(app).snapshot().map((c) => c.provider)).toEqual(['thaibulksms']);
});
