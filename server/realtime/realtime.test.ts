import type { Socket } from 'socket.io-client';
import { loadConfig, ConfigError } from '../config';
import { buildTestApp, type TestApp } from '../test/support/helper';
import { guestIds } from './guest-id';
import { connected, join, listen, newGuest, newPlayer, next, refused, sendText, socketTo } from '../test/support/chat';

/**
 * Socket.io on the API's port, with real sockets: who may connect and join which room, what reaches a room, and
 * that plain HTTP under /socket.io is still the API's (404 JSON, security headers, rate limit).
 */

let t: TestApp;
let url: string;
const sockets: Socket[] = [];
const open = (auth: Record<string, string>) => {
  const s = socketTo(url, auth);
  sockets.push(s);
  return s;
};
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', CHAT_PREFIX: 'rt-test' });
  url = await listen(t.app);
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => t?.close());

test('a player joins their own room only; a guest joins their own room only', async () => {
  const a = await newPlayer(t.app);
  const b = await newPlayer(t.app);
  const g = await newGuest(t.app);
  const player = open({ token: a.auth.slice('Bearer '.length) });
  const guest = open({ guestId: g.guestId });
  await Promise.all([connected(player), connected(guest)]);
  expect(await join(player, `rt-test-${a.playerId}`)).toEqual({ ok: true });
  expect(await join(player, `rt-test-${b.playerId}`)).toEqual({ ok: false, message: 'UNAUTHORIZED' });
  expect(await join(player, `rt-test-${g.guestId}`)).toEqual({ ok: false, message: 'UNAUTHORIZED' });
  expect(await join(guest, `rt-test-${g.guestId}`)).toEqual({ ok: true });
  expect(await join(guest, `rt-test-${a.playerId}`)).toEqual({ ok: false, message: 'UNAUTHORIZED' });
  expect(await join(guest, `wallet-chat-${g.guestId}`)).toEqual({ ok: false, message: 'UNAUTHORIZED' });
  // Only the rooms it was allowed into reach it.
  const got = next<{ n: number }>(player, 'ping-test');
  t.app.realtime.toPlayer(b.playerId, 'ping-test', { n: 1 });
  t.app.realtime.toPlayer(a.playerId, 'ping-test', { n: 2 });
  expect(await got).toEqual({ n: 2 });
  const gotGuest = next(guest, 'ping-test');
  t.app.realtime.toGuest(g.guestId, 'ping-test', { n: 3 });
  expect(await gotGuest).toEqual({ n: 3 });
});

test('a socket without a valid token or issued guest id does not connect', async () => {
  const other = guestIds('another-secret-another-secret-another-secret').issue();
  expect(await refused(open({}))).toBe('UNAUTHORIZED');
  expect(await refused(open({ guestId: other }))).toBe('UNAUTHORIZED');
  expect(await refused(open({ guestId: 'g_AAAAAAAAAAAAAAAAAAAAAA_AAAAAAAAAAAAAAAAAAAAAA' }))).toBe('UNAUTHORIZED');
  expect(await refused(open({ token: 'not.a.token' }))).toBe('invalid-token');
  // A staff token is no player's token.
  const { createStaff } = await import('../test/support/staff');
  expect(await refused(open({ token: (await createStaff(t.app)).token }))).toBe('invalid-token');
});

test('a token revoked after the connect joins nothing', async () => {
  const p = await newPlayer(t.app);
  const s = open({ token: p.auth.slice('Bearer '.length) });
  await connected(s);
  // Revoked behind the server's back (no disconnect yet: the session check has not run): the join reads it again.
  await t.db.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('player_id', '=', p.playerId).execute();
  expect(await join(s, `rt-test-${p.playerId}`)).toEqual({ ok: false, message: 'invalid-token' });
});

test("a customer's message and the bot's answer reach every socket in the room after they are stored", async () => {
  const g = await newGuest(t.app);
  const tab1 = open({ guestId: g.guestId });
  const tab2 = open({ guestId: g.guestId });
  await Promise.all([connected(tab1), connected(tab2)]);
  await Promise.all([join(tab1, `rt-test-${g.guestId}`), join(tab2, `rt-test-${g.guestId}`)]);
  type Event = { type: string; message: { _id: string; sender: string; message: string } };
  const mine = next<Event>(tab2, 'messaging', (e) => e.message.sender === 'customer');
  const bot = next<Event>(tab2, 'messaging', (e) => e.message.sender === 'other');
  const res = await sendText(t.app, g, 'hello from tab 1', { locale: 'en' });
  const [m, b] = await Promise.all([mine, bot]);
  expect(m).toMatchObject({ type: 'message', message: { _id: res.json()._id, message: 'hello from tab 1' } });
  expect(Number(b.message._id)).toBeGreaterThan(Number(m.message._id));
  // What the socket announced is in the history.
  const h = (await t.app.inject({ method: 'POST', url: '/api/chat/history', payload: { guestId: g.guestId } })).json() as { messages: { _id: string }[] };
  expect(h.messages.map((x) => x._id)).toEqual([m.message._id, b.message._id]);
});

test('plain HTTP under /socket.io is the API: 404 JSON with the security headers, never engine.io', async () => {
  for (const path of ['/socket.io', '/socket.io/', '/socket.io/?EIO=4&transport=polling', '/socket.io/anything']) {
    const res = await fetch(`${url}${path}`, { headers: { accept: 'text/html' } });
    expect([path, res.status, res.headers.get('content-type'), await res.json()]).toEqual([path, 404, 'application/json; charset=utf-8', { message: 'NO_DATA' }]);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' ws: wss:");
  }
});

test('with the rate limit and headers on, sockets connect; closing the app ends open sockets instead of waiting on them', async () => {
  const other = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '300' });
  try {
    const base = await listen(other.app);
    const g = await newGuest(other.app);
    const s = socketTo(base, { guestId: g.guestId });
    sockets.push(s);
    await connected(s);
    expect(await join(s, `wallet-chat-${g.guestId}`)).toEqual({ ok: true });
    const gone = new Promise<string>((resolve) => s.once('disconnect', (reason) => resolve(reason)));
    const started = Date.now();
    await other.app.close();
    expect(['io server disconnect', 'transport close']).toContain(await gone);
    expect(Date.now() - started).toBeLessThan(5000);
  } finally {
    await other.close();
  }
});

test('CHAT_PREFIX: the default and the allowed characters', () => {
  const env = { DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32), PAYMENT_WEBHOOK_SECRET: 'w'.repeat(32) };
  expect(loadConfig(env, { persistSecrets: false }).chatPrefix).toBe('wallet-chat');
  expect(loadConfig({ ...env, CHAT_PREFIX: 'site_2.chat-x' }, { persistSecrets: false }).chatPrefix).toBe('site_2.chat-x');
  for (const bad of ['-x', 'a b', 'a/b', 'x'.repeat(41)]) expect(() => loadConfig({ ...env, CHAT_PREFIX: bad }, { persistSecrets: false })).toThrow(ConfigError);
});

test('guest ids: only this secret verifies them, only the canonical spelling', () => {
  const ids = guestIds('s'.repeat(40));
  const id = ids.issue();
  expect(ids.verify(id)).toBe(true);
  expect(guestIds('t'.repeat(40)).verify(id)).toBe(false);
  expect([ids.verify(undefined), ids.verify(42), ids.verify(`${id}x`), ids.verify(id.replace(/^g_/, 'h_'))]).toEqual([false, false, false, false]);
});
