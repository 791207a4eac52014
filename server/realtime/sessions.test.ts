import type { Socket } from 'socket.io-client';
import { buildTestApp, type TestApp } from '../test/support/helper';
import { bearer, manualClock, playerWithToken } from '../test/support/accounts';
import { connected, join, listen, newPlayer, socketTo } from '../test/support/chat';
import { createStaff } from '../test/support/staff';
import { runStaffCommand } from '../plugins/staff/operator';

/**
 * Sockets follow their sessions (issue 39 row 8; docs/chat.md "Sockets follow sessions"), with real sockets: what
 * the server itself ends (logout, password change) drops the session's sockets at once; what ends a session
 * elsewhere (the operator CLI in another process, an expiry, a row written by hand) is caught by the periodic check.
 */

const sockets: Socket[] = [];
const openOn = (url: string, auth: Record<string, string>, nsp = '/') => {
  const s = socketTo(url, auth, nsp);
  sockets.push(s);
  return s;
};
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

/** The reason the server gave for dropping the socket; fails after `ms` (generous: a password change hashes twice on a busy machine). */
function dropped(s: Socket, ms = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket still connected')), ms);
    s.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const subOf = (token: string) => Number((JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string }).sub);

describe('at once, where the server ends the session (the periodic check is an hour away)', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', CHAT_PREFIX: 'ss-now', SOCKET_SESSION_CHECK_MS: '60000' });
    url = await listen(t.app);
  });
  afterAll(async () => t?.close());

  test("logout drops that session's sockets, and only those", async () => {
    const p = await newPlayer(t.app);
    const other = await t.app.tokens.issue(p.playerId);
    const ended = openOn(url, { token: p.auth.slice('Bearer '.length) });
    const kept = openOn(url, { token: other });
    await Promise.all([connected(ended), connected(kept)]);
    expect(await join(ended, `ss-now-${p.playerId}`)).toEqual({ ok: true });
    const gone = dropped(ended);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: p.auth } })).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    // No more wallet or chat pushes can reach it; the other device's session goes on.
    expect(kept.connected).toBe(true);
    expect(await join(kept, `ss-now-${p.playerId}`)).toEqual({ ok: true });
    // And it cannot come back with the ended token.
    const again = openOn(url, { token: p.auth.slice('Bearer '.length) });
    await expect(connected(again)).rejects.toThrow('invalid-token');
  });

  test("a password change drops the earlier sessions' sockets and keeps the new token's", async () => {
    const p = await playerWithToken(t.app);
    const id = subOf(p.token);
    const old = openOn(url, { token: p.token });
    await connected(old);
    expect(await join(old, `ss-now-${id}`)).toEqual({ ok: true });
    const gone = dropped(old);
    const res = await t.app.inject({ method: 'PUT', url: '/api/account/changepwd', headers: bearer(p.token), payload: { oldPassword: p.password, newPassword: 'brand-new-1' } });
    expect(res.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    const fresh = openOn(url, { token: (res.json() as { token: string }).token });
    await connected(fresh);
    expect(await join(fresh, `ss-now-${id}`)).toEqual({ ok: true });
  });

  test("a staff logout drops that session's console sockets, and only those", async () => {
    const s = await createStaff(t.app);
    const second = await t.app.staffTokens.issue(s.id);
    const ended = openOn(url, { token: s.token }, '/staff');
    const kept = openOn(url, { token: second }, '/staff');
    await Promise.all([connected(ended), connected(kept)]);
    const gone = dropped(ended);
    expect((await t.app.inject({ method: 'POST', url: '/api/staff/logout', headers: bearer(s.token) })).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    await sleep(100);
    expect(kept.connected).toBe(true);
  });
});

describe('the periodic check, whatever ended the session (SOCKET_SESSION_CHECK_MS=100)', () => {
  let t: TestApp;
  let url: string;
  const cli = (words: string[]) =>
    runStaffCommand(words, { db: t.app.db, out: () => undefined, err: () => undefined, now: () => t.app.clock.now(), secretKey: t.app.config.gameSecretKey });
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', CHAT_PREFIX: 'ss-watch', SOCKET_SESSION_CHECK_MS: '100' });
    url = await listen(t.app);
  });
  afterAll(async () => t?.close());

  test('`staff disable` from the operator CLI (another process: no server call) drops the console socket', async () => {
    const s = await createStaff(t.app);
    const bystander = await createStaff(t.app);
    const console = openOn(url, { token: s.token }, '/staff');
    const other = openOn(url, { token: bystander.token }, '/staff');
    await Promise.all([connected(console), connected(other)]);
    const gone = dropped(console);
    expect(await cli(['disable', s.username])).toBe(0);
    expect(await gone).toBe('io server disconnect');
    expect(other.connected).toBe(true);
  });

  test('`staff totp` (a second factor reset) drops the console socket', async () => {
    const s = await createStaff(t.app);
    const console = openOn(url, { token: s.token }, '/staff');
    await connected(console);
    await sleep(250);
    expect(console.connected).toBe(true);
    const gone = dropped(console);
    expect(await cli(['totp', s.username])).toBe(0);
    expect(await gone).toBe('io server disconnect');
  });

  test('a staff session that expires drops its console socket', async () => {
    const clock = manualClock(t.app, new Date());
    try {
      const s = await createStaff(t.app);
      const console = openOn(url, { token: s.token }, '/staff');
      await connected(console);
      const gone = dropped(console);
      clock.advance(12 * 3600 + 1);
      expect(await gone).toBe('io server disconnect');
    } finally {
      t.app.clock.now = () => new Date();
    }
  });

  test("a player's session ended outside this server (revoked, or the player set inactive) drops the sockets", async () => {
    const revoked = await newPlayer(t.app);
    const inactive = await newPlayer(t.app);
    const a = openOn(url, { token: revoked.auth.slice('Bearer '.length) });
    const b = openOn(url, { token: inactive.auth.slice('Bearer '.length) });
    await Promise.all([connected(a), connected(b)]);
    const [goneA, goneB] = [dropped(a), dropped(b)];
    await t.db.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('player_id', '=', revoked.playerId).execute();
    await t.db.db.updateTable('players').set({ status: 'inactive' }).where('id', '=', inactive.playerId).execute();
    expect(await goneA).toBe('io server disconnect');
    expect(await goneB).toBe('io server disconnect');
  });
});
