import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createStaff } from '../../test/support/staff';
import { newGuest, sendText } from '../../test/support/chat';

/** Issue 39: staff replies and closes in the support chat write staff_audit rows (docs/staff.md "Audit log"). */

let t: TestApp;
let staff: { id: number; token: string };
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  staff = await createStaff(t.app, { username: 'audited-chat', name: 'Ploy' });
});
afterAll(async () => t?.close());

const asStaff = (path: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${staff.token}`, ...headers }, payload });
const rowsOf = (conversationId: string) =>
  t.db.db.selectFrom('staff_audit').select(['staff_id', 'action', 'subject_type', 'subject_id', 'detail', 'request_id']).where('subject_type', '=', 'conversation').where('subject_id', '=', conversationId).orderBy('id').execute();

test('a reply writes chat.reply (with the message id) and a close writes chat.close, both with the request id', async () => {
  const g = await newGuest(t.app);
  expect((await sendText(t.app, g, 'hello', { locale: 'en' })).statusCode).toBe(200);
  const id = String((await t.db.db.selectFrom('chat_conversations').select('id').where('guest_id', '=', g.guestId).executeTakeFirstOrThrow()).id);
  const sent = await asStaff(`/api/staff/conversations/${id}/reply`, { message: 'Hi, how can I help?', message_type: 'text' }, { 'x-request-id': 'req-chat-reply-1' });
  expect(sent.statusCode).toBe(200);
  expect((await asStaff(`/api/staff/conversations/${id}/close`, undefined, { 'x-request-id': 'req-chat-close-1' })).statusCode).toBe(200);
  expect(await rowsOf(id)).toEqual([
    { staff_id: staff.id, action: 'chat.reply', subject_type: 'conversation', subject_id: id, detail: JSON.stringify({ messageId: (sent.json() as { _id: string })._id }), request_id: 'req-chat-reply-1' },
    { staff_id: staff.id, action: 'chat.close', subject_type: 'conversation', subject_id: id, detail: null, request_id: 'req-chat-close-1' },
  ]);
});

test('a refused reply or close (unknown conversation) writes nothing', async () => {
  expect((await asStaff('/api/staff/conversations/999999/reply', { message: 'x', message_type: 'text' })).statusCode).toBe(404);
  expect((await asStaff('/api/staff/conversations/999999/close')).statusCode).toBe(404);
  expect(await rowsOf('999999')).toEqual([]);
});
