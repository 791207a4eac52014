import { ERROR_CODES, PROJECT_ERROR_CODES } from '../../../shared/errorCodes';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createStaff } from '../../test/support/staff';
import { FILES, multipartBody, newGuest, newPlayer, sendText } from '../../test/support/chat';

/**
 * The route sweep (server/test/route-sweep.test.ts) calls the public chat routes without an identity, so most
 * stop at 401. This one calls every chat route as a player (token) and as a guest (guest id in the body) with
 * careless and hostile bodies, multipart ones included, and staff routes with a staff token on a real
 * conversation: never a 5xx, every refusal the JSON envelope with a known code.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

const KNOWN = new Set<string>([...ERROR_CODES, ...PROJECT_ERROR_CODES, 'invalid-token']);

type Body = { name: string; payload?: string | Buffer; contentType?: string };
function bodiesFor(guestId: string | null): Body[] {
  const id = guestId ? { guestId } : {};
  const json = (name: string, v: unknown): Body => ({ name, payload: JSON.stringify(v), contentType: 'application/json' });
  const mp = (name: string, file: Parameters<typeof multipartBody>[0], fields: Record<string, string> = {}): Body => {
    const { payload, contentType } = multipartBody(file, { ...(guestId ? { guestId } : {}), ...fields });
    return { name, payload, contentType };
  };
  const two = multipartBody({ name: 'a.png', bytes: FILES.png }, guestId ? { guestId } : {});
  const boundary = two.contentType.split('boundary=')[1];
  return [
    { name: 'no body' },
    json('empty object', {}),
    json('identity only', id),
    json('array', [id]),
    json('null', null),
    json('wrong types', { ...id, message: 5, message_type: ['text'], payload: 'x', limit: '10', skip: {}, name: {}, locale: 'xx' }),
    json('userId number', { ...id, userId: 7 }),
    json('guestId object', { guestId: { $ne: null } }),
    json('huge name', { ...id, message: 'hi', message_type: 'text', name: 'n'.repeat(5000) }),
    json('media payload from nowhere', { ...id, message: '', message_type: 'media', payload: { filePath: '/etc/passwd', fileType: 'image' } }),
    json('postback with a nested payload', { ...id, message: 'x', message_type: 'postback', payload: { payload: { a: 1 } } }),
    json('quick replies as staff would', { ...id, message: 'x', message_type: 'quick_replies', payload: { quick_replies: [] } }),
    { name: 'broken JSON', payload: '{"message": "x', contentType: 'application/json' },
    { name: 'text/plain', payload: 'hello', contentType: 'text/plain' },
    { name: '2 MB JSON', payload: JSON.stringify({ ...id, message: 'x'.repeat(2 * 1024 * 1024) }), contentType: 'application/json' },
    { name: 'multipart without boundary', payload: 'x', contentType: 'multipart/form-data' },
    mp('multipart html as png', { name: 'x.png', bytes: FILES.html }),
    mp('multipart png', { name: 'x.png', bytes: FILES.png }),
    mp('multipart mp4', { name: 'x.mp4', bytes: FILES.mp4 }),
    mp('multipart file under another field', null, { other: 'x' }),
    mp('multipart long field', null, { guestId: 'g'.repeat(10_000) }),
    { name: 'multipart cut short', payload: two.payload.subarray(0, two.payload.length - 60), contentType: two.contentType },
    {
      name: 'multipart two files',
      payload: Buffer.concat([two.payload.subarray(0, two.payload.length - `--${boundary}--\r\n`.length), two.payload]),
      contentType: two.contentType,
    },
  ];
}

test('every chat route, as a player and as a guest, answers bad bodies with sound refusals and never a 5xx', async () => {
  const player = await newPlayer(t.app);
  const guest = await newGuest(t.app);
  await sendText(t.app, guest, 'hello');
  const staff = await createStaff(t.app);
  const conv = (await t.db.db.selectFrom('chat_conversations').select('id').where('guest_id', '=', guest.guestId).executeTakeFirstOrThrow()).id;
  const routes = t.app.routeCatalogue.filter((r) => r.url.startsWith('/api/chat/') || r.url.startsWith('/api/staff/conversations'));
  expect(routes.length).toBe(13);
  const problems: string[] = [];
  let requests = 0;
  for (const route of routes) {
    const url = route.url.replace(':id', String(conv)).replace(':name', '0123456789abcdef0123456789abcdef.png');
    const callers: [string, string | undefined, string | null][] = route.url.startsWith('/api/staff/')
      ? [['staff', `Bearer ${staff.token}`, null]]
      : [
          ['player', player.auth, null],
          ['guest', undefined, guest.guestId],
        ];
    for (const [who, authorization, guestId] of callers) {
      for (const body of bodiesFor(guestId)) {
        requests += 1;
        const headers: Record<string, string> = {};
        if (authorization) headers.authorization = authorization;
        if (body.contentType) headers['content-type'] = body.contentType;
        const res = await t.app.inject({ method: route.method as 'POST', url, headers, payload: route.method === 'GET' ? undefined : body.payload });
        const where = `${route.method} ${route.url} as ${who} (${body.name}): ${res.statusCode}`;
        if (res.statusCode >= 500) problems.push(`${where} ${res.body.slice(0, 120)}`);
        else if (res.statusCode >= 400) {
          const type = String(res.headers['content-type']);
          const message = type.startsWith('application/json') ? (res.json() as { message?: unknown }).message : undefined;
          if (typeof message !== 'string' || !KNOWN.has(message)) problems.push(`${where} ${type} ${res.body.slice(0, 120)}`);
        }
      }
    }
  }
  expect(problems).toEqual([]);
  expect(requests).toBeGreaterThan(400);
});
