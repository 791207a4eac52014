import { buildTestApp, type TestApp } from '../../test/support/helper';
import { manualClock } from '../../test/support/accounts';
import { totpCode, totpStep } from '../../lib/totp';
import { runStaffCommand } from './operator';
import { createStaff, TEST_STAFF_PASSWORD } from '../../test/support/staff';
import { sealTotpSecret } from './totp';
import { STAFF_2FA_TTL_SECONDS } from './tokens';

/**
 * The staff login's second factor (docs/staff.md "Second factor") and the audit rows of logins and logouts
 * ("Audit log"), through the routes on a real database.
 */
jest.setTimeout(60_000);

const LIMIT = 10;
let t: TestApp;
let clock: ReturnType<typeof manualClock>;
beforeAll(async () => {
  t = await buildTestApp();
});
beforeEach(() => {
  // Mid-step, so the previous and next steps are 30 s either side.
  clock = manualClock(t.app, new Date('2026-11-26T03:00:10.000Z'));
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const answer = (res: { statusCode: number; body: string }) => `${res.statusCode} ${(JSON.parse(res.body) as { message?: string }).message ?? 'ok'}`;
const login = (username: string, password = TEST_STAFF_PASSWORD) => t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username, password } });
const second = (challenge: string, code: string) => t.app.inject({ method: 'POST', url: '/api/staff/login/totp', payload: { challenge, code } });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/staff/me', headers: bearer(token) });
const io = () => ({ db: t.db.db, out: () => undefined, err: () => undefined, now: () => t.app.clock.now(), secretKey: t.app.config.gameSecretKey });
const auditOf = (staffId: number) =>
  t.db.db.selectFrom('staff_audit').select(['action', 'subject_type', 'subject_id', 'staff_id']).where('staff_id', '=', staffId).orderBy('id').execute();

let n = 0;
/** A staff member with a second factor; a new secret each (codes of one test never collide with another's). */
async function enrolled(role: 'support' | 'payments' | 'admin' = 'support') {
  n += 1;
  const secret = `JBSWY3DPEHPK3PXP${'ABCDEFGHIJKLMNOP'.slice(0, n % 16)}`.padEnd(32, 'Q');
  const s = await createStaff(t.app, { username: `totp-${n}`, role });
  await t.db.db.updateTable('staff_users').set({ totp_secret: sealTotpSecret(t.app.config.gameSecretKey, secret) }).where('id', '=', s.id).execute();
  const code = (offsetSteps = 0) => totpCode(secret, new Date(clock.now().getTime() + offsetSteps * 30_000));
  return { ...s, secret, code };
}

async function challengeOf(username: string): Promise<string> {
  const res = await login(username);
  expect(res.statusCode).toBe(200);
  const body = res.json() as { totpRequired: boolean; challenge: string; token?: string };
  expect(body).toEqual({ totpRequired: true, challenge: expect.any(String) });
  return body.challenge;
}

