import { SignJWT } from 'jose';
import * as password from '../../lib/password';
import { buildApp } from '../../app';
import { freshDb, testConfig, buildTestApp, type TestApp, type TestDb } from '../../test/support/helper';
import { insertPlayer } from '../../test/support/ledger';
import { manualClock } from '../../test/support/accounts';
import { runStaffCommand } from './operator';
import { totpCode } from '../../lib/totp';
import { DEMO_PAYMENTS_STAFF, DEMO_STAFF, seedDemoStaff } from '../../demo/staff';
import { staffTokenKey, STAFF_TOKEN_TTL_SECONDS } from './tokens';
import { createStaff, TEST_STAFF_PASSWORD } from '../../test/support/staff';

/**
 * Staff accounts through the API (docs/staff.md): login with the players' guess limits, sessions that logout and
 * disable end, tokens that are not players' tokens (either way round), expiry, and role guards for issue 14.
 */
jest.setTimeout(60_000);

const LIMIT = 10;
let t: TestApp;
let clock: ReturnType<typeof manualClock>;
beforeAll(async () => {
  t = await buildTestApp();
});
beforeEach(() => {
  clock = manualClock(t.app);
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const login = (username: string, pass: string) => t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username, password: pass } });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/staff/me', headers: bearer(token) });
const logout = (token: string) => t.app.inject({ method: 'POST', url: '/api/staff/logout', headers: bearer(token) });
const answer = (res: { statusCode: number; body: string }) => `${res.statusCode} ${(JSON.parse(res.body) as { message?: string }).message ?? 'ok'}`;
const tally = (list: string[]) => list.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});
const io = () => ({ db: t.db.db, out: () => undefined, err: () => undefined, now: () => t.app.clock.now() });

describe('login', () => {
  test('the right password gets a staff token and the staff member; GET /api/staff/me answers who it is', async () => {
    const s = await createStaff(t.app, { username: 'anna', name: 'Anna Staff', role: 'support' });
    const res = await login('anna', TEST_STAFF_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { token: string; staff: unknown };
    expect(body.staff).toEqual({ id: s.id, username: 'anna', name: 'Anna Staff', role: 'support' });
    const who = await me(body.token);
    expect(who.statusCode).toBe(200);
    expect(who.json()).toEqual({ id: s.id, username: 'anna', name: 'Anna Staff', role: 'support' });
    // Usernames are compared without case or surrounding space.
    expect(answer(await login('  ANNA ', TEST_STAFF_PASSWORD))).toBe('200 ok');
  });

  test('payments and admin accounts without a second factor are refused (403 TOTP_REQUIRED), only with the right password', async () => {
    for (const role of ['payments', 'admin'] as const) {
      const s = await createStaff(t.app, { role });
      expect(answer(await login(s.username, 'wrong-password'))).toBe('401 WRONG_CREDENTIAL');
      expect(answer(await login(s.username, TEST_STAFF_PASSWORD))).toBe('403 TOTP_REQUIRED');
      const sessions = await t.db.db.selectFrom('staff_sessions').select('id').where('staff_id', '=', s.id).execute();
      expect(sessions).toHaveLength(1); // only the one createStaff issued
    }
  });

  test('a wrong password and an unknown username get the same 401 WRONG_CREDENTIAL', async () => {
    await createStaff(t.app, { username: 'bruno' });
    expect(answer(await login('bruno', 'wrong-password'))).toBe('401 WRONG_CREDENTIAL');
    expect(answer(await login('nobody-here', TEST_STAFF_PASSWORD))).toBe('401 WRONG_CREDENTIAL');
    expect(answer(await t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username: 'bruno' } }))).toBe('400 INVALID_USER_INFO');
  });

  test('30 simultaneous wrong passwords: 10 are checked, 20 answer REQUEST_LIMIT, then the right one is locked out until the lock lifts', async () => {
    await createStaff(t.app, { username: 'carla' });
    const checks = jest.spyOn(password, 'verifyPassword');
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login('carla', `wrong-${i}`)));
      expect(tally(answers.map(answer))).toEqual({ '401 WRONG_CREDENTIAL': LIMIT, '429 REQUEST_LIMIT': 30 - LIMIT });
      expect(checks).toHaveBeenCalledTimes(LIMIT);
      checks.mockClear();
      expect(answer(await login('carla', TEST_STAFF_PASSWORD))).toBe('429 REQUEST_LIMIT');
      expect(checks).not.toHaveBeenCalled();
    } finally {
      checks.mockRestore();
    }
    // The staff counter is its own: a player's login counter for the same text is untouched.
    expect(answer(await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'carla', password: 'x' } }))).toBe('401 WRONG_CREDENTIAL');
    clock.advance(15 * 60 + 1);
    expect(answer(await login('carla', TEST_STAFF_PASSWORD))).toBe('200 ok');
  });

  test('a disabled staff member is refused: the right password answers 401 INACTIVE_USER, their tokens 401 invalid-token', async () => {
    const s = await createStaff(t.app, { username: 'dora' });
    expect(answer(await me(s.token))).toBe('200 ok');
    expect(await runStaffCommand(['disable', 'dora'], io())).toBe(0);
    expect(answer(await me(s.token))).toBe('401 invalid-token');
    expect(answer(await login('dora', TEST_STAFF_PASSWORD))).toBe('401 INACTIVE_USER');
    expect(answer(await login('dora', 'wrong-password'))).toBe('401 WRONG_CREDENTIAL');
    // Enabled again: a fresh login works; the old token stays ended.
    expect(await runStaffCommand(['enable', 'dora'], io())).toBe(0);
    expect(answer(await login('dora', TEST_STAFF_PASSWORD))).toBe('200 ok');
    expect(answer(await me(s.token))).toBe('401 invalid-token');
  });
});

