import { SignJWT, decodeJwt } from 'jose';
import pg from 'pg';
import { buildApp } from '../../app';
import { createDb } from '../../db';
import { buildTestApp, testConfig, type TestApp } from '../../test/support/helper';
import { steppedDuring } from '../../test/support/sqlite-statements';
import { insertPlayer } from '../../ledger';
import { bearer, counts, ensureReference, login, manualClock, playerWithToken, register, registration, uniqueIds } from '../../test/support/accounts';

// Every login and registration hashes with scrypt (~130 ms, more on a busy 2-core machine).
jest.setTimeout(60_000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await ensureReference(t.db.db);
});
afterAll(() => t.close());

const profile = (token: string) => t.app.inject({ method: 'GET', url: '/api/account/profile', headers: bearer(token) });

describe('POST /api/login', () => {
  test('the right phone and password give a token that opens the profile', async () => {
    const body = registration();
    await register(t.app, body);
    const res = await login(t.app, body.username, body.password);
    expect(res.statusCode).toBe(200);
    const { token } = res.json() as { token: string };
    expect(token.split('.')).toHaveLength(3);
    expect((await profile(token)).statusCode).toBe(200);
  });

  test('a wrong password and an unknown phone both answer WRONG_CREDENTIAL (no enumeration)', async () => {
    const body = registration();
    await register(t.app, body);
    const wrong = await login(t.app, body.username, 'not-it');
    const unknown = await login(t.app, '0899999999', body.password);
    expect([wrong.statusCode, wrong.json()]).toEqual([401, { message: 'WRONG_CREDENTIAL' }]);
    expect([unknown.statusCode, unknown.json()]).toEqual([401, { message: 'WRONG_CREDENTIAL' }]);
  });

  test('missing or mistyped fields are INVALID_USER_INFO and issue nothing', async () => {
    const before = await counts(t.db.db);
    for (const payload of [{ username: '0812345678' }, { password: 'x' }, { username: 812345678, password: 'secret1' }, { username: '', password: '' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', payload });
      expect([res.statusCode, res.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
    }
    expect(await counts(t.db.db)).toEqual(before);
  });

  test('an inactive player with the right password gets INACTIVE_USER; a gone one gets 410 gone', async () => {
    const a = registration();
    const g = registration();
    await register(t.app, a);
    await register(t.app, g);
    await t.db.db.updateTable('players').set({ status: 'inactive' }).where('phone', '=', a.username).execute();
    await t.db.db.updateTable('players').set({ status: 'gone' }).where('phone', '=', g.username).execute();
    const ra = await login(t.app, a.username, a.password);
    const rg = await login(t.app, g.username, g.password);
    expect([ra.statusCode, ra.json()]).toEqual([401, { message: 'INACTIVE_USER' }]);
    expect([rg.statusCode, rg.json()]).toEqual([410, { message: 'gone' }]);
    // With a wrong password they learn nothing about the account's state.
    expect((await login(t.app, g.username, 'wrong-one')).json()).toEqual({ message: 'WRONG_CREDENTIAL' });
  });

  test('11 wrong passwords lock the phone for 15 minutes, the right one included; then it lifts', async () => {
    const clock = manualClock(t.app);
    const body = registration();
    await register(t.app, body);
    for (let i = 1; i <= 10; i++) {
      const r = await login(t.app, body.username, `wrong-${i}`);
      expect([i, r.statusCode, r.json()]).toEqual([i, 401, { message: 'WRONG_CREDENTIAL' }]);
      clock.advance(30);
    }
    const eleventh = await login(t.app, body.username, 'wrong-11');
    expect([eleventh.statusCode, eleventh.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
    const right = await login(t.app, body.username, body.password);
    expect([right.statusCode, right.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);

    // 15 minutes after the 10th failure (which was 30 s before the clock's current time)
    clock.advance(15 * 60 - 30 - 1);
    expect((await login(t.app, body.username, body.password)).statusCode).toBe(429);
    clock.advance(1);
    const after = await login(t.app, body.username, body.password);
    expect(after.statusCode).toBe(200);
    expect((await profile((after.json() as { token: string }).token)).statusCode).toBe(200);
  });

  test('failures spread over more than 15 minutes do not lock; a success resets the count', async () => {
    const clock = manualClock(t.app);
    const body = registration();
    await register(t.app, body);
    for (let i = 0; i < 9; i++) await login(t.app, body.username, 'wrong');
    clock.advance(15 * 60 + 1);
    // The nine are out of the window: nine more still do not reach ten.
    for (let i = 0; i < 9; i++) expect((await login(t.app, body.username, 'wrong')).statusCode).toBe(401);
    expect((await login(t.app, body.username, body.password)).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(t.app, body.username, 'wrong')).statusCode).toBe(401);
    expect((await login(t.app, body.username, body.password)).statusCode).toBe(200);
  });

  test('the lock keys on the phone: an unknown phone locks too, other phones are untouched', async () => {
    manualClock(t.app);
    const other = registration();
    await register(t.app, other);
    for (let i = 0; i < 10; i++) await login(t.app, '0811111111', 'guess');
    expect((await login(t.app, '0811111111', 'guess')).json()).toEqual({ message: 'REQUEST_LIMIT' });
    expect((await login(t.app, other.username, other.password)).statusCode).toBe(200);
  });

  test('the lock lives in the database: a second app instance (another process) sees it', async () => {
    const clock = manualClock(t.app);
    const body = registration();
    await register(t.app, body);
    for (let i = 0; i < 10; i++) await login(t.app, body.username, 'wrong');
    // SQLite: a second connection to the same file, as another process would open. PostgreSQL: the same schema.
    const second = t.db.dialect === 'sqlite' ? createDb({ databaseUrl: null, dataDir: t.db.dataDir }) : null;
    const app2 = await buildApp(testConfig(t.db.dataDir), { database: second ?? t.db, logger: false });
    app2.clock.now = clock.now;
    try {
      expect((await login(app2, body.username, body.password)).json()).toEqual({ message: 'REQUEST_LIMIT' });
    } finally {
      await app2.close();
      await second?.destroy();
    }
  });
});

describe('POST /api/logout', () => {
  test('revokes the token used: it is refused afterwards with invalid-token; other devices stay logged in', async () => {
    const p = await playerWithToken(t.app);
    const other = (await login(t.app, p.username, p.password)).json() as { token: string };
    const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(p.token) });
    expect([res.statusCode, res.json()]).toEqual([200, { message: 'OK' }]);
    const after = await profile(p.token);
    expect([after.statusCode, after.json()]).toEqual([401, { message: 'invalid-token' }]);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(p.token) })).statusCode).toBe(401);
    expect((await profile(other.token)).statusCode).toBe(200);
  });

  test('needs a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/logout' });
    expect([res.statusCode, res.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
  });
});

