import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PNG } from 'pngjs';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { writeSetting } from '../../settings';
import { ICONS, ICONS_DIR, SAFE_ZONE_RADIUS } from '../../../scripts/draw-icons';
import { shortName } from './manifest';
import { SERVER_PREFIXES } from '../spa';
import { NEVER_HANDLED_PREFIXES } from '../../../src/app/pwa/swRules';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PUBLIC = path.join(ROOT, 'public');
const SW = `self.__WB_MANIFEST;${'/* sw */'.repeat(400)}`;

/** A dist/ holding what the production build copies from public/ (the real files) and a stand-in sw.js. */
function makeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-pwa-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
  fs.copyFileSync(path.join(PUBLIC, 'offline.html'), path.join(dir, 'offline.html'));
  fs.copyFileSync(path.join(PUBLIC, 'offline.js'), path.join(dir, 'offline.js'));
  fs.mkdirSync(path.join(dir, 'icons'));
  for (const icon of ICONS) fs.copyFileSync(path.join(ICONS_DIR, icon.file), path.join(dir, 'icons', icon.file));
  fs.writeFileSync(path.join(dir, 'sw.js'), SW);
  fs.writeFileSync(path.join(dir, 'sw.js.gz'), zlib.gzipSync(SW));
  return dir;
}

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

const manifest = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-cache');
  return res.json();
};

test('the manifest names the operator (setting info, as GET /api/lookup/info) and has what installing needs', async () => {
  const info = (await t.app.inject({ method: 'GET', url: '/api/lookup/info' })).json();
  expect(await manifest()).toEqual({
    id: '/',
    name: info.name,
    short_name: shortName(info.name),
    description: expect.any(String),
    lang: 'th',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#f4f6f5',
    theme_color: '#0b6e4f',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  });
});

test('a rename by the operator shows in the next manifest; a long name gets a short launcher label', async () => {
  await writeSetting(t.db.db, 'info', { name: 'ร้านใหม่', website: 'https://new.example' });
  expect(await manifest()).toMatchObject({ name: 'ร้านใหม่', short_name: 'ร้านใหม่' });
  await writeSetting(t.db.db, 'info', { name: 'Golden Lotus Wallet', website: 'https://new.example' });
  expect(await manifest()).toMatchObject({ name: 'Golden Lotus Wallet', short_name: 'Golden' });
  expect((await t.app.inject({ method: 'GET', url: '/api/lookup/info' })).json().name).toBe('Golden Lotus Wallet');
});

test('short_name: the whole name up to 12 characters, else the first word, else 12 characters', () => {
  expect(shortName('Demo Wallet')).toBe('Demo Wallet');
  expect(shortName('Golden Lotus Wallet')).toBe('Golden');
  expect(shortName('Supercalifragilistic Wallet')).toBe('Supercalifra');
  expect(shortName('ກະເປົາເງິນລາວ ທົດລອງ')).toBe([...'ກະເປົາເງິນລາວ'].slice(0, 12).join(''));
});

test('without an info setting the manifest still answers, with the default name', async () => {
  await t.db.db.deleteFrom('settings').where('key', '=', 'info').execute();
  expect(await manifest()).toMatchObject({ name: 'Player Wallet', short_name: 'Player' });
});

test.each(ICONS)('the manifest icon $file is served as image/png of its listed size', async ({ file, size }) => {
  const res = await t.app.inject({ method: 'GET', url: `/icons/${file}` });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  const png = PNG.sync.read(res.rawPayload);
  expect([png.width, png.height]).toEqual([size, size]);
});

test('the committed icons are what scripts/draw-icons.ts draws (re-run it after changing the drawing)', () => {
  // In a child process: jest's sandbox runs the 4 x 4-sampled drawing about 20 times slower than node does.
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/draw-icons.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
  expect(out).toMatch(/is what scripts\/draw-icons.ts draws/);
});

test('the maskable icon is opaque to every edge and its white mark stays inside the safe zone', () => {
  const png = PNG.sync.read(fs.readFileSync(path.join(ICONS_DIR, 'maskable-512.png')));
  const c = png.width / 2;
  let marked = 0;
  let transparent = 0;
  let outside = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (png.data[i + 3] !== 255) transparent++;
      if (png.data[i] > 0x40) {
        // white (anti-aliased edges included): the green's red channel is 0x0b
        marked++;
        if (Math.hypot(x + 0.5 - c, y + 0.5 - c) > SAFE_ZONE_RADIUS * png.width) outside++;
      }
    }
  }
  expect({ transparent, outside }).toEqual({ transparent: 0, outside: 0 });
  expect(marked).toBeGreaterThan(png.width * png.height * 0.08);
});

test('the "any" icons are a green square with transparent rounded corners', () => {
  const png = PNG.sync.read(fs.readFileSync(path.join(ICONS_DIR, 'icon-192.png')));
  expect(png.data[3]).toBe(0);
  const mid = (96 * 192 + 4) * 4; // left edge, half way down
  expect([...png.data.subarray(mid, mid + 4)]).toEqual([0x0b, 0x6e, 0x4f, 255]);
});

test('sw.js is revalidated on every use and may control the whole site, compressed or not; the CSP lets it run', async () => {
  for (const acceptEncoding of ['identity', 'gzip']) {
    const res = await t.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': acceptEncoding } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/worker-src 'self'/);
    expect(csp).toMatch(/manifest-src 'self'/);
  }
  const page = await t.app.inject({ method: 'GET', url: '/offline.js' });
  expect(page.headers['service-worker-allowed']).toBeUndefined();
});

test('the offline page is served, revalidated, and keeps to the CSP (no inline script or handler)', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/offline.html' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(String(res.headers['content-security-policy'])).toMatch(/script-src 'self'/);
  const scripts = [...res.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
  expect(scripts).toEqual([' defer src="/offline.js"']);
  expect(res.body).not.toMatch(/\son[a-z]+=/i);
  expect(res.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//); // nothing from another host
  const js = await t.app.inject({ method: 'GET', url: '/offline.js' });
  expect(js.statusCode).toBe(200);
  for (const text of ['ไม่มีการเชื่อมต่ออินเทอร์เน็ต', 'ບໍ່ມີການເຊື່ອມຕໍ່ອິນເຕີເນັດ', 'No connection']) expect(js.body).toContain(text);
});

test('the service worker leaves every server path alone (src/app/pwa/swRules.ts), and the staff console', () => {
  expect(NEVER_HANDLED_PREFIXES).toEqual(expect.arrayContaining([...SERVER_PREFIXES, '/staff']));
});