describe('sessions', () => {
  test('logout ends the token it was called with; other sessions stay', async () => {
    const s = await createStaff(t.app, { username: 'emil' });
    const other = await t.app.staffTokens.issue(s.id);
    const res = await logout(s.token);
    expect([res.statusCode, res.json()]).toEqual([200, { ok: true }]);
    expect(answer(await me(s.token))).toBe('401 invalid-token');
    expect(answer(await logout(s.token))).toBe('401 invalid-token');
    expect(answer(await me(other))).toBe('200 ok');
  });

  test('a token expires after 12 hours (EXPIRED_AUTH_TOKEN)', async () => {
    const s = await createStaff(t.app, { username: 'fritz' });
    clock.advance(STAFF_TOKEN_TTL_SECONDS - 60);
    expect(answer(await me(s.token))).toBe('200 ok');
    clock.advance(61);
    expect(answer(await me(s.token))).toBe('401 EXPIRED_AUTH_TOKEN');
  });

  test('no token, a malformed one or a forged one: 401', async () => {
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/staff/me' }))).toBe('401 UNAUTHORIZED');
    expect(answer(await me('not.a.jwt'))).toBe('401 invalid-token');
    const s = await createStaff(t.app, { username: 'greta' });
    // Right claims, wrong key: signed with JWT_SECRET itself (the players' key) instead of the staff key.
    const [, payload] = s.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; jti: string; exp: number; aud: string };
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub).setJti(claims.jti).setAudience('staff')
      .setExpirationTime(claims.exp).sign(new TextEncoder().encode(t.app.config.jwtSecret));
    expect(answer(await me(forged))).toBe('401 invalid-token');
    // Right key, no staff audience.
    const noAudience = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub).setJti(claims.jti)
      .setExpirationTime(claims.exp).sign(staffTokenKey(t.app.config.jwtSecret));
    expect(answer(await me(noAudience))).toBe('401 invalid-token');
    await expect(t.app.staffTokens.verify(undefined)).rejects.toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    await expect(t.app.staffTokens.verify(s.token)).resolves.toMatchObject({ staffId: s.id, username: 'greta', name: 'Test Staff', role: 'support' });
  });
});

describe('players and staff are kept apart', () => {
  test("a player's token is refused by staff routes (401 invalid-token), a staff token by player routes", async () => {
    const playerId = await insertPlayer(t.db.db);
    const playerToken = await t.app.tokens.issue(playerId);
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: bearer(playerToken) }))).toBe('200 ok');
    expect(answer(await me(playerToken))).toBe('401 invalid-token');
    expect(answer(await logout(playerToken))).toBe('401 invalid-token');
    await expect(t.app.staffTokens.verify(playerToken)).rejects.toMatchObject({ statusCode: 401, code: 'invalid-token' });

    const s = await createStaff(t.app, { username: 'hugo' });
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: bearer(s.token) }))).toBe('401 invalid-token');
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/account/profile', headers: bearer(s.token) }))).toBe('401 invalid-token');
    expect(answer(await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(s.token) }))).toBe('401 invalid-token');
    expect(answer(await me(s.token))).toBe('200 ok');
  });

  test('the route catalogue marks staff routes as protected and staff-only', () => {
    const staffRoutes = t.app.routeCatalogue.filter((r) => r.url.startsWith('/api/staff/'));
    expect(staffRoutes).toEqual(
      expect.arrayContaining([
        { method: 'POST', url: '/api/staff/login', protected: false, staff: false, play: false, unlimited: false },
        { method: 'POST', url: '/api/staff/logout', protected: true, staff: true, play: false, unlimited: false },
        { method: 'GET', url: '/api/staff/me', protected: true, staff: true, play: false, unlimited: false },
        { method: 'POST', url: '/api/staff/login/totp', protected: false, staff: false, play: false, unlimited: false },
        { method: 'GET', url: '/api/staff/audit', protected: true, staff: true, play: false, unlimited: false },
      ]),
    );
    expect(t.app.routeCatalogue.find((r) => r.url === '/api/wallet' && r.method === 'GET')).toMatchObject({ protected: true, staff: false });
  });
});

