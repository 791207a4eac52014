import { buildTestApp, type TestApp } from '../../test/support/helper';
import { manualClock } from '../../test/support/accounts';
import { totpCode } from '../../lib/totp';
import { runStaffCommand } from './operator';
import { createStaff, TEST_STAFF_PASSWORD } from '../../test/support/staff';
import { sealTotpSecret } from './totp';

/**
 * Issue 39 row 12 (docs/staff.md "Second factor"): the cumulative bound on failed codes (STAFF_TOTP_MAX_FAILURES in
 * STAFF_TOTP_FAILURE_WINDOW_SECONDS, defaults 30 in 24 h) that locks the account until `staff totp`, challenges that
 * sign in once, and audit rows for failed passwords and codes; through the routes on a real database.
 */
jest.setTimeout(60_000);

let t: TestApp;
let clock: ReturnType<typeof manualClock>;
beforeAll(async () => {
  t = await buildTestApp(); // the defaults: 30 failed codes in 24 h
});
beforeEach(() => {
  clock = manualClock(t.app, new Date('2026-11-26T03:00:10.000Z'));
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const answer = (res: { statusCode: number; body: string }) => `${res.statusCode} ${(JSON.parse(res.body) as { message?: string }).message ?? 'ok'}`;
const login = (username: string, password = TEST_STAFF_PASSWORD) => t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username, password } });
const second = (challenge: string, code: string) => t.app.inject({ method: 'POST', url: '/api/staff/login/totp', payload: { challenge, code } });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/staff/me', headers: bearer(token) });
const lines: string[] = [];
const io = () => ({ db: t.db.db, out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l), now: () => t.app.clock.now(), secretKey: t.app.config.gameSecretKey });
const actionsOf = async (staffId: number) =>
  (await t.db.db.selectFrom('staff_audit').select('action').where('staff_id', '=', staffId).orderBy('id').execute()).map((r) => r.action);
const tally = (actions: string[]) => actions.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a]: (acc[a] ?? 0) + 1 }), {});

let n = 0;
async function enrolled(role: 'support' | 'payments' | 'admin' = 'payments') {
  n += 1;
  const secret = `GEZDGNBVGY3TQOJQ${'ABCDEFGHIJKLMNOP'.slice(0, n % 16)}`.padEnd(32, 'A');
  const s = await createStaff(t.app, { username: `second-${n}`, role });
  await t.db.db.updateTable('staff_users').set({ totp_secret: sealTotpSecret(t.app.config.gameSecretKey, secret) }).where('id', '=', s.id).execute();
  const code = (offsetSteps = 0) => totpCode(secret, new Date(clock.now().getTime() + offsetSteps * 30_000));
  const wrong = (i = 0) => String((Number(code()) + 1 + i) % 1_000_000).padStart(6, '0');
  return { ...s, code, wrong };
}

async function challengeOf(username: string): Promise<string> {
  const res = await login(username);
  expect(answer(res)).toBe('200 ok');
  return (res.json() as { challenge: string }).challenge;
}

/** `count` wrong codes in batches of 10 (the 15-minute guess limit), a fresh challenge and 15 minutes apart. */
async function failCodes(s: Awaited<ReturnType<typeof enrolled>>, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let done = 0; done < count; ) {
    const challenge = await challengeOf(s.username);
    for (let i = 0; i < 10 && done < count; i += 1, done += 1) out.push(answer(await second(challenge, s.wrong(i))));
    if (done < count) clock.advance(15 * 60 + 1);
  }
  return out;
}

