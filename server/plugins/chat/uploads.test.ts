import fs from 'node:fs';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { parseRange } from './uploads';
import { FILES, call, history, multipartBody, newGuest, newPlayer, upload } from '../../test/support/chat';

/** Chat uploads: typed by their bytes, named to agree, capped, stored outside the web root, served with nosniff. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

const MB = 1024 * 1024;
const mediaDir = () => path.join(t.db.dataDir, 'chat-media');
const storedFiles = () => (fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()).sort() : []);

test('images (png, jpeg, gif) and videos (mp4, mov) are stored under a random name and served with their type and nosniff', async () => {
  const g = await newGuest(t.app);
  const cases = [
    ['image', 'photo.png', FILES.png, 'image/png', 'png'],
    ['image', 'photo.JPG', FILES.jpeg, 'image/jpeg', 'jpg'],
    ['image', 'photo.jpeg', FILES.jpeg, 'image/jpeg', 'jpg'],
    ['image', 'anim.gif', FILES.gif, 'image/gif', 'gif'],
    ['video', 'clip.mp4', FILES.mp4, 'video/mp4', 'mp4'],
    ['video', 'clip.mov', FILES.mov, 'video/quicktime', 'mov'],
  ] as const;
  for (const [kind, name, bytes, type, ext] of cases) {
    const res = await upload(t.app, kind, g, { name, bytes });
    expect([name, res.statusCode]).toEqual([name, 200]);
    const url = (res.json() as { path: string }).path;
    expect(url).toMatch(new RegExp(`^/api/chat/media/[0-9a-f]{32}\\.${ext}$`));
    const file = path.join(mediaDir(), path.basename(url));
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    const got = await t.app.inject({ method: 'GET', url });
    expect([got.statusCode, got.headers['content-type'], got.headers['x-content-type-options']]).toEqual([200, type, 'nosniff']);
    expect(got.rawPayload.equals(bytes)).toBe(true);
  }
  // Stored in DATA_DIR/chat-media: outside dist/ and public/, and nothing is left half-written.
  expect(mediaDir().startsWith(t.app.config.distDir)).toBe(false);
  expect(storedFiles().filter((f) => f.endsWith('.part'))).toEqual([]);
});

test('a player uploads as themself; a token with a wrong body userId, a forged guest id or nobody is refused', async () => {
  const p = await newPlayer(t.app);
  expect((await upload(t.app, 'image', p, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(200);
  const forged = await upload(t.app, 'image', { guestId: 'g_AAAAAAAAAAAAAAAAAAAAAA_AAAAAAAAAAAAAAAAAAAAAA' }, { name: 'a.png', bytes: FILES.png });
  expect([forged.statusCode, forged.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
  expect((await upload(t.app, 'image', {}, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(401);
  const other = await newPlayer(t.app);
  const { payload, contentType } = multipartBody({ name: 'a.png', bytes: FILES.png }, { userId: String(other.playerId) });
  const mismatch = await t.app.inject({ method: 'POST', url: '/api/chat/upload-image', headers: { 'content-type': contentType, authorization: p.auth }, payload });
  expect([mismatch.statusCode, mismatch.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
});

test('disguised files are refused and not kept: a PNG named .mp4, an HTML file named .png, a video on the image route', async () => {
  const g = await newGuest(t.app);
  const before = storedFiles();
  const refusals: [string, 'image' | 'video', string, Buffer][] = [
    ['PNG named .mp4 as a video', 'video', 'clip.mp4', FILES.png],
    ['PNG named .mp4 as an image', 'image', 'clip.mp4', FILES.png],
    ['HTML named .png', 'image', 'page.png', FILES.html],
    ['HTML named .mp4', 'video', 'page.mp4', FILES.html],
    ['JPEG named .png', 'image', 'photo.png', FILES.jpeg],
    ['GIF named .jpg', 'image', 'anim.jpg', FILES.gif],
    ['MP4 on the image route', 'image', 'clip.mp4', FILES.mp4],
    ['PNG on the video route named .png', 'video', 'photo.png', FILES.png],
    ['an extension outside the list', 'image', 'photo.webp', FILES.png],
    ['no extension', 'image', 'photo', FILES.png],
    ['an SVG', 'image', 'icon.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['an empty file', 'image', 'empty.png', Buffer.alloc(0)],
    ['a few bytes', 'image', 'tiny.png', Buffer.from([0x89, 0x50])],
  ];
  for (const [label, kind, name, bytes] of refusals) {
    const res = await upload(t.app, kind, g, { name, bytes });
    expect([label, res.statusCode, res.json()]).toEqual([label, 400, { message: 'CHAT_FILE_NOT_SUPPORTED' }]);
  }
  expect(storedFiles()).toEqual(before);
  // No file part, or a body that is not multipart.
  expect((await upload(t.app, 'image', g, null)).json()).toEqual({ message: 'CHAT_FILE_NOT_SUPPORTED' });
  expect((await call(t.app, 'POST', '/api/chat/upload-image', g, {})).json()).toEqual({ message: 'CHAT_FILE_NOT_SUPPORTED' });
});

test('size caps: an image of 10 MB passes and 10 MB + 1 byte is 413; a video of 20 MB + 1 byte is 413; nothing is kept', async () => {
  const g = await newGuest(t.app);
  const pad = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 7)]);
  expect((await upload(t.app, 'image', g, { name: 'big.png', bytes: pad(FILES.png, 10 * MB) })).statusCode).toBe(200);
  const before = storedFiles();
  const image = await upload(t.app, 'image', g, { name: 'big.png', bytes: pad(FILES.png, 10 * MB + 1) });
  expect([image.statusCode, image.json()]).toEqual([413, { message: 'CHAT_FILE_TOO_LARGE' }]);
  const video = await upload(t.app, 'video', g, { name: 'big.mp4', bytes: pad(FILES.mp4, 20 * MB + 1) });
  expect([video.statusCode, video.json()]).toEqual([413, { message: 'CHAT_FILE_TOO_LARGE' }]);
  expect(storedFiles()).toEqual(before);
  // A body announced far beyond the cap is refused before it is read.
  const announced = await t.app.inject({
    method: 'POST',
    url: '/api/chat/upload-image',
    headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(50 * MB) },
    payload: Buffer.alloc(10),
  });
  expect([announced.statusCode, announced.json()]).toEqual([413, { message: 'CHAT_FILE_TOO_LARGE' }]);
});

test('a media message needs an upload of the same customer', async () => {
  const g = await newGuest(t.app);
  const other = await newGuest(t.app);
  const url = ((await upload(t.app, 'image', g, { name: 'a.png', bytes: FILES.png })).json() as { path: string }).path;
  const media = (filePath: string, extra: Record<string, unknown> = {}) => ({ message: '', message_type: 'media', payload: { message: 'look', url: true, fileType: 'image', filePath, ...extra } });
  const sent = await call(t.app, 'POST', '/api/chat/send-message', g, media(url));
  expect(sent.statusCode).toBe(200);
  const h = (await history(t.app, g)).json() as { messages: { message_type: string; payload: unknown }[] };
  expect(h.messages[0]).toMatchObject({ message_type: 'media', payload: { message: 'look', url: true, fileType: 'image', filePath: url } });
  for (const [label, who, body] of [
    ["another customer's upload", other, media(url)],
    ['an unknown upload', g, media('/api/chat/media/0123456789abcdef0123456789abcdef.png')],
    ['a foreign URL', g, media('https://evil.example/x.png')],
    ['the wrong file type', g, media(url, { fileType: 'video' })],
    ['the wrong extension', g, media(url.replace(/\.png$/, '.gif'))],
  ] as const) {
    const res = await call(t.app, 'POST', '/api/chat/send-message', who, body);
    expect([label, res.statusCode, res.json()]).toEqual([label, 400, { message: 'INVALID_USER_INFO' }]);
  }
});

test('media: byte ranges for video seeking; unknown names are 404 JSON', async () => {
  const g = await newGuest(t.app);
  const url = ((await upload(t.app, 'video', g, { name: 'clip.mp4', bytes: FILES.mp4 })).json() as { path: string }).path;
  const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=4-11' } });
  expect([part.statusCode, part.headers['content-range'], part.body]).toEqual([206, `bytes 4-11/${FILES.mp4.length}`, 'ftypisom']);
  const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
  expect([tail.statusCode, tail.rawPayload.length]).toEqual([206, 10]);
  const beyond = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${FILES.mp4.length}-` } });
  expect([beyond.statusCode, beyond.headers['content-range']]).toEqual([416, `bytes */${FILES.mp4.length}`]);
  for (const name of ['0123456789abcdef0123456789abcdef.mp4', '..%2F..%2Fwallet.sqlite', 'jwt-secret', path.basename(url).replace('.mp4', '.png')]) {
    const res = await t.app.inject({ method: 'GET', url: `/api/chat/media/${name}` });
    expect([name, res.statusCode, res.json()]).toEqual([name, 404, { message: 'NO_DATA' }]);
  }
  expect(parseRange('bytes=0-', 5)).toEqual({ start: 0, end: 4 });
  expect(parseRange('bytes=2-1', 5)).toBeNull();
  expect(parseRange('bytes=0-1,3-4', 5)).toBeNull();
  expect(parseRange('bytes=-0', 5)).toBe('unsatisfiable');
});