describe('login in two steps', () => {
  test('the password answers a challenge, not a token; the right code then signs in (login.totp audited)', async () => {
    const s = await enrolled('payments');
    const challenge = await challengeOf(s.username);
    const res = await second(challenge, s.code());
    expect(res.statusCode).toBe(200);
    const body = res.json() as { token: string; staff: unknown };
    expect(body.staff).toEqual({ id: s.id, username: s.username, name: 'Test Staff', role: 'payments' });
    expect(answer(await me(body.token))).toBe('200 ok');
    expect(await auditOf(s.id)).toEqual([{ action: 'login.totp', subject_type: 'staff', subject_id: String(s.id), staff_id: s.id }]);
  });

  test("codes of the previous and next step work; two steps off do not", async () => {
    const s = await enrolled();
    expect(answer(await second(await challengeOf(s.username), s.code(-2)))).toBe('401 WRONG_TOTP');
    expect(answer(await second(await challengeOf(s.username), s.code(2)))).toBe('401 WRONG_TOTP');
    expect(answer(await second(await challengeOf(s.username), s.code(-1)))).toBe('200 ok');
    expect(answer(await second(await challengeOf(s.username), s.code(1)))).toBe('200 ok');
  });

  test('a wrong code answers 401 WRONG_TOTP and signs nobody in; so do malformed ones', async () => {
    const s = await enrolled();
    const challenge = await challengeOf(s.username);
    const right = s.code();
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (const code of [wrong, '12345', 'abcdef', `${right}0`]) expect(answer(await second(challenge, code))).toBe('401 WRONG_TOTP');
    expect(answer(await t.app.inject({ method: 'POST', url: '/api/staff/login/totp', payload: { challenge } }))).toBe('400 INVALID_USER_INFO');
    expect(await t.db.db.selectFrom('staff_sessions').select('id').where('staff_id', '=', s.id).where('revoked_at', 'is', null).execute()).toHaveLength(1); // createStaff's own
    // Each wrong code is audited (issue 39 row 12); the malformed body never reached the check.
    expect((await auditOf(s.id)).map((r) => r.action)).toEqual(Array(4).fill('login.totp.failed'));
    expect(answer(await second(challenge, right))).toBe('200 ok');
  });

  test('a code works once: used again (or an earlier one after it) answers WRONG_TOTP, even at the same time', async () => {
    const s = await enrolled();
    const code = s.code();
    expect(answer(await second(await challengeOf(s.username), code))).toBe('200 ok');
    expect(answer(await second(await challengeOf(s.username), code))).toBe('401 WRONG_TOTP');
    expect(answer(await second(await challengeOf(s.username), s.code(-1)))).toBe('401 WRONG_TOTP');
    // The next step's code, sent twice at once: one sign-in.
    const [a, b] = await Promise.all([challengeOf(s.username), challengeOf(s.username)]);
    const next = s.code(1);
    const both = await Promise.all([second(a, next), second(b, next)]);
    expect(both.map(answer).sort()).toEqual(['200 ok', '401 WRONG_TOTP']);
    const row = await t.db.db.selectFrom('staff_users').select('totp_last_step').where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(Number(row.totp_last_step)).toBe(totpStep(clock.now()) + 1);
    expect((await auditOf(s.id)).map((r) => r.action)).toEqual(['login.totp', 'login.totp']);
  });

  test('a challenge expires after 5 minutes (401 invalid-token)', async () => {
    const s = await enrolled();
    const challenge = await challengeOf(s.username);
    clock.advance(STAFF_2FA_TTL_SECONDS + 1);
    expect(answer(await second(challenge, s.code()))).toBe('401 invalid-token');
    expect(answer(await second('not.a.jwt', s.code()))).toBe('401 invalid-token');
    // A staff token is not a challenge either.
    expect(answer(await second(s.token, s.code()))).toBe('401 invalid-token');
  });

  test('a challenge is refused as a token by every staff route (401 invalid-token)', async () => {
    const s = await enrolled('admin');
    const challenge = await challengeOf(s.username);
    expect(answer(await me(challenge))).toBe('401 invalid-token');
    expect(answer(await t.app.inject({ method: 'POST', url: '/api/staff/logout', headers: bearer(challenge) }))).toBe('401 invalid-token');
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/staff/audit', headers: bearer(challenge) }))).toBe('401 invalid-token');
    await expect(t.app.staffTokens.verify(challenge)).rejects.toMatchObject({ statusCode: 401, code: 'invalid-token' });
    // Nor does it open player routes.
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: bearer(challenge) }))).toBe('401 invalid-token');
  });

  test('10 wrong codes, then 429 REQUEST_LIMIT even for the right one until the lock lifts (own counter)', async () => {
    const s = await enrolled();
    const challenge = await challengeOf(s.username);
    const right = s.code();
    const wrongs = Array.from({ length: 30 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(wrongs.map((code) => second(challenge, code)));
    const tally = answers.map(answer).reduce<Record<string, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});
    expect(tally).toEqual({ '401 WRONG_TOTP': LIMIT, '429 REQUEST_LIMIT': 30 - LIMIT });
    expect(answer(await second(challenge, right))).toBe('429 REQUEST_LIMIT');
    // The password counter is another: the password still answers a challenge.
    const fresh = await challengeOf(s.username);
    clock.advance(15 * 60 + 1);
    expect(answer(await second(fresh, s.code()))).toBe('401 invalid-token'); // that challenge expired meanwhile
    expect(answer(await second(await challengeOf(s.username), s.code()))).toBe('200 ok');
  });

  test('an account disabled between the steps: the right code answers 401 INACTIVE_USER', async () => {
    const s = await enrolled();
    const challenge = await challengeOf(s.username);
    expect(await runStaffCommand(['disable', s.username], io())).toBe(0);
    expect(answer(await second(challenge, s.code()))).toBe('401 INACTIVE_USER');
    expect(await auditOf(s.id)).toEqual([]);
  });

  test('an account without a second factor signs in with the password alone (login audited)', async () => {
    const s = await createStaff(t.app, { username: 'plain-staff' });
    const res = await login('plain-staff');
    expect(Object.keys(res.json() as object).sort()).toEqual(['staff', 'token']);
    expect(await auditOf(s.id)).toEqual([{ action: 'login', subject_type: 'staff', subject_id: String(s.id), staff_id: s.id }]);
  });
});