describe('the cumulative bound on failed codes', () => {
  test('the 30th failed code in 24 h locks the account: sessions end, no sign-in even with the right code, audited', async () => {
    const s = await enrolled();
    const answers = await failCodes(s, 30);
    expect(answers.slice(0, 29).every((a) => a === '401 WRONG_TOTP')).toBe(true);
    expect(answers[29]).toBe('401 INACTIVE_USER');
    // createStaff's session ended with the lock.
    expect(answer(await me(s.token))).toBe('401 invalid-token');
    // The right password and then the right code: refused, and no challenge is handed out.
    clock.advance(15 * 60 + 1);
    expect(answer(await login(s.username))).toBe('401 INACTIVE_USER');
    const audit = await actionsOf(s.id);
    expect(tally(audit)).toEqual({ 'login.totp.failed': 30, 'login.totp.locked': 1 });
    expect(audit[audit.length - 1]).toBe('login.totp.locked');
    const lockRow = await t.db.db.selectFrom('staff_audit').select(['detail']).where('staff_id', '=', s.id).where('action', '=', 'login.totp.locked').executeTakeFirstOrThrow();
    expect(JSON.parse(lockRow.detail as string)).toEqual({ failures: 30, windowSeconds: 86_400 });
    // A day later the lock still holds: only the operator lifts it.
    clock.advance(86_400 * 2);
    expect(answer(await login(s.username))).toBe('401 INACTIVE_USER');
    expect(await runStaffCommand(['enable', s.username], io())).toBe(0);
    expect(answer(await login(s.username))).toBe('401 INACTIVE_USER');
    lines.length = 0;
    expect(await runStaffCommand(['list'], io())).toBe(0);
    expect(lines.find((l) => l.startsWith(`${s.username} `))).toContain('second factor locked since');
  });

  test('a challenge handed out before the lock opens nothing after it, the right code included', async () => {
    const s = await enrolled();
    await failCodes(s, 29);
    const early = await challengeOf(s.username);
    const last = await challengeOf(s.username);
    expect(answer(await second(last, s.wrong()))).toBe('401 INACTIVE_USER');
    expect(answer(await second(early, s.code()))).toBe('401 INACTIVE_USER');
    expect(tally(await actionsOf(s.id))).toEqual({ 'login.totp.failed': 30, 'login.totp.locked': 1 });
  });

  test('staff totp lifts the lock: a new secret signs in, and the failures before it no longer count', async () => {
    const s = await enrolled();
    await failCodes(s, 30);
    lines.length = 0;
    // At once: the reset also clears the 15-minute guess counter the last failures filled.
    expect(await runStaffCommand(['totp', s.username], io())).toBe(0);
    const secret = /TOTP secret \(base32\): (\S+)/.exec(lines.join('\n'))?.[1] as string;
    const res = await second(await challengeOf(s.username), totpCode(secret, clock.now()));
    expect(answer(res)).toBe('200 ok');
    expect(answer(await me((res.json() as { token: string }).token))).toBe('200 ok');
    // A failure after the reset is the first of a new count, not the 31st.
    clock.advance(60);
    const wrong = String((Number(totpCode(secret, clock.now())) + 1) % 1_000_000).padStart(6, '0');
    expect(answer(await second(await challengeOf(s.username), wrong))).toBe('401 WRONG_TOTP');
    expect(answer(await second(await challengeOf(s.username), totpCode(secret, clock.now())))).toBe('200 ok');
  });

  test('failures older than the window do not count', async () => {
    const s = await enrolled();
    await failCodes(s, 29);
    clock.advance(86_400 + 1);
    expect(await failCodes(s, 29)).toEqual(Array(29).fill('401 WRONG_TOTP'));
  });

  test('a right code before the bound signs in and does not clear the count (the bound is on failures)', async () => {
    const s = await enrolled();
    await failCodes(s, 20);
    clock.advance(15 * 60 + 1);
    expect(answer(await second(await challengeOf(s.username), s.code()))).toBe('200 ok');
    clock.advance(15 * 60 + 1);
    const answers = await failCodes(s, 10);
    expect(answers[9]).toBe('401 INACTIVE_USER');
  });
});

describe('single-use challenges', () => {
  test('a challenge that signed in is refused afterwards, even with a later valid code', async () => {
    const s = await enrolled('admin');
    const challenge = await challengeOf(s.username);
    expect(answer(await second(challenge, s.code()))).toBe('200 ok');
    expect(answer(await second(challenge, s.code(1)))).toBe('401 invalid-token');
    clock.advance(30);
    expect(answer(await second(challenge, s.code()))).toBe('401 invalid-token');
    expect(tally(await actionsOf(s.id))).toEqual({ 'login.totp': 1 });
  });

  test('one challenge sent with two valid codes at once signs in once', async () => {
    const s = await enrolled();
    const challenge = await challengeOf(s.username);
    const both = await Promise.all([second(challenge, s.code()), second(challenge, s.code(1))]);
    expect(both.map(answer).sort()).toEqual(['200 ok', '401 invalid-token']);
    const sessions = await t.db.db.selectFrom('staff_sessions').select('id').where('staff_id', '=', s.id).execute();
    expect(sessions).toHaveLength(2); // createStaff's and the one sign-in
  });

  test('a wrong code does not spend the challenge (a typo can be corrected)', async () => {
    const s = await enrolled();
    const challenge = await challengeOf(s.username);
    expect(answer(await second(challenge, s.wrong()))).toBe('401 WRONG_TOTP');
    expect(answer(await second(challenge, s.code()))).toBe('200 ok');
  });
});

describe('failed logins are audited', () => {
  test('a wrong password for an account writes login.failed; an unknown username writes nothing', async () => {
    const s = await createStaff(t.app, { username: 'pw-audited' });
    const before = await t.db.db.selectFrom('staff_audit').select('id').execute();
    expect(answer(await login('pw-audited', 'not-the-password'))).toBe('401 WRONG_CREDENTIAL');
    expect(answer(await login('nobody-here', 'not-the-password'))).toBe('401 WRONG_CREDENTIAL');
    const rows = await t.db.db.selectFrom('staff_audit').select(['staff_id', 'action', 'subject_type', 'subject_id', 'detail']).where('id', 'not in', before.length ? before.map((r) => r.id) : [0]).execute();
    expect(rows).toEqual([{ staff_id: s.id, action: 'login.failed', subject_type: 'staff', subject_id: String(s.id), detail: '{"factor":"password"}' }]);
  });

  test('a wrong code writes login.totp.failed with the request id', async () => {
    const s = await enrolled();
    const challenge = await challengeOf(s.username);
    const res = await t.app.inject({ method: 'POST', url: '/api/staff/login/totp', headers: { 'x-request-id': 'req-bad-code-1' }, payload: { challenge, code: s.wrong() } });
    expect(answer(res)).toBe('401 WRONG_TOTP');
    const rows = await t.db.db.selectFrom('staff_audit').select(['action', 'subject_id', 'request_id']).where('staff_id', '=', s.id).execute();
    expect(rows).toEqual([{ action: 'login.totp.failed', subject_id: String(s.id), request_id: 'req-bad-code-1' }]);
  });
});