describe('role guards (app.staffRole)', () => {
  let db: TestDb;
  afterEach(async () => db?.dispose());

  test('a route for admins answers 403 UNAUTHORIZED to other roles and 401 to no token, whatever order the hooks are listed in', async () => {
    db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
    // The guard listed first on purpose: the plugin puts it after the staff check.
    app.get('/api/staff/sweep-admin-only', { onRequest: [app.staffRole('admin'), app.authenticateStaff] }, async (req) => ({ role: req.staffRole }));
    await app.ready();
    try {
      const call = (token?: string) => app.inject({ method: 'GET', url: '/api/staff/sweep-admin-only', headers: token ? bearer(token) : {} });
      const admin = await createStaff(app, { role: 'admin' });
      const support = await createStaff(app, { role: 'support' });
      expect((await call(admin.token)).json()).toEqual({ role: 'admin' });
      expect(answer(await call(support.token))).toBe('403 UNAUTHORIZED');
      expect(answer(await call())).toBe('401 UNAUTHORIZED');
    } finally {
      await app.close();
    }
  });

  test('a role guard without the staff check is refused when the route is registered', async () => {
    db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
    try {
      expect(() => app.get('/api/staff/sweep-unguarded', { onRequest: app.staffRole('admin') }, async () => ({}))).toThrow(/needs app.authenticateStaff/);
    } finally {
      await app.close();
    }
  });
});

describe('demo staff account', () => {
  test('created once, only while there is no staff account at all', async () => {
    const db = await freshDb();
    try {
      expect(await seedDemoStaff(db.db)).toBe(true);
      expect(await seedDemoStaff(db.db)).toBe(false);
      const rows = await db.db.selectFrom('staff_users').select(['username', 'name', 'role', 'status', 'password_hash']).execute();
      expect(rows).toEqual([{ username: 'support', name: 'Demo support', role: 'support', status: 'active', password_hash: expect.any(String) }]);
      expect(await password.verifyPassword(DEMO_STAFF.password, rows[0].password_hash)).toBe(true);
    } finally {
      await db.dispose();
    }
    // An install whose operator added staff gets no demo account.
    expect(await seedDemoStaff(t.db.db)).toBe(false);
  });

  test('with the key, the demo payments account too (on an empty staff table, once), whose fixed TOTP secret signs in at the second step', async () => {
    // Its own database: the demo accounts are made only where there is no staff account (server/demo/demo.test.ts).
    const own = await buildTestApp();
    try {
      const key = own.app.config.gameSecretKey;
      expect(await seedDemoStaff(own.db.db, own.app.clock.now(), key)).toBe(true);
      expect(await seedDemoStaff(own.db.db, own.app.clock.now(), key)).toBe(false);
      const row = await own.db.db.selectFrom('staff_users').select(['name', 'role', 'totp_secret']).where('username', '=', 'payments').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: 'Demo payments', role: 'payments' });
      // Sealed at rest, not the base32 secret itself.
      expect(row.totp_secret).toMatch(/^v1:/);
      expect(row.totp_secret).not.toContain(DEMO_PAYMENTS_STAFF.totpSecret);
      const first = await own.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username: 'payments', password: DEMO_PAYMENTS_STAFF.password } });
      const { challenge } = first.json() as { challenge: string };
      const res = await own.app.inject({ method: 'POST', url: '/api/staff/login/totp', payload: { challenge, code: totpCode(DEMO_PAYMENTS_STAFF.totpSecret, own.app.clock.now()) } });
      expect(answer(res)).toBe('200 ok');
      expect((res.json() as { staff: unknown }).staff).toMatchObject({ username: 'payments', role: 'payments' });
    } finally {
      await own.close();
    }
  });
});
