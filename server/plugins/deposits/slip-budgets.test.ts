import fs from 'node:fs';
import { PNG } from 'pngjs';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { writeSettingDoc } from '../../settings';
import { makeSlipPng } from './domain/slip-image';
import { makeTransfer, slipFor } from '../../simulators/demo-bank/bank-service';
import { createPlayer, multipart, type TestPlayer } from '../../test/support/deposits';
import { newPlayer as newChatPlayer, upload as chatUpload, FILES } from '../../test/support/chat';
import { SlipReaderBusy, type SlipReader } from './slip-pool';

/**
 * Issue 39 row 3 for slips: unreadable slips count toward the player's slip limit, slips share the player's upload
 * budget with chat uploads, the free-disk watermark stops them, and a full slip-reader queue is 503 with nothing left.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.app.db.deleteFrom('settings').where('key', '=', 'uploadLimits').execute());

function upload(player: TestPlayer, bytes: Buffer) {
  const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: bytes }]);
  return t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...player.headers, 'content-type': body.contentType }, payload: body.payload });
}
const rowsOf = (playerId: number) => t.app.db.selectFrom('slips').select(['status', 'note', 'file_name']).where('player_id', '=', playerId).execute();
const storedSlips = () => (fs.existsSync(t.app.deposits.env.uploadsDir) ? fs.readdirSync(t.app.deposits.env.uploadsDir).sort() : []);

/** A real PNG with no QR in it: read to the end by the slip reader, then INVALID_SLIP. */
function blankPng(): Buffer {
  const png = new PNG({ width: 120, height: 80 });
  png.data.fill(255);
  return PNG.sync.write(png);
}

async function ownSlip(p: TestPlayer, amount: string): Promise<Buffer> {
  const made = await makeTransfer(t.app, { playerId: p.id, amount, receiver: 'account', minutesAgo: 0 });
  if (!made.ok) throw new Error(made.error);
  return makeSlipPng((await slipFor(t.app, made.transRef))!);
}

test('unreadable slips count toward the slip limit: after 5 INVALID_SLIP uploads in an hour the player gets 429', async () => {
  const p = await createPlayer(t.app);
  const blank = blankPng();
  for (let i = 0; i < 5; i++) expect((await upload(p, blank)).json()).toEqual({ message: 'INVALID_SLIP' });
  const over = await upload(p, await ownSlip(p, '100'));
  expect([over.statusCode, over.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
  expect((await rowsOf(p.id)).map((r) => r.note)).toEqual(Array(5).fill('INVALID_SLIP'));
  // Another player is not affected.
  const q = await createPlayer(t.app);
  expect((await upload(q, await ownSlip(q, '100'))).statusCode).toBe(200);
});

test("slips and chat uploads share the player's budget (uploads and bytes per day)", async () => {
  await writeSettingDoc(t.app.db, 'uploadLimits', { playerMaxUploads: 3 });
  const p = await createPlayer(t.app);
  expect((await upload(p, await ownSlip(p, '100'))).statusCode).toBe(200);
  expect((await upload(p, blankPng())).statusCode).toBe(422);
  const chat = { auth: p.headers.authorization, playerId: p.id };
  expect((await chatUpload(t.app, 'image', chat, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(200);
  const before = storedSlips();
  const slip = await upload(p, await ownSlip(p, '100'));
  expect([slip.statusCode, slip.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
  expect((await chatUpload(t.app, 'image', chat, { name: 'a.png', bytes: FILES.png })).statusCode).toBe(429);
  // Nothing recorded or stored for the refused slip.
  expect(await rowsOf(p.id)).toHaveLength(2);
  expect(storedSlips()).toEqual(before);
  // Bytes: a budget smaller than two slips.
  const q = await createPlayer(t.app);
  const first = await ownSlip(q, '100');
  await writeSettingDoc(t.app.db, 'uploadLimits', { playerMaxBytes: first.length + 100 });
  expect((await upload(q, first)).statusCode).toBe(200);
  expect((await upload(q, await ownSlip(q, '100'))).statusCode).toBe(429);
  // Other players keep theirs.
  expect((await chatUpload(t.app, 'image', await newChatPlayer(t.app), { name: 'a.png', bytes: FILES.png })).statusCode).toBe(200);
});

test('below the free-disk watermark a slip is 503 UPLOAD_UNAVAILABLE, nothing recorded or stored', async () => {
  await writeSettingDoc(t.app.db, 'uploadLimits', { minFreeDiskMb: 1e12 });
  const p = await createPlayer(t.app);
  const before = storedSlips();
  const res = await upload(p, await ownSlip(p, '100'));
  expect([res.statusCode, res.json()]).toEqual([503, { message: 'UPLOAD_UNAVAILABLE' }]);
  expect(await rowsOf(p.id)).toEqual([]);
  expect(storedSlips()).toEqual(before);
});

test("a full slip-reader queue is 503 UPLOAD_UNAVAILABLE: the slip's row and file are removed, the budget refunded", async () => {
  const real = t.app.deposits.slips;
  // What the pool answers when queueMax slips already wait (slip-pool.test.ts proves the pool's side).
  const busy: SlipReader = { read: () => Promise.reject(new SlipReaderBusy()), close: async () => undefined };
  await writeSettingDoc(t.app.db, 'uploadLimits', { playerMaxUploads: 2 });
  const p = await createPlayer(t.app);
  const before = storedSlips();
  t.app.deposits.slips = busy;
  try {
    const res = await upload(p, await ownSlip(p, '100'));
    expect([res.statusCode, res.json()]).toEqual([503, { message: 'UPLOAD_UNAVAILABLE' }]);
  } finally {
    t.app.deposits.slips = real;
  }
  expect(await rowsOf(p.id)).toEqual([]);
  expect(storedSlips()).toEqual(before);
  const charged = await t.app.db.selectFrom('upload_quota_uses').select('bytes').where('key', '=', `player:${p.id}`).execute();
  expect(charged).toEqual([{ bytes: 0 }]);
  // Sent again once the readers have room: credited.
  expect((await upload(p, await ownSlip(p, '100'))).statusCode).toBe(200);
});
