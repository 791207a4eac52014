import fs from 'node:fs';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { writeSettingDoc } from '../../settings';
import { FILES, gifHead, jpegHead, multipartBody, newGuest, newPlayer, pngHead, upload, type Caller } from '../../test/support/chat';

/**
 * Issue 39 row 3 and the chat-image item: chat uploads have budgets (per client address and guest id for guests, per
 * player for players), stop at the free-disk watermark, and an image's header must announce a size a staff browser
 * can show.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

const MB = 1024 * 1024;
let realNow: () => Date;
beforeEach(async () => {
  realNow = t.app.clock.now;
  // Each test starts with the default limits (and uses addresses, guests and players of its own).
  await t.app.db.deleteFrom('settings').where('key', '=', 'uploadLimits').execute();
});
afterEach(() => {
  t.app.clock.now = realNow;
});

const mediaDir = () => path.join(t.db.dataDir, 'chat-media');
const storedFiles = () => (fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()).sort() : []);
const limits = (doc: object) => writeSettingDoc(t.app.db, 'uploadLimits', doc);

/** An upload as the SPA sends it, from a given client address. */
function uploadFrom(address: string, who: Caller, file: { name: string; bytes: Buffer }, kind: 'image' | 'video' = 'image') {
  const { payload, contentType } = multipartBody(file, who.guestId ? { guestId: who.guestId } : {});
  const headers: Record<string, string> = { 'content-type': contentType };
  if (who.auth) headers.authorization = who.auth;
  return t.app.inject({ method: 'POST', url: `/api/chat/upload-${kind}`, headers, payload, remoteAddress: address });
}
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 7)]);

