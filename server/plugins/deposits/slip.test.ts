import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { buildTestApp, openSlipsAllDay, type TestApp } from '../../test/support/helper';
import { SETTINGS } from '../../db/seed';
import { writeSetting } from '../../settings';
import { makeSlipJpeg, makeSlipPng } from './domain/slip-image';
import { makeTransfer, slipFor, type ReceiverChoice } from '../../simulators/demo-bank/bank-service';
import { balanceOf, coinsOf, createPlayer, expectLedgerOk, multipart, type TestPlayer } from '../../test/support/deposits';
import { up as releaseNotMatchClaims } from '../../db/migrations/202611260002_slip_claims';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A transfer the demo bank made, and the slip image it hands out. */
async function slip(from: TestPlayer, amount: string, opts: { receiver?: ReceiverChoice; minutesAgo?: number; jpeg?: boolean } = {}) {
  const made = await makeTransfer(t.app, { playerId: from.id, amount, receiver: opts.receiver ?? 'account', minutesAgo: opts.minutesAgo ?? 0 });
  if (!made.ok) throw new Error(made.error);
  const input = (await slipFor(t.app, made.transRef))!;
  return { ref: made.transRef, bytes: opts.jpeg ? makeSlipJpeg(input) : makeSlipPng(input) };
}

function upload(player: TestPlayer, bytes: Buffer, opts: { filename?: string; contentType?: string; field?: string; key?: string } = {}) {
  const body = multipart([{ name: opts.field ?? 'file', filename: opts.filename ?? 'slip.png', contentType: opts.contentType ?? 'image/png', data: bytes }]);
  const key = opts.key ? { 'idempotency-key': opts.key } : {};
  return t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...player.headers, ...key, 'content-type': body.contentType }, payload: body.payload });
}
const slipRows = (playerId: number) => t.app.db.selectFrom('slips').selectAll().where('player_id', '=', playerId).orderBy('created_at').execute();
/** Tuples in a fixed order: two uploads in one millisecond share created_at, so the order of rows is no evidence. */
const sortTuples = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r) as unknown[]);
const sortedRows = async (playerId: number, pick: (r: Awaited<ReturnType<typeof slipRows>>[number]) => unknown[]) => sortTuples((await slipRows(playerId)).map(pick));

test('a slip of a transfer from the registered account to the operator is credited once', async () => {
  const p = await createPlayer(t.app);
  const s = await slip(p, '500.50');
  const res = await upload(p, s.bytes);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ message: 'SUCCESS', slip: { status: 'SUCCESS', amount: 500.5, note: null, reference: s.ref } });
  expect(await balanceOf(t.app, p.id)).toBe(50050);
  expect(await coinsOf(t.app, p.id)).toBe(1);
  const st = await t.app.db.selectFrom('statements').selectAll().where('player_id', '=', p.id).execute();
  expect(st).toMatchObject([{ statement_type: 'deposit', status: 'SUCCESS', from_account: 'KBANK', to_account: 'WALLET', ref_id: `slip:${s.ref}` }]);
  // Stored outside the web root under a random name, byte for byte.
  const [row] = await slipRows(p.id);
  const stored = path.join(t.app.deposits.env.uploadsDir, row.file_name);
  expect(stored.startsWith(path.join(t.db.dataDir, 'uploads', 'slips'))).toBe(true);
  expect(row.file_name).toMatch(/^[0-9a-f]{32}\.png$/);
  expect(fs.readFileSync(stored).equals(s.bytes)).toBe(true);
  await expectLedgerOk(t.app);
});

test('a JPEG slip to the PromptPay id is credited too', async () => {
  const p = await createPlayer(t.app);
  const s = await slip(p, '42', { receiver: 'promptpay', jpeg: true });
  const res = await upload(p, s.bytes, { filename: 'photo.jpg', contentType: 'image/jpeg' });
  expect(res.json()).toMatchObject({ slip: { status: 'SUCCESS', amount: 42 } });
  expect(await coinsOf(t.app, p.id)).toBe(0);
});

