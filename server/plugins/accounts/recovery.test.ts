import type { SmsSimulator } from '../../adapters/sms/simulator';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { bearer, ensureReference, login, manualClock, playerWithToken, uniqueIds } from '../../test/support/accounts';

/**
 * Issue 40 item 4: a forgotten password is reset with an SMS code. The answer never tells whether a phone is
 * registered (same answer, same limits, the SMS after the answer, none to an unknown phone); the reset ends every
 * session, writes an audit row, and the OTP limits apply.
 */
jest.setTimeout(120_000);

let t: TestApp;
let clock: ReturnType<typeof manualClock>;
beforeAll(async () => {
  t = await buildTestApp();
  await ensureReference(t.db.db);
});
beforeEach(() => {
  clock = manualClock(t.app, new Date());
});
afterAll(() => t.close());

const sms = () => t.app.sms as SmsSimulator;
const forgot = (phoneNumber: unknown, lang?: string) => t.app.inject({ method: 'POST', url: '/api/account/forgot', payload: { phoneNumber, ...(lang ? { lang } : {}) } });
const verify = (otpToken: string, otpCode: string) => t.app.inject({ method: 'POST', url: '/api/otp/verify', payload: { otpToken, otpCode } });
const reset = (otpToken: string, newPassword: string) => t.app.inject({ method: 'POST', url: '/api/account/reset', payload: { otpToken, newPassword } });
const messages = async (phone: string) =>
  ((await t.app.inject({ method: 'GET', url: `/demo/sms?phone=${phone}` })).json() as { messages: { text: string }[] }).messages;
/** The reset SMS goes out after the answer: the phone's messages once `count` arrived (or after 5 s). */
async function arrived(phone: string, count = 1) {
  for (let waited = 0; waited < 5000; waited += 25) {
    const list = await messages(phone);
    if (list.length >= count) return list;
    await new Promise((r) => setTimeout(r, 25));
  }
  return messages(phone);
}
const codeOf = async (phone: string) => /OTP (\d{6})/.exec((await arrived(phone))[0].text)![1];
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const otpRows = (phone: string) => t.db.db.selectFrom('otp_requests').select(['purpose', 'verified_at', 'used_at']).where('phone', '=', phone).orderBy('id').execute();
const idOf = async (phone: string) => Number((await t.db.db.selectFrom('players').select('id').where('phone', '=', phone).executeTakeFirstOrThrow()).id);

/** A registered player who asked for a reset code and read it. */
async function askedForReset() {
  const p = await playerWithToken(t.app);
  const res = await forgot(p.username, 'en');
  expect(res.statusCode).toBe(200);
  const { otpToken, otpRef } = res.json() as { otpToken: string; otpRef: string };
  return { ...p, otpToken, otpRef, code: await codeOf(p.username) };
}

