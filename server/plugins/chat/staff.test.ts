import type { Socket } from 'socket.io-client';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createStaff } from '../../test/support/staff';
import { call, connected, history, join, listen, newGuest, newPlayer, next, record, refused, sendText, socketTo, type Caller } from '../../test/support/chat';

/** The staff side: the conversation list and unread counts, replies and closing reaching the customer live, staff auth. */

let t: TestApp;
let url: string;
let staff: { id: number; token: string };
let clockMs = Date.parse('2026-11-26T12:00:00.000Z');
const sockets: Socket[] = [];
const open = (auth: Record<string, string>, nsp = '/') => {
  const s = socketTo(url, auth, nsp);
  sockets.push(s);
  return s;
};
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  t.app.clock.now = () => new Date(clockMs);
  url = await listen(t.app);
  staff = await createStaff(t.app, { username: 'ploy', name: 'Ploy' });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => t?.close());

const tick = () => (clockMs += 1000);
const asStaff = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: Record<string, unknown>, token = staff.token) =>
  t.app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, payload });
interface Summary { id: string; userId: string | null; guestId: string | null; name: string | null; lastMessage: string | null; lastAt: string; unread: number; status: string }
const list = async (status?: string) => {
  const res = await asStaff('GET', `/api/staff/conversations${status ? `?status=${status}` : ''}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { conversations: Summary[] }).conversations;
};
const convOf = async (who: Caller) =>
  String(
    (await t.db.db.selectFrom('chat_conversations').select('id').where(who.playerId ? 'player_id' : 'guest_id', '=', (who.playerId ?? who.guestId) as never).executeTakeFirstOrThrow()).id,
  );
const customerSocket = async (who: Caller) => {
  const s = open(who.auth ? { token: who.auth.slice('Bearer '.length) } : { guestId: who.guestId! });
  await connected(s);
  expect(await join(s, `wallet-chat-${who.playerId ?? who.guestId}`)).toEqual({ ok: true });
  return s;
};

test('the list: open conversations by newest activity, with names, last message and customer messages unread by staff', async () => {
  const p = await newPlayer(t.app);
  const g = await newGuest(t.app);
  tick();
  await sendText(t.app, p, 'first question', { locale: 'en' });
  tick();
  await sendText(t.app, g, 'guest question', { locale: 'en', name: 'Noy' });
  tick();
  await sendText(t.app, p, 'second question');
  const [pc, gc] = [await convOf(p), await convOf(g)];
  const mine = (await list()).filter((c) => c.id === pc || c.id === gc);
  const playerName = (await t.db.db.selectFrom('players').select('name').where('id', '=', p.playerId).executeTakeFirstOrThrow()).name;
  expect(mine).toEqual([
    { id: pc, userId: String(p.playerId), guestId: null, name: playerName, lastMessage: 'second question', lastAt: new Date(clockMs).toISOString(), unread: 2, status: 'open' },
    { id: gc, userId: null, guestId: g.guestId, name: 'Noy', lastMessage: expect.any(String), lastAt: expect.any(String), unread: 1, status: 'open' },
  ]);
  // Staff read: the count drops to 0, and the console sockets hear it.
  const console = open({ token: staff.token }, '/staff');
  await connected(console);
  const update = next<Summary>(console, 'conversation', (s) => s.id === pc);
  expect((await asStaff('PUT', `/api/staff/conversations/${pc}/read`)).json()).toEqual({ read: 2 });
  expect(await update).toMatchObject({ id: pc, unread: 0 });
  expect((await list()).find((c) => c.id === pc)?.unread).toBe(0);
  expect((await asStaff('PUT', `/api/staff/conversations/${pc}/read`)).json()).toEqual({ read: 0 });
  // A new customer message counts again and reaches the console live.
  const live = next<Summary>(console, 'conversation', (s) => s.id === pc && s.unread === 1);
  const msg = next<{ conversationId: string; message: { message: string } }>(console, 'messaging', (m) => m.conversationId === pc);
  await sendText(t.app, p, 'third');
  expect((await msg).message.message).toBe('third');
  expect((await live).lastMessage).toBe('third');
});

test('the list puts players before guests and, in each, those waiting for staff first, so minted guests bury nobody', async () => {
  await t.db.db.deleteFrom('chat_messages').execute();
  await t.db.db.deleteFrom('chat_conversations').execute();
  const waitingPlayer = await newPlayer(t.app);
  const player = await newPlayer(t.app);
  const waitingGuest = await newGuest(t.app);
  tick();
  await sendText(t.app, waitingPlayer, 'staff please', { locale: 'en' });
  tick();
  await sendText(t.app, player, 'a question', { locale: 'en' });
  tick();
  await sendText(t.app, waitingGuest, 'staff please', { locale: 'en' });
  // Newer activity than all of them: guests sending after everyone.
  const spam: Caller[] = [];
  for (let i = 0; i < 3; i++) {
    const g = await newGuest(t.app);
    tick();
    await sendText(t.app, g, `spam ${i}`, { locale: 'en' });
    spam.push(g);
  }
  const ids = [await convOf(waitingPlayer), await convOf(player), await convOf(waitingGuest), ...(await Promise.all(spam.map(convOf))).reverse()];
  const listed = await list();
  expect(listed.map((c) => c.status)).toEqual(['waiting_staff', 'open', 'waiting_staff', 'open', 'open', 'open']);
  expect(listed.map((c) => c.id)).toEqual(ids);
});

test("a staff reply reaches the customer's socket live; closing sends the end marker and the next message opens a new session", async () => {
  const p = await newPlayer(t.app);
  tick();
  const first = (await sendText(t.app, p, 'hello', { locale: 'en' })).json() as { session_id: string };
  const id = await convOf(p);
  const s = await customerSocket(p);
  const seen = record<{ type: string; message?: { sender: string; username: string; name: string; message: string; session_id: string }; session_id?: string; at?: string }>(s, 'messaging');

  const reply = next<{ type: string; message: { message: string } }>(s, 'messaging', (e) => e.type === 'message');
  tick();
  const sent = await asStaff('POST', `/api/staff/conversations/${id}/reply`, { message: 'Hi, how can I help?', message_type: 'text' });
  expect(sent.statusCode).toBe(200);
  expect(sent.json()).toEqual({ _id: expect.stringMatching(/^\d+$/), createdAt: new Date(clockMs).toISOString() });
  expect((await reply).message).toMatchObject({ message: 'Hi, how can I help?' });
  // The display name, never the login name (which would let a customer aim the staff login lockout at 'ploy').
  expect(seen[0].message).toMatchObject({ sender: 'other', username: 'staff', name: 'Ploy', session_id: first.session_id });
  expect((await history(t.app, p)).body).not.toContain('ploy');

  // Quick replies from staff; the customer's tap is a postback the bot leaves to staff.
  const quick = next<{ message: { message_type: string; payload: unknown } }>(s, 'messaging', (e) => e.message?.message_type === 'quick_replies');
  const qr = { quick_replies: [{ title: 'Yes', type: 'postback', payload: 'YES' }, { title: 'No', type: 'postback', payload: 'NO' }] };
  expect((await asStaff('POST', `/api/staff/conversations/${id}/reply`, { message: 'Did it arrive?', message_type: 'quick_replies', payload: qr })).statusCode).toBe(200);
  expect((await quick).message.payload).toEqual(qr);
  tick();
  expect((await call(t.app, 'POST', '/api/chat/send-message', p, { message: 'Yes', message_type: 'postback', payload: { payload: 'YES' } })).statusCode).toBe(200);

  const end = next<{ type: string; session_id: string; at: string }>(s, 'messaging', (e) => e.type === 'end');
  tick();
  expect((await asStaff('POST', `/api/staff/conversations/${id}/close`)).json()).toEqual({ ok: true });
  expect(await end).toEqual({ type: 'end', session_id: first.session_id, at: new Date(clockMs).toISOString() });
  expect((await history(t.app, p)).json().closed).toBe(true);
  expect((await list('closed')).map((c) => c.id)).toContain(id);
  expect((await list('open')).map((c) => c.id)).not.toContain(id);
  // Closing again changes nothing and sends nothing.
  expect((await asStaff('POST', `/api/staff/conversations/${id}/close`)).json()).toEqual({ ok: true });

  tick();
  const again = (await sendText(t.app, p, 'one more thing', { locale: 'en' })).json() as { session_id: string };
  expect(again.session_id).not.toBe(first.session_id);
  const h = (await history(t.app, p, { limit: 50 })).json() as { closed: boolean; messages: { session_id: string; sender: string }[] };
  expect(h.closed).toBe(false);
  // The new session: the customer's message and the bot's greeting.
  expect(h.messages.filter((m) => m.session_id === again.session_id).map((m) => m.sender)).toEqual(['customer', 'other']);
  expect(seen.filter((e) => e.type === 'end')).toHaveLength(1);
  expect((await list('open')).find((c) => c.id === id)?.status).toBe('open');
});

test('a guest asking for staff waits; the reply ends the wait; staff history pages like the customer’s', async () => {
  const g = await newGuest(t.app);
  tick();
  await call(t.app, 'POST', '/api/chat/send-message', g, { message: 'Talk to staff', message_type: 'postback', payload: { payload: 'TALK_TO_STAFF' }, locale: 'en' });
  const id = await convOf(g);
  expect((await list()).find((c) => c.id === id)?.status).toBe('waiting_staff');
  const s = await customerSocket(g);
  const reply = next<{ type: string; message: { name: string } }>(s, 'messaging', (e) => e.type === 'message');
  await asStaff('POST', `/api/staff/conversations/${id}/reply`, { message: 'Here', message_type: 'text' });
  expect((await reply).message.name).toBe('Ploy');
  expect((await list()).find((c) => c.id === id)?.status).toBe('open');
  for (let i = 0; i < 5; i++) {
    tick();
    await sendText(t.app, g, `m${i}`);
  }
  const staffPage = (await asStaff('POST', `/api/staff/conversations/${id}/history`, { skip: 2, limit: 3 })).json() as { total: number; closed: boolean; messages: { message: string }[] };
  const customerPage = (await history(t.app, g, { skip: 2, limit: 3 })).json() as { total: number; messages: { message: string }[] };
  expect(staffPage.total).toBe(8);
  expect([staffPage.closed, staffPage.messages.map((m) => m.message)]).toEqual([false, ['m0', 'm1', 'm2']]);
  expect(customerPage.messages).toEqual(staffPage.messages);
});

test('replies are checked; unknown conversations are 404', async () => {
  const g = await newGuest(t.app);
  await sendText(t.app, g, 'hi');
  const id = await convOf(g);
  const bad = [
    { message: '   ', message_type: 'text' },
    { message: 'x'.repeat(2001), message_type: 'text' },
    { message: 'hi', message_type: 'buttons' },
    { message: 'hi', message_type: 'text', payload: { buttons: [] } },
    { message: 'Pick', message_type: 'quick_replies' },
    { message: 'Pick', message_type: 'quick_replies', payload: { quick_replies: [] } },
    { message: 'Pick', message_type: 'quick_replies', payload: { quick_replies: [{ title: 'Go', type: 'web', payload: 'https://evil.example' }] } },
    { message: 'Pick', message_type: 'quick_replies', payload: { quick_replies: [{ title: ' ', type: 'postback', payload: 'A' }] } },
    { message: 'Pick', message_type: 'quick_replies', payload: { quick_replies: [{ title: 'A', type: 'postback', payload: 'has space' }] } },
  ];
  for (const body of bad) {
    const res = await asStaff('POST', `/api/staff/conversations/${id}/reply`, body);
    expect([JSON.stringify(body).slice(0, 60), res.statusCode, res.json()]).toEqual([JSON.stringify(body).slice(0, 60), 400, { message: 'INVALID_USER_INFO' }]);
  }
  for (const missing of ['999999', 'abc', '0', '1e3']) {
    const res = await asStaff('POST', `/api/staff/conversations/${missing}/close`);
    expect([missing, res.statusCode, res.json()]).toEqual([missing, 404, { message: 'NO_DATA' }]);
  }
});

test("a player's token opens no staff route nor the staff namespace; a staff token is no customer", async () => {
  const p = await newPlayer(t.app);
  const g = await newGuest(t.app);
  await sendText(t.app, g, 'hi');
  const id = await convOf(g);
  const playerToken = p.auth.slice('Bearer '.length);
  for (const [method, path] of [
    ['GET', '/api/staff/conversations'],
    ['POST', `/api/staff/conversations/${id}/history`],
    ['POST', `/api/staff/conversations/${id}/reply`],
    ['POST', `/api/staff/conversations/${id}/close`],
    ['PUT', `/api/staff/conversations/${id}/read`],
  ] as const) {
    const res = await asStaff(method, path, method === 'GET' ? undefined : { message: 'x', message_type: 'text' }, playerToken);
    expect([path, res.statusCode, res.json()]).toEqual([path, 401, { message: 'invalid-token' }]);
  }
  expect((await list()).find((c) => c.id === id)?.status).toBe('open');
  expect(await refused(open({ token: playerToken }, '/staff'))).toBe('invalid-token');
  expect(await refused(open({ guestId: g.guestId }, '/staff'))).toBe('UNAUTHORIZED');
  expect(await refused(open({}, '/staff'))).toBe('UNAUTHORIZED');
  // A staff token on the customer side.
  const res = await call(t.app, 'POST', '/api/chat/history', { auth: `Bearer ${staff.token}` });
  expect([res.statusCode, res.json()]).toEqual([401, { message: 'invalid-token' }]);
  // A logged-out staff token no longer connects.
  const other = await createStaff(t.app);
  expect((await asStaff('POST', '/api/staff/logout', undefined, other.token)).statusCode).toBe(200);
  expect(await refused(open({ token: other.token }, '/staff'))).toBe('invalid-token');
});