test('the same slip again is SLIP_REFNO_DUPLICATED, for anyone, and is recorded', async () => {
  const p = await createPlayer(t.app);
  const other = await createPlayer(t.app);
  const s = await slip(p, '100');
  expect((await upload(p, s.bytes)).statusCode).toBe(200);
  for (const who of [p, other]) {
    const res = await upload(who, s.bytes);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'SLIP_REFNO_DUPLICATED' });
  }
  expect(await balanceOf(t.app, p.id)).toBe(10000);
  expect(await balanceOf(t.app, other.id)).toBe(0);
  expect(await sortedRows(p.id, (r) => [r.status, r.note])).toEqual(sortTuples([['SUCCESS', null], ['FAILED', 'SLIP_REFNO_DUPLICATED']]));
});

test('one slip uploaded 5 times at once is credited once', async () => {
  const p = await createPlayer(t.app);
  const s = await slip(p, '250');
  const answers = await Promise.all(Array.from({ length: 5 }, () => upload(p, s.bytes)));
  expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
  expect(await balanceOf(t.app, p.id)).toBe(25000);
  await expectLedgerOk(t.app);
});

test('older than the upload window: EXPIRED_SLIP', async () => {
  const p = await createPlayer(t.app);
  const s = await slip(p, '100', { minutesAgo: 61 });
  const res = await upload(p, s.bytes);
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({ message: 'EXPIRED_SLIP' });
  expect(await balanceOf(t.app, p.id)).toBe(0);
  expect((await slipRows(p.id))[0]).toMatchObject({ status: 'FAILED', note: 'EXPIRED_SLIP', reference: s.ref });
  // Decided on its content: uploading it again is a duplicate.
  expect((await upload(p, s.bytes)).json()).toEqual({ message: 'SLIP_REFNO_DUPLICATED' });
});

test('paid to someone else: DEST_ACC_INVALID', async () => {
  const p = await createPlayer(t.app);
  const s = await slip(p, '100', { receiver: 'other' });
  const res = await upload(p, s.bytes);
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({ message: 'DEST_ACC_INVALID' });
  expect(await balanceOf(t.app, p.id)).toBe(0);
});

test("another player's transfer: NOT_MATCH", async () => {
  const p = await createPlayer(t.app);
  const payer = await createPlayer(t.app);
  const s = await slip(payer, '100');
  const res = await upload(p, s.bytes);
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({ message: 'NOT_MATCH' });
  expect(await balanceOf(t.app, p.id)).toBe(0);
});