describe('POST /api/account/forgot', () => {
  test('a registered phone gets an SMS with the code; an unknown phone the same answer and no SMS', async () => {
    const p = await playerWithToken(t.app);
    const unknown = uniqueIds().phone;
    const known = await forgot(p.username, 'en');
    const stranger = await forgot(unknown, 'en');
    for (const res of [known, stranger]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ otpRef: expect.stringMatching(/^[A-Z2-9]{6}$/), otpToken: expect.any(String) });
      expect(Object.keys(res.json() as object).sort()).toEqual(['otpRef', 'otpToken']);
      expect(res.headers['content-length']).toBe(stranger.headers['content-length']);
    }
    const [text] = (await arrived(p.username)).map((m) => m.text);
    expect(text).toMatch(new RegExp(`^OTP \\d{6} \\(Ref ${(known.json() as { otpRef: string }).otpRef}\\) to reset your password, valid 5 min\\. Never share this code\\.$`));
    expect(await messages(unknown)).toEqual([]);
    // Both are stored alike, so both count toward the phone's send limits.
    expect(await otpRows(p.username)).toEqual([{ purpose: 'reset', verified_at: null, used_at: null }]);
    expect(await otpRows(unknown)).toEqual([{ purpose: 'reset', verified_at: null, used_at: null }]);
  });

  test('the SMS is in the player language', async () => {
    const p = await playerWithToken(t.app);
    await forgot(p.username, 'th');
    expect((await arrived(p.username))[0].text).toMatch(/^OTP \d{6} \(Ref [A-Z2-9]{6}\) สำหรับตั้งรหัสผ่านใหม่ ใช้ได้ 5 นาที/);
    clock.advance(61);
    await forgot(p.username, 'la');
    expect((await arrived(p.username, 2))[0].text).toMatch(/^OTP \d{6} \(Ref [A-Z2-9]{6}\) ສຳລັບຕັ້ງລະຫັດຜ່ານໃໝ່ ໃຊ້ໄດ້ 5 ນາທີ/);
  });

  test('the send limits are the same for a registered and an unknown phone: 1 a minute, 5 an hour', async () => {
    const p = await playerWithToken(t.app);
    for (const phone of [p.username, uniqueIds().phone]) {
      const answers: string[] = [];
      for (let i = 0; i < 6; i++) {
        const first = await forgot(phone);
        const again = await forgot(phone);
        answers.push(`${first.statusCode}`, `${again.statusCode} ${(again.json() as { message?: string }).message}`);
        clock.advance(61);
      }
      expect(answers).toEqual([
        ...Array.from({ length: 4 }, () => ['200', '429 REQUEST_LIMIT_1MIN']).flat(),
        // The fifth fills the hour, which is checked before the minute.
        '200', '429 REQUEST_LIMIT',
        '429', '429 REQUEST_LIMIT',
      ]);
    }
  });

  test('a malformed phone is PHONE_NUMBER_REQUIRE_10_DIGIT, a missing one INVALID_USER_INFO, whoever asks', async () => {
    expect((await forgot('12345')).json()).toEqual({ message: 'PHONE_NUMBER_REQUIRE_10_DIGIT' });
    expect((await forgot(812345678)).json()).toEqual({ message: 'INVALID_USER_INFO' });
    expect((await t.app.inject({ method: 'POST', url: '/api/account/forgot', payload: {} })).json()).toEqual({ message: 'INVALID_USER_INFO' });
  });

  test('the answer does not wait for the SMS, so a slow gateway does not tell a registered phone by its timing', async () => {
    const p = await playerWithToken(t.app);
    const gateway = t.app.sms as { send: SmsSimulator['send'] };
    const real = gateway.send;
    const sent: string[] = [];
    gateway.send = (phone) => new Promise((resolve) => setTimeout(() => resolve(void sent.push(phone)), 1500));
    try {
      const started = Date.now();
      const res = await forgot(p.username);
      expect(res.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(sent).toEqual([]);
      for (let waited = 0; waited < 5000 && sent.length === 0; waited += 25) await new Promise((r) => setTimeout(r, 25));
      expect(sent).toEqual([p.username]);
    } finally {
      gateway.send = real;
    }
  });

  test('a failed SMS still answers 200, and its row goes away so no send slot is used', async () => {
    const p = await playerWithToken(t.app);
    sms().failureRate = 1;
    try {
      expect((await forgot(p.username)).statusCode).toBe(200);
      // The row is removed once the failed send comes back.
      for (let waited = 0; waited < 5000 && (await otpRows(p.username)).length > 0; waited += 25) await new Promise((r) => setTimeout(r, 25));
      expect(await otpRows(p.username)).toEqual([]);
    } finally {
      sms().failureRate = 0;
    }
    expect((await forgot(p.username)).statusCode).toBe(200);
  });
});

