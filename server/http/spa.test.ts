import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildTestApp, type TestApp } from '../test/support/helper';
import { MEDIA_DIR, withBootData } from './spa';

const INDEX = '<!doctype html><html><head><script defer src="/assets/main.abc123.js"></script></head><body><div id="root"></div></body></html>';
const STAFF = '<!doctype html><html><head><title>Staff console</title><script defer src="/assets/staff.def456.js"></script></head><body><div id="root"></div></body></html>';
const JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const MAP = JSON.stringify({ version: 3, sources: ['webpack://src/features/wallet/secret.ts'], mappings: 'AAAA' });

function makeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'staff.html'), STAFF);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, 'assets', 'main.abc123.js'), JS);
  fs.writeFileSync(path.join(dir, 'assets', 'main.abc123.js.br'), zlib.brotliCompressSync(JS));
  fs.writeFileSync(path.join(dir, 'assets', 'main.abc123.js.gz'), zlib.gzipSync(JS));
  // Source maps stay in the build for error tracking but are never published.
  fs.writeFileSync(path.join(dir, 'assets', 'main.abc123.js.map'), MAP);
  fs.writeFileSync(path.join(dir, 'assets', 'main.abc123.js.map.gz'), zlib.gzipSync(MAP));
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
/** A served page without its boot data (tested on its own below). */
const withoutBootData = (body: string) => body.replace(/<meta name="boot-data" content="[^"]*">/, '');