describe("a slip's reference is claimed by a credit, not by another player's NOT_MATCH (issue 11)", () => {
  async function setRules(rules: object | null) {
    await t.app.db.deleteFrom('settings').where('key', '=', 'depositRules').execute();
    if (rules) await t.app.db.insertInto('settings').values({ key: 'depositRules', value: JSON.stringify(rules), updated_at: new Date().toISOString() }).execute();
  }
  const listOf = async (p: TestPlayer) =>
    (await t.app.inject({ method: 'POST', url: '/api/statement/slip', headers: p.headers, payload: { page: 1, limit: 100 } })).json();

  test("A uploads B's slip: NOT_MATCH, recorded against A; B uploads it: credited; A again: SLIP_REFNO_DUPLICATED", async () => {
    const a = await createPlayer(t.app);
    const b = await createPlayer(t.app);
    const s = await slip(b, '300');
    const first = await upload(a, s.bytes);
    expect([first.statusCode, first.json()]).toEqual([422, { message: 'NOT_MATCH' }]);
    // Recorded against A for review, in A's own slip history.
    expect(await slipRows(a.id)).toMatchObject([{ status: 'FAILED', note: 'NOT_MATCH', reference: s.ref }]);
    expect((await listOf(a)).slips).toMatchObject([{ status: 'FAILED', note: 'NOT_MATCH', reference: s.ref }]);

    const own = await upload(b, s.bytes);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ message: 'SUCCESS', slip: { status: 'SUCCESS', amount: 300, reference: s.ref } });
    expect(await balanceOf(t.app, b.id)).toBe(30000);

    // Once credited the reference is claimed: anyone, A included, gets the duplicate answer.
    const again = await upload(a, s.bytes);
    expect([again.statusCode, again.json()]).toEqual([409, { message: 'SLIP_REFNO_DUPLICATED' }]);
    expect(await balanceOf(t.app, a.id)).toBe(0);
    await expectLedgerOk(t.app);
  });

  test("A's NOT_MATCH uploads racing B's own upload of the slip do not block B", async () => {
    const a = await createPlayer(t.app);
    const b = await createPlayer(t.app);
    const s = await slip(b, '75');
    const [own, ...others] = await Promise.all([upload(b, s.bytes), upload(a, s.bytes), upload(a, s.bytes)]);
    expect(own.statusCode).toBe(200);
    for (const r of others) expect([[422, 'NOT_MATCH'], [409, 'SLIP_REFNO_DUPLICATED']]).toContainEqual([r.statusCode, r.json().message]);
    expect(await balanceOf(t.app, b.id)).toBe(7500);
    expect(await balanceOf(t.app, a.id)).toBe(0);
    await expectLedgerOk(t.app);
  });

  test('migration 202611260002 releases the claims NOT_MATCH slips took before, and only those', async () => {
    const a = await createPlayer(t.app);
    const b = await createPlayer(t.app);
    const s = await slip(b, '55');
    const expired = await slip(b, '56', { minutesAgo: 61 });
    const now = new Date().toISOString();
    const old = { player_id: a.id, status: 'FAILED' as const, amount: 0, currency: 'THB', sending_bank: '004', file_name: 'x.png', content_type: 'image/png', size: 1, sender_account: null, receiver_account: null, transferred_at: null, created_at: now, updated_at: now };
    // What the old rule left behind: A's NOT_MATCH upload holding B's reference.
    await t.app.db.insertInto('slips').values({ ...old, id: 'slp_old_not_match', note: 'NOT_MATCH', reference: s.ref, reference_claim: s.ref }).execute();
    await t.app.db.insertInto('slips').values({ ...old, id: 'slp_old_expired', note: 'EXPIRED_SLIP', reference: expired.ref, reference_claim: expired.ref }).execute();
    expect((await upload(b, s.bytes)).json()).toEqual({ message: 'SLIP_REFNO_DUPLICATED' });
    await releaseNotMatchClaims(t.app.db);
    expect((await upload(b, s.bytes)).statusCode).toBe(200);
    expect(await balanceOf(t.app, b.id)).toBe(5500);
    expect(await t.app.db.selectFrom('slips').select(['status', 'note']).where('id', '=', 'slp_old_not_match').executeTakeFirst()).toEqual({ status: 'FAILED', note: 'NOT_MATCH' });
    expect((await upload(b, expired.bytes)).json()).toEqual({ message: 'SLIP_REFNO_DUPLICATED' });
  });

  test('after 5 NOT_MATCH uploads in an hour a player gets 429 REQUEST_LIMIT for any slip, nothing stored, until the hour has passed', async () => {
    const a = await createPlayer(t.app);
    const b = await createPlayer(t.app);
    const theirs = await slip(b, '20');
    for (let i = 0; i < 5; i++) expect((await upload(a, theirs.bytes)).json()).toEqual({ message: 'NOT_MATCH' });
    const over = await upload(a, theirs.bytes);
    expect([over.statusCode, over.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
    const mine = await slip(a, '10');
    expect((await upload(a, mine.bytes)).json()).toEqual({ message: 'REQUEST_LIMIT' });
    expect(await slipRows(a.id)).toHaveLength(5);
    const files = fs.readdirSync(t.app.deposits.env.uploadsDir);
    for (const r of await slipRows(a.id)) expect(files).toContain(r.file_name);
    // The limit is the uploader's: the owner is credited meanwhile.
    expect((await upload(b, theirs.bytes)).statusCode).toBe(200);

    const real = t.app.clock.now;
    // Any hour will do: the test app has no closed hours for slips (openSlipsAllDay).
    const later = new Date(Date.now() + 61 * 60_000);
    t.app.clock.now = () => later;
    try {
      const fresh = await slip(a, '10');
      const res = await upload(a, fresh.bytes);
      expect(res.statusCode).toBe(200);
      expect(await balanceOf(t.app, a.id)).toBe(1000);
    } finally {
      t.app.clock.now = real;
    }
  });

  test('the limit is configurable (depositRules.slipNotMatchLimit) and parallel uploads cannot pass it', async () => {
    await setRules({ slipNotMatchLimit: 3 });
    try {
      const a = await createPlayer(t.app);
      const b = await createPlayer(t.app);
      const theirs = await slip(b, '20');
      const answers = await Promise.all(Array.from({ length: 7 }, () => upload(a, theirs.bytes)));
      expect(answers.map((r) => `${r.statusCode} ${r.json().message}`).sort()).toEqual([
        '422 NOT_MATCH', '422 NOT_MATCH', '422 NOT_MATCH', '429 REQUEST_LIMIT', '429 REQUEST_LIMIT', '429 REQUEST_LIMIT', '429 REQUEST_LIMIT',
      ]);
      expect((await slipRows(a.id)).map((r) => r.note)).toEqual(['NOT_MATCH', 'NOT_MATCH', 'NOT_MATCH']);
    } finally {
      await setRules(null);
    }
  });
});

