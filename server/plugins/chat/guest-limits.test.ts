import { buildTestApp, type TestApp } from '../../test/support/helper';
import { newPlayer } from '../../test/support/chat';

/**
 * Guests per client address (issue 39 row 10; docs/chat.md "Guests"): new guest ids and guests' messages are
 * counted per address, so minting ids buys neither more ids nor more messages. Players are never counted.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', CHAT_GUEST_IDS_PER_HOUR: '3', CHAT_GUEST_SENDS_PER_MINUTE: '4' });
});
afterAll(async () => t?.close());

const newGuestFrom = (address: string) => t.app.inject({ method: 'POST', url: '/api/chat/guest', headers: { 'x-forwarded-for': address } });
const sendFrom = (address: string, body: Record<string, unknown>, auth?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/chat/send-message',
    headers: { 'x-forwarded-for': address, ...(auth ? { authorization: auth } : {}) },
    payload: { message_type: 'text', locale: 'en', ...body },
  });
const messagesOf = async (guestId: string) =>
  Number(
    (
      await t.db.db
        .selectFrom('chat_messages')
        .innerJoin('chat_conversations', 'chat_conversations.id', 'chat_messages.conversation_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('chat_conversations.guest_id', '=', guestId)
        .where('chat_messages.sender', '=', 'customer')
        .executeTakeFirstOrThrow()
    ).n,
  );

test('at most CHAT_GUEST_IDS_PER_HOUR new guest ids per address, then 429 REQUEST_LIMIT; another address is not affected', async () => {
  const codes = [];
  for (let i = 0; i < 4; i++) codes.push((await newGuestFrom('203.0.113.50')).statusCode);
  expect(codes).toEqual([200, 200, 200, 429]);
  expect((await newGuestFrom('203.0.113.50')).json()).toEqual({ message: 'REQUEST_LIMIT' });
  expect((await newGuestFrom('203.0.113.51')).statusCode).toBe(200);
});

test("guests of one address share CHAT_GUEST_SENDS_PER_MINUTE, however many ids; the refused message is not stored; players don't count", async () => {
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(((await newGuestFrom('198.51.100.60')).json() as { guestId: string }).guestId);
  const codes = [];
  // 3 ids x 2 messages: each id is far under its own limit (20 / 10 s), the address is not.
  for (const guestId of ids) for (let i = 0; i < 2; i++) codes.push((await sendFrom('198.51.100.60', { guestId, message: `hello ${i}` })).statusCode);
  expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
  expect(await messagesOf(ids[2])).toBe(0);
  // A player behind the same address still writes; a guest elsewhere too.
  const p = await newPlayer(t.app);
  expect((await sendFrom('198.51.100.60', { message: 'I am a player' }, p.auth)).statusCode).toBe(200);
  const elsewhere = ((await newGuestFrom('198.51.100.61')).json() as { guestId: string }).guestId;
  expect((await sendFrom('198.51.100.61', { guestId: elsewhere, message: 'hi' })).statusCode).toBe(200);
});
