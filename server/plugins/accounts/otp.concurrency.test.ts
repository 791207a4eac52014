import { buildTestApp, type TestApp } from '../../test/support/helper';
import { ensureReference, manualClock, uniqueIds } from '../../test/support/accounts';
import { OtpService } from './otp-service';

/**
 * Issue 11: the OTP counters (5 tries per code, 1 send a minute and 5 an hour per phone) hold under 50
 * simultaneous requests, on SQLite and on PostgreSQL alike: each is reserved atomically before the check.
 * The code comparisons that really ran are counted by spying on the service's keyed code hash.
 */
jest.setTimeout(120_000);

const TRIES = 5;
let t: TestApp;
let clock: ReturnType<typeof manualClock>;
let hashes: jest.SpyInstance;

beforeAll(async () => {
  t = await buildTestApp({ REGISTER_OTP: 'on' });
  await ensureReference(t.db.db);
});
beforeEach(() => {
  clock = manualClock(t.app);
  // codeHash is private: spied on through the prototype, it is called once per code comparison (and once per send).
  hashes = jest.spyOn(OtpService.prototype as unknown as { codeHash: (h: string, c: string) => string }, 'codeHash');
});
afterEach(() => hashes.mockRestore());
afterAll(() => t.close());

const send = (phoneNumber: string) => t.app.inject({ method: 'POST', url: '/api/otp/send', payload: { phoneNumber } });
const verify = (otpToken: string, otpCode: string) => t.app.inject({ method: 'POST', url: '/api/otp/verify', payload: { otpToken, otpCode } });
const codes = (answers: { statusCode: number; body: string }[]) =>
  answers.map((a) => {
    const b = JSON.parse(a.body) as { message?: string; code?: string; otpToken?: string };
    return `${a.statusCode} ${b.message ?? b.code ?? (b.otpToken ? 'sent' : '?')}`;
  });
const tally = (list: string[]) => list.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

async function sent(phone = uniqueIds().phone) {
  const res = await send(phone);
  expect(res.statusCode).toBe(200);
  const { otpToken } = res.json() as { otpToken: string };
  const sms = (await t.app.inject({ method: 'GET', url: `/demo/sms?phone=${phone}` })).json() as { messages: { text: string }[] };
  return { phone, otpToken, code: /OTP (\d{6})/.exec(sms.messages[0].text)![1] };
}
const wrongCode = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

describe('OTP verify under parallel guessing', () => {
  test('50 simultaneous wrong codes: 5 are compared (OTP_CODE_INVALID), 45 answer OTP_BLOCK; then the right one is blocked', async () => {
    const p = await sent();
    hashes.mockClear();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => verify(p.otpToken, wrongCode(p.code, i))));
    expect(tally(codes(answers))).toEqual({ '400 OTP_CODE_INVALID': TRIES, '429 OTP_BLOCK': 50 - TRIES });
    expect(hashes).toHaveBeenCalledTimes(TRIES);
    hashes.mockClear();
    expect(codes([await verify(p.otpToken, p.code)])).toEqual(['429 OTP_BLOCK']);
    expect(hashes).not.toHaveBeenCalled();
    const row = await t.db.db.selectFrom('otp_requests').select(['attempts', 'verified_at']).where('phone', '=', p.phone).executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: TRIES, verified_at: null });
  });

  test('49 wrong codes and the right one at once: at most 5 tries are used, and it verifies only if it was one of them', async () => {
    const p = await sent();
    const guesses = Array.from({ length: 49 }, (_, i) => wrongCode(p.code, i));
    guesses.splice(30, 0, p.code);
    const answers = codes(await Promise.all(guesses.map((c) => verify(p.otpToken, c))));
    const counted = tally(answers);
    expect((counted['400 OTP_CODE_INVALID'] ?? 0) + (counted['200 OTP_CODE_VALID'] ?? 0)).toBeLessThanOrEqual(TRIES);
    expect((counted['400 OTP_CODE_INVALID'] ?? 0) + (counted['429 OTP_BLOCK'] ?? 0) + (counted['200 OTP_CODE_VALID'] ?? 0)).toBe(50);
    const row = await t.db.db.selectFrom('otp_requests').select(['attempts', 'verified_at']).where('phone', '=', p.phone).executeTakeFirstOrThrow();
    expect(row.attempts).toBeLessThanOrEqual(TRIES);
    expect(row.verified_at !== null).toBe(answers[30] === '200 OTP_CODE_VALID');
  });
});

describe('OTP send limits under parallel requests', () => {
  test('50 simultaneous sends for one phone: one SMS, 49 REQUEST_LIMIT_1MIN', async () => {
    const phone = uniqueIds().phone;
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(phone)));
    expect(tally(codes(answers))).toEqual({ '200 sent': 1, '429 REQUEST_LIMIT_1MIN': 49 });
    const sms = await t.db.db.selectFrom('sms_outbox').select('id').where('phone', '=', phone).execute();
    expect(sms).toHaveLength(1);
  });

  test('the hourly limit too: after 4 sends, 50 simultaneous sends get one more out; after 5, none', async () => {
    const phone = uniqueIds().phone;
    for (let i = 0; i < 4; i++) {
      expect((await send(phone)).statusCode).toBe(200);
      clock.advance(61);
    }
    const fifth = await Promise.all(Array.from({ length: 50 }, () => send(phone)));
    // The fifth send fills the hour, which is checked before the minute.
    expect(tally(codes(fifth))).toEqual({ '200 sent': 1, '429 REQUEST_LIMIT': 49 });
    clock.advance(61);
    const sixth = await Promise.all(Array.from({ length: 50 }, () => send(phone)));
    expect(tally(codes(sixth))).toEqual({ '429 REQUEST_LIMIT': 50 });
    const rows = await t.db.db.selectFrom('otp_requests').select('id').where('phone', '=', phone).execute();
    expect(rows).toHaveLength(5);
  });
});