test('unreadable images and slips the bank does not know are INVALID_SLIP, and recorded', async () => {
  const p = await createPlayer(t.app);
  const blank = new PNG({ width: 200, height: 300 });
  blank.data.fill(255);
  const res = await upload(p, PNG.sync.write(blank));
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({ message: 'INVALID_SLIP' });
  const forged = makeSlipPng({ sendingBank: '004', transRef: 'NEVERHAPPENED01', amountSatang: 1_000_000 });
  expect((await upload(p, forged)).json()).toEqual({ message: 'INVALID_SLIP' });
  expect(await sortedRows(p.id, (r) => [r.status, r.note, r.reference])).toEqual(
    sortTuples([
      ['FAILED', 'INVALID_SLIP', null],
      ['FAILED', 'INVALID_SLIP', 'NEVERHAPPENED01'],
    ]),
  );
  expect(await balanceOf(t.app, p.id)).toBe(0);
});

test('an Idempotency-Key replays the same slip and refuses another file under that key (KEY_INVALID)', async () => {
  const p = await createPlayer(t.app);
  const first = await slip(p, '30');
  const second = await slip(p, '40');
  const a = await upload(p, first.bytes, { key: 'slip-key-1' });
  expect(a.statusCode).toBe(200);
  const replay = await upload(p, first.bytes, { key: 'slip-key-1' });
  expect(replay.statusCode).toBe(200);
  expect(replay.json()).toEqual(a.json());
  const other = await upload(p, second.bytes, { key: 'slip-key-1' });
  expect(other.statusCode).toBe(409);
  expect(other.json()).toEqual({ message: 'KEY_INVALID' });
  expect(await balanceOf(t.app, p.id)).toBe(3000);
  expect(await slipRows(p.id)).toHaveLength(1);
});

test('a PDF renamed .png is SLIP_INVALID_FILE and nothing is stored', async () => {
  const p = await createPlayer(t.app);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
  const res = await upload(p, pdf, { filename: 'slip.png', contentType: 'image/png' });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ message: 'SLIP_INVALID_FILE' });
  expect(await slipRows(p.id)).toHaveLength(0);
});