describe('token expiry', () => {
  test('a token lives 7 days; past that it is refused with EXPIRED_AUTH_TOKEN, by its signature or by its session row', async () => {
    const p = await playerWithToken(t.app);
    const claims = decodeJwt(p.token);
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 3600);

    // A correctly signed token whose exp has passed.
    const key = new TextEncoder().encode(t.app.config.jwtSecret);
    const now = Math.floor(Date.now() / 1000);
    const stale = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub!).setJti(claims.jti!)
      .setIssuedAt(now - 8 * 24 * 3600).setExpirationTime(now - 24 * 3600).sign(key);
    const bySignature = await profile(stale);
    expect([bySignature.statusCode, bySignature.json()]).toEqual([401, { message: 'EXPIRED_AUTH_TOKEN' }]);

    // The session row is the source of truth: once it has expired, the token is refused too.
    expect((await profile(p.token)).statusCode).toBe(200);
    await t.db.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', claims.jti!).execute();
    const byRow = await profile(p.token);
    expect([byRow.statusCode, byRow.json()]).toEqual([401, { message: 'EXPIRED_AUTH_TOKEN' }]);
  });
});

describe('session checks asked together', () => {
  test('each request is answered for its own session: open, revoked, expired, inactive, gone, no session (one statement for all)', async () => {
    const players = [];
    for (const status of ['active', 'active', 'revoked', 'expired', 'inactive', 'gone']) {
      const ids = uniqueIds(); // the phones of this file's registrations: no clash with theirs
      const id = await insertPlayer(t.db.db, {
        phone: ids.phone, name: `Player ${status}`, password_hash: 'x', bank_code: 'KBANK', bank_account_name: 'PLAYER', bank_account_no: ids.bankAccountNo,
        currency: 'THB', source_code: null, inviter_id: null, now: new Date().toISOString(),
      });
      if (status === 'inactive' || status === 'gone') await t.db.db.updateTable('players').set({ status }).where('id', '=', id).execute();
      const token = await t.app.tokens.issue(id);
      const jti = decodeJwt(token).jti!;
      if (status === 'revoked') await t.app.tokens.revoke(jti);
      if (status === 'expired') await t.db.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', jti).execute();
      players.push({ id, token, jti });
    }
    const key = new TextEncoder().encode(t.app.config.jwtSecret);
    const now = Math.floor(Date.now() / 1000);
    const forged = async (sub: number, jti: string) => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(sub)).setJti(jti).setIssuedAt(now).setExpirationTime(now + 3600).sign(key);
    // Another player's session under player 0's id, and a session that was never issued.
    const tokens = [...players.map((p) => p.token), await forged(players[0].id, players[1].jti), await forged(players[0].id, 'no-such-session'), players[1].token];

    const sent: string[] = [];
    const submit = pg.Query.prototype.submit;
    pg.Query.prototype.submit = function (this: { text?: string }, ...a: unknown[]) {
      if (this.text?.includes('"revoked_at"')) sent.push(this.text); // the session checks (the limits read the session's start too)
      return (submit as (...x: unknown[]) => unknown).apply(this, a);
    } as typeof submit;
    let answers;
    try {
      const { result, stepped } = await steppedDuring(() => Promise.all(tokens.map((tk) => t.app.inject({ method: 'GET', url: '/api/limits', headers: bearer(tk) }))));
      answers = result;
      sent.push(...stepped.filter((x) => x.source.includes('"revoked_at"')).map((x) => x.source)); // and on SQLite
    } finally {
      pg.Query.prototype.submit = submit;
    }
    expect(answers.map((r) => (r.statusCode === 200 ? 200 : `${r.statusCode} ${r.json().message}`))).toEqual([
      200,
      200,
      '401 invalid-token',
      '401 EXPIRED_AUTH_TOKEN',
      '401 INACTIVE_USER',
      '410 gone',
      '401 invalid-token',
      '401 invalid-token',
      200,
    ]);
    expect(sent.length).toBe(1);
  });
});
