import zlib from 'node:zlib';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createPlayer, multipart } from '../../test/support/deposits';
import { MAX_SLIP_BYTES, readSlip, SlipReadError } from './domain/slip-qr';

/**
 * Issue 39 row 2: a PNG bomb. An interlaced PNG whose header announces a picture within the 24 MP guard, carrying a
 * zlib stream of zeros that inflates to hundreds of megabytes: pngjs's interlaced path inflates it without a bound.
 * Four at once grew the server by gigabytes; with the header checked first they are refused before any decoding.
 */
const MB = 1024 * 1024;

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real interlaced RGBA PNG of width x height whose one IDAT inflates to `inflatedMb` megabytes of zeros. */
async function pngBomb(width: number, height: number, inflatedMb: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 1], 8); // 8-bit RGBA, deflate, adaptive filter, Adam7 interlace
  // Streamed through deflate a megabyte at a time, so the test itself never holds the inflated size.
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(MB);
  for (let i = 0; i < inflatedMb; i++) if (!deflate.write(zeros)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await done;
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(out)), chunk('IEND', Buffer.alloc(0))]);
}

let t: TestApp;
let bomb: Buffer;
beforeAll(async () => {
  t = await buildTestApp();
  // 4000 x 6000 = 24 MP: exactly what the pixel guard lets through; 700 MB once inflated, 0.7 MB as a file.
  bomb = await pngBomb(4000, 6000, 700);
});
afterAll(() => t.close());

test('the bomb is a small, well-formed file within the size and pixel guards (the test proves something)', () => {
  expect(bomb.length).toBeLessThan(MAX_SLIP_BYTES);
  expect(bomb.readUInt32BE(16) * bomb.readUInt32BE(20)).toBeLessThanOrEqual(24e6);
  expect(zlib.inflateSync(bomb.subarray(41, 41 + 64 * 1024), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length).toBeGreaterThan(MB);
});

test('four PNG bombs uploaded at once grow the process by under 300 MB and each answers 4xx', async () => {
  const players = await Promise.all([1, 2, 3, 4].map(() => createPlayer(t.app)));
  const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: bomb }]);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  let answers: Awaited<ReturnType<typeof t.app.inject>>[] = [];
  try {
    answers = await Promise.all(
      players.map((p) =>
        t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...p.headers, 'content-type': body.contentType }, payload: body.payload }),
      ),
    );
    peak = Math.max(peak, process.memoryUsage().rss);
  } finally {
    clearInterval(sampler);
  }
  expect(Math.round((peak - before) / MB)).toBeLessThan(300);
  expect(answers.every((a) => a.statusCode >= 400 && a.statusCode < 500)).toBe(true);
  expect(answers.map((a) => [a.statusCode, a.json()])).toEqual(players.map(() => [422, { message: 'IMG_SIZE_UNABLE_TO_PROCESS' }]));
  // Recorded like any unreadable slip, in each uploader's history (and counted toward their slip limit).
  const rows = await t.app.db.selectFrom('slips').select(['status', 'note']).where('player_id', 'in', players.map((p) => p.id)).execute();
  expect(rows).toEqual(players.map(() => ({ status: 'FAILED', note: 'IMG_SIZE_UNABLE_TO_PROCESS' })));
});

test('a slip reader refuses the bomb by its header too, whoever calls it', () => {
  let code: string | null = null;
  try {
    readSlip(bomb, MAX_SLIP_BYTES);
  } catch (e) {
    code = e instanceof SlipReadError ? e.code : String(e);
  }
  expect(code).toBe('IMG_SIZE_UNABLE_TO_PROCESS');
});