test('no file: SLIP_NO_FILE; too big: SLIP_INVALID_FILE (413); no token: 401', async () => {
  const p = await createPlayer(t.app);
  const s = await slip(p, '10');
  expect((await upload(p, s.bytes, { field: 'image' })).json()).toEqual({ message: 'SLIP_NO_FILE' });
  expect((await upload(p, Buffer.alloc(0))).json()).toEqual({ message: 'SLIP_NO_FILE' });
  const json = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: p.headers, payload: { file: 'x' } });
  expect(json.statusCode).toBe(400);
  expect(json.json()).toEqual({ message: 'SLIP_NO_FILE' });
  const big = Buffer.concat([s.bytes, Buffer.alloc(5 * 1024 * 1024)]);
  const res = await upload(p, big);
  expect(res.statusCode).toBe(413);
  expect(res.json()).toEqual({ message: 'SLIP_INVALID_FILE' });
  expect((await t.app.inject({ method: 'POST', url: '/api/wallet/slip' })).statusCode).toBe(401);
  expect(await balanceOf(t.app, p.id)).toBe(0);
});

test('uploads are refused in the closed hours of the slip setting', async () => {
  const p = await createPlayer(t.app);
  const s = await slip(p, '10');
  const real = t.app.clock.now;
  // The seeded 23:50-00:10 closing (the test app opens slips all day); 23:55 in Bangkok is inside it.
  await writeSetting(t.app.db, 'slip', SETTINGS.slip);
  t.app.clock.now = () => new Date('2026-11-25T16:55:00Z');
  try {
    const res = await upload(p, s.bytes);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'SLIP_UPLOAD_FAIL' });
  } finally {
    t.app.clock.now = real;
    await openSlipsAllDay(t.app.db);
  }
  expect(await slipRows(p.id)).toHaveLength(0);
});

test('the slip list and the image behind its player-scoped link', async () => {
  const p = await createPlayer(t.app);
  const other = await createPlayer(t.app);
  const good = await slip(p, '120');
  await upload(p, good.bytes);
  await upload(p, good.bytes);
  const list = await t.app.inject({ method: 'POST', url: '/api/statement/slip', headers: p.headers, payload: { page: 1, limit: 10 } });
  expect(list.statusCode).toBe(200);
  const { slips, total } = list.json();
  expect(total).toBe(2);
  expect(slips.map((x: { status: string; note: string | null; amount: number }) => [x.status, x.note, x.amount])).toEqual([
    ['FAILED', 'SLIP_REFNO_DUPLICATED', 0],
    ['SUCCESS', null, 120],
  ]);
  expect(slips[1]).toMatchObject({ reference: good.ref, createdAt: expect.any(String), link: expect.stringMatching(/^\/api\/statement\/slip\/image\//) });
  expect((await t.app.inject({ method: 'POST', url: '/api/statement/slip', headers: p.headers, payload: { page: 2, limit: 1 } })).json().slips).toHaveLength(1);
  expect((await t.app.inject({ method: 'POST', url: '/api/statement/slip', headers: other.headers, payload: { page: 1, limit: 10 } })).json()).toEqual({ total: 0, slips: [] });

  const ref = await t.app.inject({ method: 'GET', url: `/api/statement/slip/reference/${good.ref}`, headers: p.headers });
  expect(ref.statusCode).toBe(200);
  const img = await t.app.inject({ method: 'GET', url: ref.json().url });
  expect(img.statusCode).toBe(200);
  expect(img.headers['content-type']).toBe('image/png');
  expect(img.headers['x-content-type-options']).toBe('nosniff');
  expect(img.rawPayload.equals(good.bytes)).toBe(true);

  expect((await t.app.inject({ method: 'GET', url: `/api/statement/slip/reference/${good.ref}`, headers: other.headers })).statusCode).toBe(404);
  const url = new URL(ref.json().url, 'http://x');
  url.searchParams.set('p', String(other.id));
  expect((await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).statusCode).toBe(401);
  const expired = new URL(ref.json().url, 'http://x');
  expired.searchParams.set('exp', '1');
  expect((await t.app.inject({ method: 'GET', url: `${expired.pathname}${expired.search}` })).statusCode).toBe(401);
});
