import fs from 'node:fs';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../test/support/helper';
import { writeSettingDoc } from '../settings';
import { call, FILES, newGuest, upload } from '../test/support/chat';
import { createPlayer, multipart } from '../test/support/deposits';
import { makeTransfer, slipFor } from '../simulators/demo-bank/bank-service';
import { makeSlipPng } from '../plugins/deposits/domain/slip-image';

/**
 * Issue 39 row 3: uploads do not stay for ever on the ledger's disk. The retention job (under the `upload-retention`
 * lease) deletes chat media nobody sent, stray files, chat media and slip pictures past their retention days, and
 * old budget charges.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const chatDir = () => path.join(t.db.dataDir, 'chat-media');
const exists = (file: string) => fs.existsSync(file);
let offset = 0;
const advance = (ms: number) => {
  offset += ms;
  t.app.clock.now = () => new Date(Date.now() + offset);
};

test('a pass deletes what nobody needs and keeps what is in use, under the upload-retention lease', async () => {
  const g = await newGuest(t.app);
  const sentUrl = (await upload(t.app, 'image', g, { name: 'a.png', bytes: FILES.png })).json().path as string;
  const unsentUrl = (await upload(t.app, 'image', g, { name: 'b.png', bytes: FILES.png })).json().path as string;
  const media = { message: '', message_type: 'media', payload: { message: 'look', url: true, fileType: 'image', filePath: sentUrl } };
  expect((await call(t.app, 'POST', '/api/chat/send-message', g, media)).statusCode).toBe(200);
  const sentFile = path.join(chatDir(), path.basename(sentUrl));
  const unsentFile = path.join(chatDir(), path.basename(unsentUrl));
  // Left behind by a crash mid-upload, and a file no row knows.
  const partial = path.join(chatDir(), `${'a'.repeat(32)}.part`);
  const stray = path.join(chatDir(), `${'b'.repeat(32)}.png`);
  fs.writeFileSync(partial, 'x');
  fs.writeFileSync(stray, 'x');

  // A credited slip, and one held IN_PROGRESS (staff have not decided it).
  const p = await createPlayer(t.app);
  const made = await makeTransfer(t.app, { playerId: p.id, amount: '100', receiver: 'account', minutesAgo: 0 });
  if (!made.ok) throw new Error(made.error);
  const body = multipart([{ name: 'file', filename: 's.png', contentType: 'image/png', data: makeSlipPng((await slipFor(t.app, made.transRef))!) }]);
  const res = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...p.headers, 'content-type': body.contentType }, payload: body.payload });
  expect(res.statusCode).toBe(200);
  const slip = await t.app.db.selectFrom('slips').selectAll().where('player_id', '=', p.id).executeTakeFirstOrThrow();
  const slipFile = path.join(t.app.deposits.env.uploadsDir, slip.file_name);
  const held = { ...slip, id: 'slp_held_retention', file_name: `${'c'.repeat(32)}.png`, status: 'IN_PROGRESS' as const, reference: null, reference_claim: null };
  await t.app.db.insertInto('slips').values(held).execute();
  const heldFile = path.join(t.app.deposits.env.uploadsDir, held.file_name);
  fs.writeFileSync(heldFile, 'x');
  const charges = () => t.app.db.selectFrom('upload_quota_uses').select('id').execute();
  expect((await charges()).length).toBeGreaterThan(0);

  // Within the grace (24 h by default) nothing goes.
  expect(await t.app.uploadRetention.runNow()).toEqual({ chatExpired: 0, chatUnreferenced: 0, strayFiles: 0, slipFiles: 0, charges: 0 });
  expect([sentFile, unsentFile, partial, stray, slipFile, heldFile].map(exists)).toEqual([true, true, true, true, true, true]);

  // A day later: the upload never sent and the stray files are gone; the sent one and the slips stay.
  advance(25 * HOUR);
  const dayLater = await t.app.uploadRetention.runNow();
  expect(dayLater).toMatchObject({ chatUnreferenced: 1, strayFiles: 2, slipFiles: 0 });
  expect([sentFile, unsentFile, partial, stray, slipFile, heldFile].map(exists)).toEqual([true, false, false, false, true, true]);
  expect((await t.app.inject({ method: 'GET', url: unsentUrl })).statusCode).toBe(404);
  expect((await t.app.inject({ method: 'GET', url: sentUrl })).statusCode).toBe(200);
  // The budget charges older than every window (a day) and an hour more are pruned.
  expect(dayLater.charges).toBeGreaterThan(0);
  expect(await charges()).toEqual([]);

  // Past chatRetentionDays (180) the sent picture goes too; the slips stay until slipRetentionDays (400).
  advance(181 * DAY);
  expect(await t.app.uploadRetention.runNow()).toMatchObject({ chatExpired: 1, slipFiles: 0 });
  expect([sentFile, slipFile, heldFile].map(exists)).toEqual([false, true, true]);
  expect(await t.app.db.selectFrom('chat_uploads').select('id').execute()).toEqual([]);
  advance(220 * DAY);
  expect(await t.app.uploadRetention.runNow()).toMatchObject({ slipFiles: 1 });
  // The credited slip's picture is gone, its row (the deposit's record) stays; the held slip keeps its picture.
  expect([slipFile, heldFile].map(exists)).toEqual([false, true]);
  expect(await t.app.db.selectFrom('slips').select('status').where('id', '=', slip.id).executeTakeFirst()).toEqual({ status: 'SUCCESS' });

  // This process runs the timed passes: it holds the job's lease.
  const lease = await t.app.db.selectFrom('job_leases').selectAll().where('name', '=', 'upload-retention').executeTakeFirst();
  expect(lease?.expires_at && lease.expires_at > new Date().toISOString()).toBe(true);
});

test('the retention days are settings (0 keeps for ever)', async () => {
  await writeSettingDoc(t.app.db, 'uploadLimits', { chatRetentionDays: 0, unreferencedHours: 1 });
  const g = await newGuest(t.app);
  const url = (await upload(t.app, 'image', g, { name: 'a.png', bytes: FILES.png })).json().path as string;
  const media = { message: '', message_type: 'media', payload: { message: '', url: true, fileType: 'image', filePath: url } };
  expect((await call(t.app, 'POST', '/api/chat/send-message', g, media)).statusCode).toBe(200);
  const unsent = (await upload(t.app, 'image', g, { name: 'b.png', bytes: FILES.png })).json().path as string;
  advance(2 * HOUR);
  expect(await t.app.uploadRetention.runNow()).toMatchObject({ chatUnreferenced: 1, chatExpired: 0 });
  advance(1000 * DAY);
  expect(await t.app.uploadRetention.runNow()).toMatchObject({ chatExpired: 0 });
  expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: unsent })).statusCode).toBe(404);
});