describe('audit log', () => {
  test('logout writes a logout row with the session ended', async () => {
    const s = await createStaff(t.app, { username: 'leaving-staff' });
    const res = await t.app.inject({ method: 'POST', url: '/api/staff/logout', headers: { ...bearer(s.token), 'x-request-id': 'req-logout-1' } });
    expect(answer(res)).toBe('200 ok');
    const rows = await t.db.db.selectFrom('staff_audit').select(['action', 'subject_id', 'request_id']).where('staff_id', '=', s.id).execute();
    expect(rows).toEqual([{ action: 'logout', subject_id: String(s.id), request_id: 'req-logout-1' }]);
  });

  test('GET /api/staff/audit: admins only; newest first, limit and before page through', async () => {
    const admin = await createStaff(t.app, { username: 'audit-admin', name: 'Ada Admin', role: 'admin' });
    for (const role of ['support', 'payments'] as const) {
      const other = await createStaff(t.app, { role });
      expect(answer(await t.app.inject({ method: 'GET', url: '/api/staff/audit', headers: bearer(other.token) }))).toBe('403 UNAUTHORIZED');
    }
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/staff/audit' }))).toBe('401 UNAUTHORIZED');
    // Signed in by password alone: a support account (payments and admin sign in with a code).
    const clerk = await createStaff(t.app, { username: 'audit-clerk', name: 'Cleo Clerk', role: 'support' });
    for (let i = 0; i < 3; i += 1) expect(answer(await login('audit-clerk'))).toBe('200 ok');
    const list = (q: string) => t.app.inject({ method: 'GET', url: `/api/staff/audit${q}`, headers: bearer(admin.token) });
    const all = (await list('')).json() as { entries: { id: number; staff: unknown; action: string; detail: unknown; reason: unknown; subjectType: string; subjectId: string; createdAt: string }[] };
    expect(all.entries.length).toBeGreaterThanOrEqual(3);
    expect(all.entries.map((e) => e.id)).toEqual([...all.entries.map((e) => e.id)].sort((a, b) => b - a));
    expect(all.entries[0]).toEqual({
      id: expect.any(Number), staff: { id: clerk.id, username: 'audit-clerk', name: 'Cleo Clerk' }, action: 'login', subjectType: 'staff',
      subjectId: String(clerk.id), reason: null, detail: null, createdAt: clock.now().toISOString(),
    });
    const page1 = (await list('?limit=2')).json() as typeof all;
    expect(page1.entries.map((e) => e.id)).toEqual(all.entries.slice(0, 2).map((e) => e.id));
    const page2 = (await list(`?limit=2&before=${page1.entries[1].id}`)).json() as typeof all;
    expect(page2.entries.map((e) => e.id)).toEqual(all.entries.slice(2, 4).map((e) => e.id));
    for (const bad of ['?limit=0', '?limit=101', '?limit=x', '?before=-1', '?before=0', '?other=1']) expect(answer(await list(bad))).toBe('400 INVALID_USER_INFO');
  });

  test('the detail a back-office action wrote comes back as an object', async () => {
    const admin = await createStaff(t.app, { role: 'admin' });
    const { recordStaffAction } = await import('./audit');
    await recordStaffAction(t.db.db, { staffId: admin.id, action: 'player.status', subjectType: 'player', subjectId: '7', reason: 'asked', detail: { from: 'active', to: 'inactive' } }, clock.now());
    const res = await t.app.inject({ method: 'GET', url: '/api/staff/audit?limit=1', headers: bearer(admin.token) });
    expect((res.json() as { entries: unknown[] }).entries).toEqual([expect.objectContaining({ action: 'player.status', subjectType: 'player', subjectId: '7', reason: 'asked', detail: { from: 'active', to: 'inactive' } })]);
  });
});