describe('with a built SPA', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = makeDist();
    t = await buildTestApp({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  test.each(['/', '/login', '/user/home', '/register?code=PR12', '/howto', '/no/such/page'])('a navigation to %s gets index.html, never cached', async (url) => {
    const res = await t.app.inject({ method: 'GET', url, headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(withoutBootData(res.body)).toBe(INDEX);
  });

  test('a page carries the boot data the first screen draws from: site info, chat switch, site-active switch', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login', headers: html });
    const content = /<meta name="boot-data" content="([^"]*)"><\/head>/.exec(res.body)?.[1];
    expect(content).toBeDefined();
    const data = JSON.parse(unescapeHtml(content!));
    const info = await t.app.inject({ method: 'GET', url: '/api/lookup/info' });
    const chat = await t.app.inject({ method: 'GET', url: '/api/lookup/enableChatWidget' });
    const active = await t.app.inject({ method: 'GET', url: '/api/lookup/active' });
    expect(data).toEqual({ info: info.json(), chat: chat.json(), active: active.json() });
  });

  test.each(['/staff', '/staff/', '/staff/conversations', '/staff/conversations/12?status=closed', '/staff?next=1'])(
    'a navigation to %s gets the staff console page, never cached, never the player app',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(STAFF);
    },
  );

  test('only /staff and what is under it is the console: /staffing and /user/staff are player pages', async () => {
    for (const url of ['/staffing', '/user/staff', '/staff.json']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect([url, res.statusCode, withoutBootData(res.body)]).toEqual([url, 200, INDEX]);
    }
  });

  test('a non-page request under /staff is a JSON 404, like any missing file', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/staff/conversations', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'NO_DATA' });
  });

  test.each(['/api/nope', '/api/lookup/nope', '/api', '/healthz/x', '/demo/x', '/sim/x', '/socket.io/x', '/media/howto/nope.webm', '/media'])(
    'an unknown server path %s is a JSON 404 even for a browser',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'NO_DATA' });
    },
  );

  test('an API call to an unknown route with another method is a JSON 404 too', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/nothing', payload: { a: 1 } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'NO_DATA' });
  });

  test('only page navigations fall back: a missing asset or a non-HTML request is a 404', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/user/home', headers: { accept: 'application/json' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/user/home', headers: html })).statusCode).toBe(404);
  });

  test('hashed assets are immutable and sent pre-compressed as the browser prefers', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/main.abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(JS);

    const gz = await t.app.inject({ method: 'GET', url: '/assets/main.abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(JS);

    const plain = await t.app.inject({ method: 'GET', url: '/assets/main.abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(JS);
  });

  test('unhashed files are revalidated', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  test('a file added after start is served without a restart (wildcard on)', async () => {
    fs.writeFileSync(path.join(dist, 'assets', 'late.def456.js'), 'late()');
    const res = await t.app.inject({ method: 'GET', url: '/assets/late.def456.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('late()');
  });

  test('source maps are not served, in any encoding or spelling', async () => {
    for (const url of ['/assets/main.abc123.js.map', '/assets/main.abc123.js.MAP', '/assets/main.abc123.js.map?x=1', '/assets/main.abc123.js.map.gz', '/assets//main.abc123.js.map', '/assets/%6dain.abc123.js.map']) {
      for (const encoding of ['gzip, br', 'identity']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { accept: '*/*', 'accept-encoding': encoding } });
        expect([url, [403, 404].includes(res.statusCode)]).toEqual([url, true]);
        expect(res.body).not.toContain('mappings');
      }
    }
  });

  test('nothing outside the build is reachable', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(res.body).not.toContain('"scripts"');
    }
  });

  test('the game catalogue images are served from public/games', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/games/pg-logo.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toContain('<svg');
    expect((await t.app.inject({ method: 'GET', url: '/games/nope.svg' })).statusCode).toBe(404);
  });

  test('the how-to media are served from public/media for a day, videos in ranges (206)', async () => {
    const file = path.join(MEDIA_DIR, 'howto', 'wallet.webm');
    const size = fs.statSync(file).size;
    const whole = await t.app.inject({ method: 'GET', url: '/media/howto/wallet.webm' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/webm');
    expect(whole.headers['cache-control']).toBe('public, max-age=86400');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.length).toBe(size);

    const part = await t.app.inject({ method: 'GET', url: '/media/howto/wallet.webm', headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${size}`);
    expect(part.rawPayload).toEqual(fs.readFileSync(file).subarray(0, 100));
    const tail = await t.app.inject({ method: 'GET', url: '/media/howto/wallet.webm', headers: { range: `bytes=${size - 10}-` } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.length).toBe(10);
    const beyond = await t.app.inject({ method: 'GET', url: '/media/howto/wallet.webm', headers: { range: `bytes=${size + 10}-` } });
    expect(beyond.statusCode).toBe(416);

    const captions = await t.app.inject({ method: 'GET', url: '/media/howto/wallet.en.vtt' });
    expect(captions.statusCode).toBe(200);
    expect(captions.headers['content-type']).toMatch(/^text\/vtt/);
    expect(captions.body).toMatch(/^WEBVTT/);
    const poster = await t.app.inject({ method: 'GET', url: '/media/howto/wallet.jpg' });
    expect(poster.headers['content-type']).toBe('image/jpeg');
  });

  test('nothing outside public/media is reachable through /media', async () => {
    for (const url of ['/media/%2e%2e/%2e%2e/package.json', '/media/howto/..%2f..%2f..%2fpackage.json', '/media/howto/..%2f..%2fgames%2fpg-logo.svg']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect([url, res.statusCode >= 400]).toEqual([url, true]);
      expect(res.body).not.toContain('"scripts"');
      expect(res.body).not.toContain('<svg');
    }
  });

  test('API routes still win over the static wildcard', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/lookup/info', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('name');
  });
});

const unescapeHtml = (text: string) => text.replace(/&(quot|lt|gt|amp);/g, (_, e: string) => ({ quot: '"', lt: '<', gt: '>', amp: '&' })[e]!);

describe('withBootData', () => {
  test('goes before </head> as an attribute that no text can end early', () => {
    const name = '"><script>alert(1)</script>&amp;';
    const page = withBootData('<html><head><title>x</title></head><body></body></html>', { info: { name, website: 'w', demo: true } } as never);
    expect(page).toMatch(/^<html><head><title>x<\/title><meta name="boot-data" content="[^"<>]*"><\/head><body><\/body><\/html>$/);
    const content = /content="([^"]*)"/.exec(page)![1];
    expect(JSON.parse(unescapeHtml(content)).info.name).toBe(name);
  });

  test('a page without a head gets it at the end', () => {
    expect(withBootData('<p>x</p>', {})).toBe('<p>x</p><meta name="boot-data" content="{}">');
  });
});

describe('without a build', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-nodist-'));
    t = await buildTestApp({ DIST_DIR: path.join(dist, 'dist') });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  test('a page navigation answers 503 telling the operator to build', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login', headers: html });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('npm run build');
  });

  test('the API keeps working and its 404 stays JSON', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/lookup/banks' })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/x', headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'NO_DATA' });
  });

  test('once the build appears it is served', async () => {
    const d = path.join(dist, 'dist');
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'index.html'), INDEX);
    const res = await t.app.inject({ method: 'GET', url: '/login', headers: html });
    expect(res.statusCode).toBe(200);
    expect(withoutBootData(res.body)).toBe(INDEX);
  });

  test('/staff without its page answers 503 naming the console, even when the player app is built', async () => {
    expect(fs.existsSync(path.join(dist, 'dist', 'index.html'))).toBe(true);
    const res = await t.app.inject({ method: 'GET', url: '/staff/conversations', headers: html });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('staff console');
    expect(res.body).not.toBe(INDEX);

    fs.writeFileSync(path.join(dist, 'dist', 'staff.html'), STAFF);
    const built = await t.app.inject({ method: 'GET', url: '/staff', headers: html });
    expect(built.statusCode).toBe(200);
    expect(built.body).toBe(STAFF);
  });
});
