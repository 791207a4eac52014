import { buildTestApp, type TestApp } from '../../test/support/helper';
import { ensureReference, login, manualClock, register, registration, uniqueIds } from '../../test/support/accounts';
import { startThaiBulkSmsFake, type ThaiBulkSmsFake } from '../../test/support/fakes/thaibulksms-fake';
import { ThaiBulkSmsOtp } from '../../adapters/sms/thaibulksms';
import { circuitsOf } from '../../adapters/http';

/**
 * Issue 45: the OTP journeys once through ThaiBulkSMS's contract fake (SMS_PROVIDER=thaibulksms,
 * docs/providers/thaibulksms.md): the provider makes, texts and checks the code; our token, reference, send limits
 * and tries apply as with our own code (otp.test.ts, recovery.test.ts).
 */
jest.setTimeout(120_000);

let fake: ThaiBulkSmsFake;
let t: TestApp;
let clock: ReturnType<typeof manualClock>;
const KEYS = ['SMS_PROVIDER', 'THAIBULKSMS_API_KEY', 'THAIBULKSMS_API_SECRET', 'THAIBULKSMS_BASE_URL', 'SMS_PROVIDER_TIMEOUT_MS'];
const saved = KEYS.map((k) => process.env[k]);

beforeAll(async () => {
  fake = await startThaiBulkSmsFake();
  Object.assign(process.env, { SMS_PROVIDER: 'thaibulksms', THAIBULKSMS_API_KEY: fake.apiKey, THAIBULKSMS_API_SECRET: fake.apiSecret, THAIBULKSMS_BASE_URL: fake.url, SMS_PROVIDER_TIMEOUT_MS: '300' });
  t = await buildTestApp({ REGISTER_OTP: 'on' });
  await ensureReference(t.db.db);
});
afterAll(async () => {
  await t.close();
  await fake.close();
  KEYS.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
});
beforeEach(() => {
  clock = manualClock(t.app, new Date());
  fake.reset();
});

const send = (phoneNumber: string) => t.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber, lang: 'en' } });
const verify = (otpToken: string, otpCode: string) => t.app.inject({ method: 'POST', url: '/api/otp/verify', payload: { otpToken, otpCode } });
const answer = (res: { statusCode: number; json: () => unknown }) => [res.statusCode, res.json()];
const wrong = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
const rowOf = (phone: string) => t.db.db.selectFrom('otp_requests').selectAll().where('phone', '=', phone).orderBy('id', 'desc').executeTakeFirst();
const outbox = async (phone: string) => (await t.db.db.selectFrom('sms_outbox').select('id').where('phone', '=', phone).execute()).length;

/** A code requested for a new phone: our answer, and the pin the provider texted. */
async function sent(phone = uniqueIds().phone) {
  const res = await send(phone);
  expect(res.statusCode).toBe(200);
  const body = res.json() as { otpRef: string; otpToken: string };
  return { phone, ...body, pin: fake.pinFor(phone)! };
}

test('the app chose ThaiBulkSMS: its breaker is in the registry, nothing goes to the simulator', async () => {
  expect(t.app.smsOtp?.name).toBe('thaibulksms');
  expect(circuitsOf(t.app).snapshot().map((c) => c.provider)).toContain('thaibulksms');
  expect(t.app.smsOtp).toBeInstanceOf(ThaiBulkSmsOtp);
});

