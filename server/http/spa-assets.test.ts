import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { assetCache, isAssetName, pickEncoding } from './spa-assets';

const JS = 'console.log("first screen");'.repeat(20);

describe('the hashed build files, answered from memory', () => {
  let dir: string;
  let app: FastifyInstance;
  let streamed: string[];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-assets-'));
    fs.writeFileSync(path.join(dir, 'main.abc123.js'), JS);
    fs.writeFileSync(path.join(dir, 'main.abc123.js.br'), zlib.brotliCompressSync(JS));
    fs.writeFileSync(path.join(dir, 'main.abc123.js.gz'), zlib.gzipSync(JS));
    fs.writeFileSync(path.join(dir, 'font.abc123.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
    fs.writeFileSync(path.join(dir, 'big.abc123.js'), 'x'.repeat(2000));
    streamed = [];
    const cache = assetCache(
      dir,
      async (_req, reply) => reply.status(404).send({ message: 'NO_DATA' }),
      (reply, name) => {
        streamed.push(name);
        return reply.status(200).send(fs.readFileSync(path.join(dir, name)));
      },
      { fileBytes: 1000, totalBytes: 1_000_000 },
    );
    app = Fastify();
    app.get('/assets/*', cache.handler);
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a file is read once: later answers come from memory even when the disk copy is gone', async () => {
    const first = await app.inject({ url: '/assets/main.abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(first.statusCode).toBe(200);
    for (const f of ['main.abc123.js', 'main.abc123.js.br', 'main.abc123.js.gz']) fs.rmSync(path.join(dir, f));
    for (const [accept, encoding] of [['gzip, br', 'br'], ['gzip', 'gzip'], ['', undefined]] as const) {
      const res = await app.inject({ url: '/assets/main.abc123.js', headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toBe('accept-encoding');
      const body = encoding === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : encoding === 'gzip' ? zlib.gunzipSync(res.rawPayload) : res.rawPayload;
      expect(body.toString()).toBe(JS);
    }
  });

  test('concurrent first requests share one read', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => app.inject({ url: '/assets/font.abc123.woff2' })));
    expect(answers.map((r) => [r.statusCode, r.headers['content-type'], r.rawPayload.length])).toEqual(Array(8).fill([200, 'font/woff2', 4]));
  });

  test('a matching If-None-Match is a 304 without a body', async () => {
    const first = await app.inject({ url: '/assets/main.abc123.js' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await app.inject({ url: '/assets/main.abc123.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await app.inject({ url: '/assets/main.abc123.js', headers: { 'if-none-match': 'W/"0-0"' } })).statusCode).toBe(200);
  });

  test('a file added after the first request is found; a missing one, a path or a source map is not', async () => {
    expect((await app.inject({ url: '/assets/late.abc123.js' })).statusCode).toBe(404);
    fs.writeFileSync(path.join(dir, 'late.abc123.js'), 'late()');
    expect((await app.inject({ url: '/assets/late.abc123.js' })).body).toBe('late()');
    fs.writeFileSync(path.join(dir, 'main.abc123.js.map'), '{"mappings":""}');
    for (const url of ['/assets/main.abc123.js.map', '/assets/..%2fpackage.json', '/assets/.hidden', '/assets/main.abc123.js.br', '/assets/']) {
      expect([url, (await app.inject({ url })).statusCode]).toEqual([url, 404]);
    }
  });

  test('a file over the size limit is streamed, not held', async () => {
    const res = await app.inject({ url: '/assets/big.abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toHaveLength(2000);
    expect(streamed).toEqual(['big.abc123.js']);
  });
});

describe('pickEncoding', () => {
  const both = { br: Buffer.alloc(1), gzip: Buffer.alloc(1) };
  test.each([
    [undefined, both, 'identity'],
    ['gzip, deflate, br', both, 'br'],
    ['br;q=0, gzip', both, 'gzip'],
    ['BR;q=0.5', both, 'br'],
    ['*', both, 'br'],
    ['gzip;q=0', both, 'identity'],
    ['br', { gzip: Buffer.alloc(1) }, 'identity'],
    ['br, gzip', { gzip: Buffer.alloc(1) }, 'gzip'],
  ] as const)('%s with %o sends %s', (accept, asset, expected) => {
    expect(pickEncoding(accept, asset)).toBe(expected);
  });
});

test('isAssetName takes one plain file name and no source map or compressed twin', () => {
  expect(['main.abc123.js', 'noto-sans-thai-400.a1.woff2', '48.12e0.js'].every(isAssetName)).toBe(true);
  expect(['', '.env', '../x.js', 'a/b.js', 'x.js.map', 'x.js.MAP', 'x.js.gz', 'x.js.br', 'x%2f.js'].some(isAssetName)).toBe(false);
});