test('by default the guests of one address keep at most 50 MB an hour: fresh guest ids do not reset it', async () => {
  const photo = { name: 'photo.png', bytes: padded(FILES.png, Math.floor(9.9 * MB)) };
  const answers: number[] = [];
  for (let i = 0; i < 6; i++) answers.push((await uploadFrom('203.0.113.7', await newGuest(t.app), photo)).statusCode);
  expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  const refused = await uploadFrom('203.0.113.7', await newGuest(t.app), photo);
  expect([refused.statusCode, refused.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
  expect(storedFiles().filter((f) => f.endsWith('.part'))).toEqual([]);
  // Another address has its own budget; a player is never limited by the address they share.
  expect((await uploadFrom('203.0.113.8', await newGuest(t.app), photo)).statusCode).toBe(200);
  expect((await uploadFrom('203.0.113.7', await newPlayer(t.app), photo)).statusCode).toBe(200);
  // The window slides on: an hour later the address may upload again.
  const later = new Date(Date.now() + 61 * 60_000);
  t.app.clock.now = () => later;
  expect((await uploadFrom('203.0.113.7', await newGuest(t.app), photo)).statusCode).toBe(200);
});

test('the number of uploads is budgeted too, per address and per guest id, refused ones included', async () => {
  await limits({ guestAddressMaxUploads: 4, guestMaxUploads: 2 });
  const g = await newGuest(t.app);
  expect((await uploadFrom('198.51.100.1', g, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(200);
  // A refused file still counts as an upload.
  expect((await uploadFrom('198.51.100.1', g, { name: 'a.png', bytes: FILES.html })).statusCode).toBe(400);
  expect((await uploadFrom('198.51.100.1', g, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(429);
  const other = await newGuest(t.app);
  expect((await uploadFrom('198.51.100.1', other, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(200);
  expect((await uploadFrom('198.51.100.1', other, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(200);
  expect((await uploadFrom('198.51.100.1', await newGuest(t.app), { name: 'a.png', bytes: FILES.png })).statusCode).toBe(429);
});

test('parallel uploads cannot all pass one budget: of 8 at once with room for 3, exactly 3 are kept', async () => {
  await limits({ guestAddressMaxUploads: 3 });
  const guests = await Promise.all(Array.from({ length: 8 }, () => newGuest(t.app)));
  const before = storedFiles().length;
  const answers = await Promise.all(guests.map((g) => uploadFrom('192.0.2.55', g, { name: 'a.png', bytes: FILES.png })));
  expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
  expect(storedFiles().length - before).toBe(3);
});

test("a player's budget is the player's own, bytes kept counted", async () => {
  await limits({ playerMaxBytes: 1000 });
  const p = await newPlayer(t.app);
  const file = { name: 'a.png', bytes: padded(FILES.png, 600) };
  expect((await uploadFrom('127.0.0.1', p, file)).statusCode).toBe(200);
  const over = await uploadFrom('127.0.0.1', p, file);
  expect([over.statusCode, over.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
  expect((await uploadFrom('127.0.0.1', await newPlayer(t.app), file)).statusCode).toBe(200);
});

test('below the free-disk watermark every upload is 503 UPLOAD_UNAVAILABLE and nothing is kept', async () => {
  // More free space than any disk has: the watermark is always above it.
  await limits({ minFreeDiskMb: 1e12 });
  const before = storedFiles();
  const res = await uploadFrom('127.0.0.1', await newGuest(t.app), { name: 'a.png', bytes: FILES.png });
  expect([res.statusCode, res.json()]).toEqual([503, { message: 'UPLOAD_UNAVAILABLE' }]);
  const video = await uploadFrom('127.0.0.1', await newPlayer(t.app), { name: 'a.mp4', bytes: FILES.mp4 }, 'video');
  expect(video.statusCode).toBe(503);
  expect(storedFiles()).toEqual(before);
});

describe("chat images: the header's pixel size", () => {
  test('a 60000 x 60000 PNG, JPEG or GIF is 413 CHAT_FILE_TOO_LARGE (a few KB that would freeze a staff browser) and not kept', async () => {
    const g = await newGuest(t.app);
    const before = storedFiles();
    for (const [name, head] of [
      ['huge.png', pngHead(60000, 60000)],
      ['huge.jpg', jpegHead(60000, 60000)],
      ['huge.gif', gifHead(60000, 60000)],
      ['wide.png', pngHead(40000, 10)],
    ] as const) {
      const res = await upload(t.app, 'image', g, { name, bytes: padded(head, 4096) });
      expect([name, res.statusCode, res.json()]).toEqual([name, 413, { message: 'CHAT_FILE_TOO_LARGE' }]);
    }
    expect(storedFiles()).toEqual(before);
  });

  test('a phone photo passes, its SOF after 200 KB of EXIF and ICC segments; an image without a readable header is refused', async () => {
    const g = await newGuest(t.app);
    const app1 = (n: number) => Buffer.concat([Buffer.from([0xff, 0xe1, 0xff, 0xff]), Buffer.alloc(0xfffd, n)]);
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8]), app1(1), app1(2), app1(3), jpegHead(8064, 6048).subarray(2), Buffer.alloc(1000, 9)]);
    expect((await upload(t.app, 'image', g, { name: 'IMG_0001.JPG', bytes: photo })).statusCode).toBe(200);
    expect((await upload(t.app, 'image', g, { name: 'a.png', bytes: pngHead(4000, 3000) })).statusCode).toBe(200);
    // A PNG signature with no IHDR, a JPEG that ends before its frame header.
    const noIhdr = Buffer.concat([pngHead(10, 10).subarray(0, 8), Buffer.alloc(200, 1)]);
    const cut = Buffer.concat([Buffer.from([0xff, 0xd8]), app1(4)]).subarray(0, 5000);
    for (const [name, bytes] of [['a.png', noIhdr], ['a.jpg', cut]] as const) {
      const res = await upload(t.app, 'image', g, { name, bytes });
      expect([name, res.statusCode, res.json()]).toEqual([name, 400, { message: 'CHAT_FILE_NOT_SUPPORTED' }]);
    }
  });

  test('the limits are settings: chatImageMaxPixels and chatImageMaxSide', async () => {
    await limits({ chatImageMaxPixels: 1_000_000, chatImageMaxSide: 1200 });
    const g = await newGuest(t.app);
    expect((await upload(t.app, 'image', g, { name: 'a.png', bytes: pngHead(1000, 1000) })).statusCode).toBe(200);
    expect((await upload(t.app, 'image', g, { name: 'a.png', bytes: pngHead(1100, 1000) })).statusCode).toBe(413);
    expect((await upload(t.app, 'image', g, { name: 'a.gif', bytes: gifHead(1300, 10) })).statusCode).toBe(413);
  });
});