describe('POST /api/account/reset', () => {
  test('a verified code sets the new password, ends every session, and writes the audit row', async () => {
    const p = await askedForReset();
    const otherDevice = ((await login(t.app, p.username, p.password)).json() as { token: string }).token;
    expect((await verify(p.otpToken, p.code)).json()).toEqual({ code: 'OTP_CODE_VALID' });
    // The sessions' sockets end too (docs/chat.md "Sockets follow sessions").
    const realtime = t.app.realtime as { endPlayerSessions: (playerId: number, keepToken?: string) => void };
    const real = realtime.endPlayerSessions;
    const ended: unknown[][] = [];
    realtime.endPlayerSessions = (...args) => void ended.push(args);
    const res = await reset(p.otpToken, 'brand-new-1').finally(() => (realtime.endPlayerSessions = real));
    expect([res.statusCode, res.json()]).toEqual([200, { message: 'OK' }]);
    expect(ended).toEqual([[await idOf(p.username)]]);
    for (const token of [p.token, otherDevice]) {
      const r = await t.app.inject({ method: 'GET', url: '/api/account/profile', headers: bearer(token) });
      expect([r.statusCode, r.json()]).toEqual([401, { message: 'invalid-token' }]);
    }
    expect((await login(t.app, p.username, p.password)).json()).toEqual({ message: 'WRONG_CREDENTIAL' });
    expect((await login(t.app, p.username, 'brand-new-1')).statusCode).toBe(200);
    const audit = await t.db.db.selectFrom('account_audit').selectAll().where('player_id', '=', await idOf(p.username)).execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'PASSWORD_RESET', request_id: expect.any(String), created_at: clock.now().toISOString() })]);
    expect(JSON.parse(audit[0].detail)).toEqual({ otpRef: p.otpRef });
    // Once: the same token again is expired.
    expect((await reset(p.otpToken, 'another-22')).json()).toEqual({ message: 'OTP_EXPIRED' });
    expect((await login(t.app, p.username, 'brand-new-1')).statusCode).toBe(200);
  });

  test('two submits of one code at once: one sets the password, the other is OTP_EXPIRED', async () => {
    const p = await askedForReset();
    await verify(p.otpToken, p.code);
    const answers = await Promise.all([reset(p.otpToken, 'first-one-1'), reset(p.otpToken, 'second-one-2')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const won = answers[0].statusCode === 200 ? 'first-one-1' : 'second-one-2';
    expect((await login(t.app, p.username, won)).statusCode).toBe(200);
    expect(await t.db.db.selectFrom('account_audit').select('id').where('player_id', '=', await idOf(p.username)).execute()).toHaveLength(1);
  });

  test('refusals: unverified, short password, a registration code, a stale verification; nothing changes', async () => {
    const p = await askedForReset();
    expect((await reset(p.otpToken, 'brand-new-1')).json()).toEqual({ message: 'UNVERIFIED_OTP' });
    await verify(p.otpToken, p.code);
    expect((await reset(p.otpToken, '12345')).json()).toEqual({ message: 'PASSWORD_TOO_SHORT' });
    expect((await reset('no-such-token', 'brand-new-1')).json()).toEqual({ message: 'OTP_TOKEN_INVALID' });
    const missing = await t.app.inject({ method: 'POST', url: '/api/account/reset', payload: { otpToken: p.otpToken } });
    expect([missing.statusCode, missing.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
    // A registration's code is not a reset code.
    const phone = uniqueIds().phone;
    const reg = (await t.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber: phone } })).json() as { otpToken: string };
    await verify(reg.otpToken, await codeOf(phone));
    expect((await reset(reg.otpToken, 'brand-new-1')).json()).toEqual({ message: 'OTP_TOKEN_INVALID' });
    // A verification older than OTP_VERIFIED_VALID_SECONDS (30 min) no longer sets a password.
    clock.advance(30 * 60);
    expect((await reset(p.otpToken, 'brand-new-1')).json()).toEqual({ message: 'OTP_EXPIRED' });
    expect((await login(t.app, p.username, p.password)).statusCode).toBe(200);
    expect(await otpRows(p.username)).toEqual([{ purpose: 'reset', verified_at: expect.any(String), used_at: null }]);
  });

  test('the code has 5 tries, for a registered and an unknown phone alike', async () => {
    const p = await askedForReset();
    const stranger = (await forgot(uniqueIds().phone)).json() as { otpToken: string };
    for (const token of [p.otpToken, stranger.otpToken]) {
      const answers: string[] = [];
      for (let i = 0; i < 6; i++) answers.push((await verify(token, wrong(p.code))).json().message as string);
      expect(answers).toEqual(['OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'OTP_BLOCK']);
    }
    expect((await verify(p.otpToken, p.code)).json()).toEqual({ message: 'OTP_BLOCK' });
    expect((await reset(p.otpToken, 'brand-new-1')).json()).toEqual({ message: 'UNVERIFIED_OTP' });
  });

  test('a verified reset code does not count as a verified phone for registration', async () => {
    const phone = uniqueIds().phone;
    await forgot(phone);
    await t.db.db.updateTable('otp_requests').set({ verified_at: clock.now().toISOString() }).where('phone', '=', phone).execute();
    clock.advance(61);
    const res = await t.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber: phone } });
    expect(res.json()).toHaveProperty('otpToken');
  });

  test('a login lock in force stays after a reset (a reset is not a way around it)', async () => {
    const p = await askedForReset();
    for (let i = 0; i < 10; i++) await login(t.app, p.username, `wrong-${i}`);
    await verify(p.otpToken, p.code);
    expect((await reset(p.otpToken, 'brand-new-1')).statusCode).toBe(200);
    expect((await login(t.app, p.username, 'brand-new-1')).json()).toEqual({ message: 'REQUEST_LIMIT' });
    clock.advance(15 * 60 + 1);
    expect((await login(t.app, p.username, 'brand-new-1')).statusCode).toBe(200);
  });
});