describe('registration with OTP through ThaiBulkSMS', () => {
  test('send: the provider texts its code; our token and its reference come back; the row holds its token, not its pin', async () => {
    const p = await sent();
    expect(fake.sentTo(p.phone)).toBe(1);
    expect(fake.requests).toMatchObject([{ path: '/v2/otp/request', body: { msisdn: p.phone } }]);
    const otp = [...fake.otps.entries()].find(([, o]) => o.msisdn === p.phone)!;
    expect(p.otpRef).toBe(otp[1].refno);
    expect(p.otpToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = (await rowOf(p.phone))!;
    expect(row).toMatchObject({ provider_token: otp[0], ref: otp[1].refno, attempts: 0, verified_at: null });
    expect(JSON.stringify(row)).not.toContain(p.otpToken);
    expect(await outbox(p.phone)).toBe(0);
  });

  test('a wrong pin is OTP_CODE_INVALID and counted; the right one is OTP_CODE_VALID; a double submit stays local; the phone registers', async () => {
    const p = await sent();
    expect(answer(await verify(p.otpToken, wrong(p.pin)))).toEqual([400, { message: 'OTP_CODE_INVALID' }]);
    expect((await rowOf(p.phone))!.attempts).toBe(1);
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([200, { code: 'OTP_CODE_VALID' }]);
    const checks = fake.requests.filter((r) => r.path === '/v2/otp/verify').length;
    expect(checks).toBe(2);
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([200, { code: 'OTP_CODE_VALID' }]);
    expect(fake.requests.filter((r) => r.path === '/v2/otp/verify')).toHaveLength(checks);
    const body = registration({ username: p.phone });
    expect((await register(t.app, body)).statusCode).toBe(200);
    expect((await login(t.app, p.phone, body.password)).statusCode).toBe(200);
  });

  test('after 5 wrong pins the 6th try is OTP_BLOCK even with the right pin, and the provider is not asked', async () => {
    const p = await sent();
    for (let i = 0; i < 5; i++) expect(answer(await verify(p.otpToken, wrong(p.pin)))).toEqual([400, { message: 'OTP_CODE_INVALID' }]);
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([429, { message: 'OTP_BLOCK' }]);
    expect(fake.otps.get((await rowOf(p.phone))!.provider_token!)!.checks).toBe(5);
    expect((await register(t.app, registration({ username: p.phone }))).json()).toEqual({ message: 'UNVERIFIED_OTP' });
  });

  test('expired: past our 5 minutes without asking the provider; or expired at the provider', async () => {
    const p = await sent();
    clock.advance(5 * 60);
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([400, { message: 'OTP_EXPIRED' }]);
    expect(fake.requests.filter((r) => r.path === '/v2/otp/verify')).toHaveLength(0);
    clock.advance(60);
    const q = await sent();
    fake.expireAll();
    expect(answer(await verify(q.otpToken, q.pin))).toEqual([400, { message: 'OTP_EXPIRED' }]);
  });

  test('the send limits hold: a second send within the minute is REQUEST_LIMIT_1MIN and the provider texts nothing more', async () => {
    const p = await sent();
    expect(answer(await send(p.phone))).toEqual([429, { message: 'REQUEST_LIMIT_1MIN' }]);
    expect(fake.sentTo(p.phone)).toBe(1);
    for (let i = 0; i < 4; i++) {
      clock.advance(61);
      expect((await send(p.phone)).statusCode).toBe(200);
    }
    clock.advance(61);
    expect(answer(await send(p.phone))).toEqual([429, { message: 'REQUEST_LIMIT' }]);
    expect(fake.sentTo(p.phone)).toBe(5);
  });

  test('the provider refusing or down: OTP_SEND_FAIL, nothing left, no slot used; a timed-out request keeps its slot', async () => {
    const phone = uniqueIds().phone;
    fake.failWith('insufficient_credit');
    expect(answer(await send(phone))).toEqual([502, { message: 'OTP_SEND_FAIL' }]);
    fake.mode = 'down';
    expect(answer(await send(phone))).toEqual([502, { message: 'OTP_SEND_FAIL' }]);
    expect(await rowOf(phone)).toBeUndefined();
    fake.mode = 'timeout';
    expect(answer(await send(phone))).toEqual([502, { message: 'OTP_SEND_FAIL' }]);
    expect(await rowOf(phone)).toMatchObject({ provider_token: null });
    fake.mode = 'ok';
    // The timed-out request may have texted a code: it counts, so the player waits the minute like after a send.
    expect(answer(await send(phone))).toEqual([429, { message: 'REQUEST_LIMIT_1MIN' }]);
    clock.advance(61);
    const p = await sent(phone);
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([200, { code: 'OTP_CODE_VALID' }]);
  });

  test('the provider down at the check: OTP_VERIFY_FAIL (502), the try used; once it is back the right pin passes', async () => {
    const p = await sent();
    fake.mode = 'down';
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([502, { message: 'OTP_VERIFY_FAIL' }]);
    fake.failWith('application_not_found');
    fake.mode = 'ok';
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([502, { message: 'OTP_VERIFY_FAIL' }]);
    expect((await rowOf(p.phone))!.attempts).toBe(2);
    expect(answer(await verify(p.otpToken, p.pin))).toEqual([200, { code: 'OTP_CODE_VALID' }]);
  });
});

describe('password reset through ThaiBulkSMS', () => {
  const forgot = (phoneNumber: string) => t.app.inject({ method: 'POST', url: '/api/account/forgot', payload: { phoneNumber, lang: 'en' } });
  const reset = (otpToken: string, newPassword: string) => t.app.inject({ method: 'POST', url: '/api/account/reset', payload: { otpToken, newPassword } });

  async function registered() {
    const p = await sent();
    await verify(p.otpToken, p.pin);
    const body = registration({ username: p.phone });
    expect((await register(t.app, body)).statusCode).toBe(200);
    clock.advance(61);
    return body;
  }

  test('a registered phone: the provider texts the reset code after the answer; the code verifies; the password is reset', async () => {
    const player = await registered();
    const res = await forgot(player.username);
    expect(res.statusCode).toBe(200);
    const { otpToken } = res.json() as { otpToken: string; otpRef: string };
    // The reset SMS goes after the answer: its pin once the provider texted it (and we stored its token).
    for (let waited = 0; waited < 5000 && !(await rowOf(player.username))?.provider_token; waited += 25) await new Promise((r) => setTimeout(r, 25));
    expect(fake.sentTo(player.username)).toBe(2);
    const pin = fake.pinFor(player.username)!;
    expect(answer(await verify(otpToken, wrong(pin)))).toEqual([400, { message: 'OTP_CODE_INVALID' }]);
    expect(answer(await verify(otpToken, pin))).toEqual([200, { code: 'OTP_CODE_VALID' }]);
    expect(answer(await reset(otpToken, 'brand-new-1'))).toEqual([200, { message: 'OK' }]);
    expect((await login(t.app, player.username, player.password)).json()).toEqual({ message: 'WRONG_CREDENTIAL' });
    expect((await login(t.app, player.username, 'brand-new-1')).statusCode).toBe(200);
  });

  test('an unknown phone: the same answer, nothing texted, any code answers as a wrong code; the send limits are the same', async () => {
    const phone = uniqueIds().phone;
    const res = await forgot(phone);
    expect(res.statusCode).toBe(200);
    const { otpToken } = res.json() as { otpToken: string };
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.sentTo(phone)).toBe(0);
    expect(fake.requests).toHaveLength(0);
    expect(answer(await verify(otpToken, '123456'))).toEqual([400, { message: 'OTP_CODE_INVALID' }]);
    expect(answer(await forgot(phone))).toEqual([429, { message: 'REQUEST_LIMIT_1MIN' }]);
  });
});
