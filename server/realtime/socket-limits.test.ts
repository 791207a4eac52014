import { io as connect, type Socket } from 'socket.io-client';
import { buildTestApp, type TestApp } from '../test/support/helper';
import { connected, join, listen, newPlayer, socketTo } from '../test/support/chat';

/**
 * The socket limits (issue 39 row 9; docs/chat.md "Abuse limits"), with real sockets: open sockets per client
 * address (as TRUST_PROXY reads it) are capped at the upgrade, a socket's frames have a budget, and a `join` of a
 * room the socket is already in is answered without reading the database.
 */

let t: TestApp;
let url: string;
const sockets: Socket[] = [];
/** A socket whose upgrade says it was forwarded for `address` (the test client is on loopback, a trusted proxy). */
const from = (address: string, auth: Record<string, string>) => {
  const s = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth, extraHeaders: { 'x-forwarded-for': address } });
  sockets.push(s);
  return s;
};
const settled = (s: Socket) => connected(s).then(() => 'connected', (e: Error) => `refused: ${e.message}`);
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', CHAT_PREFIX: 'lim', SOCKET_MAX_PER_ADDRESS: '3', SOCKET_EVENTS_PER_MINUTE: '5' });
  url = await listen(t.app);
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => t?.close());

test('one address holds at most SOCKET_MAX_PER_ADDRESS sockets; others are not affected; a closed one frees its place', async () => {
  const g = (await t.app.inject({ method: 'POST', url: '/api/chat/guest' })).json() as { guestId: string };
  const auth = { guestId: g.guestId };
  const first = [from('203.0.113.7', auth), from('203.0.113.7', auth), from('203.0.113.7', auth)];
  expect(await Promise.all(first.map(settled))).toEqual(['connected', 'connected', 'connected']);
  // Refused at the upgrade (HTTP 429, no socket.io handshake).
  expect(await settled(from('203.0.113.7', auth))).toMatch(/^refused/);
  expect(await settled(from('203.0.113.8', auth))).toBe('connected');
  first[0].disconnect();
  // The server sees the close a moment later.
  for (let i = 0; i < 50; i++) {
    const s = from('203.0.113.7', auth);
    if ((await settled(s)) === 'connected') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the closed socket never freed its place');
});

test('the cap holds for a flood at once: 20 upgrades from one address, 3 accepted', async () => {
  const g = (await t.app.inject({ method: 'POST', url: '/api/chat/guest' })).json() as { guestId: string };
  const results = await Promise.all(Array.from({ length: 20 }, () => settled(from('198.51.100.20', { guestId: g.guestId }))));
  expect(results.filter((r) => r === 'connected')).toHaveLength(3);
});

test('a socket past SOCKET_EVENTS_PER_MINUTE frames is answered REQUEST_LIMIT and dropped', async () => {
  const p = await newPlayer(t.app);
  const s = socketTo(url, { token: p.auth.slice('Bearer '.length) });
  sockets.push(s);
  await connected(s);
  for (let i = 0; i < 5; i++) expect(await join(s, `lim-${p.playerId}`)).toEqual({ ok: true });
  const gone = new Promise<string>((resolve) => s.once('disconnect', resolve));
  expect(await join(s, `lim-${p.playerId}`)).toEqual({ ok: false, message: 'REQUEST_LIMIT' });
  expect(await gone).toBe('io server disconnect');
});

test('a join of a room the socket is already in reads nothing; a first join checks the token', async () => {
  const p = await newPlayer(t.app);
  const s = socketTo(url, { token: p.auth.slice('Bearer '.length) });
  sockets.push(s);
  await connected(s);
  const checks = jest.spyOn(t.app, 'authenticate');
  try {
    expect(await join(s, `lim-${p.playerId}`)).toEqual({ ok: true });
    expect(checks).toHaveBeenCalledTimes(1);
    expect(await join(s, `lim-${p.playerId}`)).toEqual({ ok: true });
    expect(await join(s, `lim-${p.playerId}`)).toEqual({ ok: true });
    expect(checks).toHaveBeenCalledTimes(1);
    // Another room is still refused, and its own socket id is no room to join.
    expect(await join(s, 'lim-999999')).toEqual({ ok: false, message: 'UNAUTHORIZED' });
  } finally {
    checks.mockRestore();
  }
});

test('with TRUST_PROXY off, X-Forwarded-For is not believed: every socket of the peer counts as one address', async () => {
  const off = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'off', SOCKET_MAX_PER_ADDRESS: '2' });
  try {
    const base = await listen(off.app);
    const g = (await off.app.inject({ method: 'POST', url: '/api/chat/guest' })).json() as { guestId: string };
    const open = (address: string) => {
      const s = connect(base, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { guestId: g.guestId }, extraHeaders: { 'x-forwarded-for': address } });
      sockets.push(s);
      return settled(s);
    };
    expect([await open('192.0.2.1'), await open('192.0.2.2'), await open('192.0.2.3')]).toEqual(['connected', 'connected', expect.stringMatching(/^refused/)]);
  } finally {
    for (const s of sockets.splice(0)) s.disconnect();
    await off.close();
  }
});
