import { buildTestApp, type TestApp } from '../../test/support/helper';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import smsPlugin from '../../adapters/sms';
import { SmsSimulator } from '../../adapters/sms/simulator';
import { counts, ensureReference, manualClock, register, registration, uniqueIds } from '../../test/support/accounts';
import { smsLanguage } from './otp-service';

jest.setTimeout(60_000);

let t: TestApp;
let clock: ReturnType<typeof manualClock>;
beforeAll(async () => {
  t = await buildTestApp({ REGISTER_OTP: 'on' });
  await ensureReference(t.db.db);
});
beforeEach(() => {
  clock = manualClock(t.app);
});
afterAll(() => t.close());

const send = (phoneNumber: unknown) => t.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber } });
const verify = (otpToken: string, otpCode: string) => t.app.inject({ method: 'POST', url: '/api/otp/verify', payload: { otpToken, otpCode } });

/** The code of the newest SMS to the phone, read the way the e2e test reads it. */
async function smsCode(app: TestApp['app'], phone: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/demo/sms?phone=${phone}` });
  const { messages } = res.json() as { messages: { text: string }[] };
  return /OTP (\d{6})/.exec(messages[0].text)![1];
}

async function sent(phone = uniqueIds().phone) {
  const res = await send(phone);
  expect(res.statusCode).toBe(200);
  const body = res.json() as { otpRef: string; otpToken: string };
  return { phone, ...body, code: await smsCode(t.app, phone) };
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /api/otp/send in the player\'s language (issue 12)', () => {
  const textOf = async (phone: string) =>
    ((await t.app.inject({ method: 'GET', url: `/demo/sms?phone=${phone}` })).json() as { messages: { text: string }[] }).messages[0].text;
  const sendIn = async (payload: object, headers: Record<string, string> = {}) => {
    const phone = uniqueIds().phone;
    const res = await t.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber: phone, ...payload }, headers });
    expect(res.statusCode).toBe(200);
    return textOf(phone);
  };

  test('the lang the SPA sends chooses the text; every text starts with the code and the reference', async () => {
    expect(await sendIn({ lang: 'th' })).toMatch(/^OTP \d{6} \(Ref [A-Z2-9]{6}\) ใช้ได้ 5 นาที ห้ามบอกรหัสนี้กับผู้อื่น$/);
    expect(await sendIn({ lang: 'la' })).toMatch(/^OTP \d{6} \(Ref [A-Z2-9]{6}\) ໃຊ້ໄດ້ 5 ນາທີ ຫ້າມບອກລະຫັດນີ້ໃຫ້ຜູ້ອື່ນ$/);
    expect(await sendIn({ lang: 'en' })).toMatch(/^OTP \d{6} \(Ref [A-Z2-9]{6}\) valid 5 min\. Never share this code\.$/);
    // The body's lang wins over the browser's languages.
    expect(await sendIn({ lang: 'la' }, { 'accept-language': 'en-US,en;q=0.9' })).toContain('ໃຊ້ໄດ້');
  });

  test('without lang: the first of th, la (or lo), en in Accept-Language, else Thai in the Thai market', async () => {
    expect(await sendIn({}, { 'accept-language': 'fr-FR, lo;q=0.8, en;q=0.5' })).toContain('ໃຊ້ໄດ້');
    expect(await sendIn({}, { 'accept-language': 'en-GB,th;q=0.5' })).toContain('Never share');
    expect(await sendIn({}, { 'accept-language': 'fr' })).toContain('ใช้ได้');
    expect(await sendIn({})).toContain('ใช้ได้');
  });

  test('smsLanguage: body lang, then Accept-Language (lo is Lao), then the market (la in the Lao market)', () => {
    expect(smsLanguage('en', 'th', 'lao')).toBe('en');
    expect(smsLanguage(undefined, 'lo-LA,en;q=0.5', 'th')).toBe('la');
    expect(smsLanguage(undefined, 'EN-us', 'lao')).toBe('en');
    expect(smsLanguage(undefined, undefined, 'lao')).toBe('la');
    expect(smsLanguage(undefined, '', 'th')).toBe('th');
    expect(smsLanguage('fr', 'de', 'th')).toBe('th');
  });

  test('a language the SPA does not have is refused (INVALID_USER_INFO) and nothing is sent', async () => {
    const before = await counts(t.db.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber: uniqueIds().phone, lang: 'fr' } });
    expect([res.statusCode, res.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
    expect(await counts(t.db.db)).toEqual(before);
  });
});

describe('POST /api/otp/send', () => {
  test('sends a 6-digit code with a reference by SMS and stores only hashes', async () => {
    const { phone, otpRef, otpToken, code } = await sent();
    expect(otpRef).toMatch(/^[A-Z2-9]{6}$/);
    expect(otpToken.length).toBeGreaterThanOrEqual(32);
    const sms = (await t.app.inject({ method: 'GET', url: `/demo/sms?phone=${phone}` })).json() as { messages: { phone: string; text: string; createdAt: string }[] };
    expect(sms.messages).toEqual([{ phone, text: expect.stringContaining(`Ref ${otpRef}`), createdAt: clock.now().toISOString() }]);
    const row = await t.db.db.selectFrom('otp_requests').selectAll().where('phone', '=', phone).executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(new Date(clock.now().getTime() + 5 * 60_000).toISOString());
    expect(JSON.stringify(row)).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(otpToken);
  });

  test('a malformed phone is PHONE_NUMBER_REQUIRE_10_DIGIT, a missing or mistyped one INVALID_USER_INFO; nothing is sent', async () => {
    const before = await counts(t.db.db);
    expect((await send('12345')).json()).toEqual({ message: 'PHONE_NUMBER_REQUIRE_10_DIGIT' });
    expect((await send(812345678)).json()).toEqual({ message: 'INVALID_USER_INFO' });
    const missing = await t.app.inject({ method: 'POST', url: '/api/otp/send', payload: {} });
    expect([missing.statusCode, missing.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
    expect(await counts(t.db.db)).toEqual(before);
  });

  test('a registered phone is EXISTING_USER', async () => {
    const p = await sent();
    await verify(p.otpToken, p.code);
    expect((await register(t.app, registration({ username: p.phone }))).statusCode).toBe(200);
    const res = await send(p.phone);
    expect([res.statusCode, res.json()]).toEqual([409, { message: 'EXISTING_USER' }]);
  });

  test('one send per minute (REQUEST_LIMIT_1MIN), five per hour (REQUEST_LIMIT)', async () => {
    const phone = uniqueIds().phone;
    expect((await send(phone)).statusCode).toBe(200);
    clock.advance(59);
    const again = await send(phone);
    expect([again.statusCode, again.json()]).toEqual([429, { message: 'REQUEST_LIMIT_1MIN' }]);
    for (let i = 2; i <= 5; i++) {
      clock.advance(61);
      expect((await send(phone)).statusCode).toBe(200);
    }
    clock.advance(61);
    const sixth = await send(phone);
    expect([sixth.statusCode, sixth.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
    // An hour after the first send, one slot is free again.
    clock.advance(3600 - 5 * 61 - 59 + 1);
    expect((await send(phone)).statusCode).toBe(200);
    // Limits are per phone.
    expect((await send(uniqueIds().phone)).statusCode).toBe(200);
  });

  test('concurrent sends for one phone: exactly one goes out', async () => {
    const phone = uniqueIds().phone;
    const results = await Promise.all(Array.from({ length: 5 }, () => send(phone)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 429, 429, 429, 429]);
    const sms = await t.db.db.selectFrom('sms_outbox').select('id').where('phone', '=', phone).execute();
    expect(sms).toHaveLength(1);
  });

  test('a phone verified in the last 30 minutes answers code OTP_VERIFIED and sends nothing', async () => {
    const p = await sent();
    expect((await verify(p.otpToken, p.code)).statusCode).toBe(200);
    clock.advance(29 * 60);
    const before = await counts(t.db.db);
    const res = await send(p.phone);
    expect([res.statusCode, res.json()]).toEqual([200, { code: 'OTP_VERIFIED' }]);
    expect(await counts(t.db.db)).toEqual(before);
    clock.advance(61);
    expect((await send(p.phone)).json()).toHaveProperty('otpToken');
  });

  test('an SMS failure is OTP_SEND_FAIL (502) and leaves nothing behind, not even a used send slot', async () => {
    const sms = t.app.sms as SmsSimulator;
    const phone = uniqueIds().phone;
    const before = await counts(t.db.db);
    sms.failureRate = 1;
    try {
      const res = await send(phone);
      expect([res.statusCode, res.json()]).toEqual([502, { message: 'OTP_SEND_FAIL' }]);
    } finally {
      sms.failureRate = 0;
    }
    expect(await counts(t.db.db)).toEqual(before);
    expect((await send(phone)).statusCode).toBe(200);
  });

  test('SMS_SIM_FAILURE_RATE sets the simulator failure rate', async () => {
    process.env.SMS_SIM_FAILURE_RATE = '1';
    const failing = await buildTestApp().finally(() => delete process.env.SMS_SIM_FAILURE_RATE);
    try {
      const res = await failing.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber: '0812345678' } });
      expect([res.statusCode, res.json()]).toEqual([502, { message: 'OTP_SEND_FAIL' }]);
      expect(await counts(failing.db.db)).toMatchObject({ otp_requests: 0, sms_outbox: 0 });
    } finally {
      await failing.close();
    }
  });
});

describe('POST /api/otp/verify', () => {
  test('the right code answers OTP_CODE_VALID and marks the phone verified; a double submit is still valid', async () => {
    const p = await sent();
    const res = await verify(p.otpToken, p.code);
    expect([res.statusCode, res.json()]).toEqual([200, { code: 'OTP_CODE_VALID' }]);
    expect((await verify(p.otpToken, p.code)).json()).toEqual({ code: 'OTP_CODE_VALID' });
    const row = await t.db.db.selectFrom('otp_requests').select('verified_at').where('phone', '=', p.phone).executeTakeFirstOrThrow();
    expect(row.verified_at).toBe(clock.now().toISOString());
  });

  test('a wrong code is OTP_CODE_INVALID; 4 wrong then right still passes', async () => {
    const p = await sent();
    for (let i = 0; i < 4; i++) {
      const r = await verify(p.otpToken, wrongCode(p.code));
      expect([r.statusCode, r.json()]).toEqual([400, { message: 'OTP_CODE_INVALID' }]);
    }
    expect((await verify(p.otpToken, p.code)).json()).toEqual({ code: 'OTP_CODE_VALID' });
  });

  test('tried 6 times: after 5 wrong codes the 6th is OTP_BLOCK (429) even with the right code', async () => {
    const p = await sent();
    for (let i = 0; i < 5; i++) expect((await verify(p.otpToken, wrongCode(p.code))).json()).toEqual({ message: 'OTP_CODE_INVALID' });
    const sixth = await verify(p.otpToken, p.code);
    expect([sixth.statusCode, sixth.json()]).toEqual([429, { message: 'OTP_BLOCK' }]);
    const row = await t.db.db.selectFrom('otp_requests').select('verified_at').where('phone', '=', p.phone).executeTakeFirstOrThrow();
    expect(row.verified_at).toBeNull();
  });

  test('concurrent guesses cannot exceed the five tries', async () => {
    const p = await sent();
    const results = await Promise.all(Array.from({ length: 12 }, () => verify(p.otpToken, wrongCode(p.code))));
    const codes = results.map((r) => (r.json() as { message: string }).message);
    expect(codes.filter((c) => c === 'OTP_CODE_INVALID')).toHaveLength(5);
    expect(codes.filter((c) => c === 'OTP_BLOCK')).toHaveLength(7);
  });

  test('a code is valid for 5 minutes, then OTP_EXPIRED', async () => {
    const a = await sent();
    clock.advance(5 * 60 - 1);
    expect((await verify(a.otpToken, a.code)).json()).toEqual({ code: 'OTP_CODE_VALID' });
    const b = await sent();
    clock.advance(5 * 60);
    const res = await verify(b.otpToken, b.code);
    expect([res.statusCode, res.json()]).toEqual([400, { message: 'OTP_EXPIRED' }]);
  });

  test('a newer code replaces the older one (the older is OTP_EXPIRED)', async () => {
    const first = await sent();
    clock.advance(61);
    const second = await sent(first.phone);
    expect((await verify(first.otpToken, first.code)).json()).toEqual({ message: 'OTP_EXPIRED' });
    expect((await verify(second.otpToken, second.code)).json()).toEqual({ code: 'OTP_CODE_VALID' });
  });

  test('an unknown token is OTP_TOKEN_INVALID; missing fields INVALID_USER_INFO', async () => {
    const res = await verify('no-such-token', '123456');
    expect([res.statusCode, res.json()]).toEqual([400, { message: 'OTP_TOKEN_INVALID' }]);
    const missing = await t.app.inject({ method: 'POST', url: '/api/otp/verify', payload: { otpToken: 'x' } });
    expect([missing.statusCode, missing.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
  });
});

describe('registration with OTP on', () => {
  test('an unverified phone is UNVERIFIED_OTP for validate and register, and nothing is written', async () => {
    const body = registration();
    const before = await counts(t.db.db);
    for (const url of ['/api/account/validate', '/api/account']) {
      const res = await t.app.inject({ method: 'POST', url, payload: body });
      expect([res.statusCode, res.json()]).toEqual([400, { message: 'UNVERIFIED_OTP' }]);
    }
    expect(await counts(t.db.db)).toEqual(before);
  });

  test('a phone verified within 30 minutes registers; after 30 minutes it must verify again', async () => {
    const p = await sent();
    await verify(p.otpToken, p.code);
    clock.advance(30 * 60 - 1);
    expect((await register(t.app, registration({ username: p.phone }))).statusCode).toBe(200);

    const q = await sent();
    await verify(q.otpToken, q.code);
    clock.advance(30 * 60);
    expect((await register(t.app, registration({ username: q.phone }))).json()).toEqual({ message: 'UNVERIFIED_OTP' });
  });

  test('a code sent for one phone does not verify another', async () => {
    const p = await sent();
    await verify(p.otpToken, p.code);
    expect((await register(t.app, registration())).json()).toEqual({ message: 'UNVERIFIED_OTP' });
  });
});

describe('GET /demo/sms', () => {
  test('exists only in demo mode', async () => {
    // The SMS plugin alone on a bare app, so other plugins' production requirements do not matter here.
    const bare = Fastify();
    bare.decorate('config', { ...t.app.config, demo: false });
    bare.decorate('clock', { now: () => new Date() });
    await bare.register(fp(async (i) => { i.decorate('db', t.db.db); }, { name: 'db' }));
    await bare.register(smsPlugin);
    try {
      expect((await bare.inject({ method: 'GET', url: '/demo/sms?phone=0812345678' })).statusCode).toBe(404);
      expect(bare.sms).toBeInstanceOf(SmsSimulator);
    } finally {
      await bare.close();
    }
  });

  test('needs a phone', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/demo/sms' })).statusCode).toBe(400);
  });
});
