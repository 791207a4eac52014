import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, expectAccessible, launchBrowser, phoneContext, ROOT, startServer, type RunningServer } from './harness';

/**
 * The installable app (docs/client.md "Installable app"): the service worker registers and controls the page,
 * Chromium finds the app installable, a navigation without a network shows the offline page, the API never
 * comes from the worker, and a new deploy offers "New version available" whose Reload brings the new worker.
 * The server serves a copy of dist/ so the last test can deploy a changed sw.js.
 */
let server: RunningServer;
let browser: Browser;
let dist: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-pwa-dist-'));
  fs.cpSync(path.join(ROOT, 'dist'), dist, { recursive: true });
  // The default per-address rate limit stays on: every fresh context precaches the whole app (about 70 files),
  // and built /assets/ files are outside the limit (server/http/security.ts), so eight installs pass it.
  server = await startServer({ DIST_DIR: dist });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dist) fs.rmSync(dist, { recursive: true, force: true });
});

/** A phone context that lets the app's service worker run (the harness blocks workers by default). */
const pwaContext = (locale = 'en-US') => phoneContext(browser, { serviceWorkers: 'allow', locale });

/** Opens /login and waits until the worker is installed, activated and controls the page. */
async function controlledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByTestId('page-title').waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 30_000 });
  return page;
}

test('the worker registers after load, controls the page and precaches the app but nothing of the API', async () => {
  const context = await pwaContext();
  const scripts: string[] = [];
  context.on('page', (p) => p.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)));
  const page = await controlledPage(context);
  // No new version, no update prompt: workbox-window's chunk is not downloaded.
  expect(scripts.filter((s) => s.includes('sw-client'))).toEqual([]);
  expect(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toBe(`${server.url}/sw.js`);
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    return urls;
  });
  expect(cached).toEqual(expect.arrayContaining(['/offline.html', '/offline.js', '/icons/icon-192.png']));
  expect(cached.some((p) => /^\/assets\/main\.[0-9a-f]+\.js$/.test(p))).toBe(true);
  const never = cached.filter((p) => /^\/(?:api|demo|sim|socket\.io|media|staff)(?:[/.]|$)|\.(?:gz|br|map)$|^\/index\.html$/.test(p));
  expect(never).toEqual([]);
  await context.close();
});

test("Chromium's installability check passes and the manifest carries the operator's name", async () => {
  // Not incognito (browser.newContext() is, and Chromium never offers to install from incognito): a profile on disk.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'allow',
  });
  try {
    const page = await controlledPage(context);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const info = await page.evaluate(() => fetch('/api/lookup/info').then((r) => r.json()));
    expect(JSON.parse(manifest.data!)).toMatchObject({ name: info.name, display: 'standalone', start_url: '/' });
    // The favicon is a small PNG: an SVG one is decoded as a whole SVG document on the page's main thread.
    const icon = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')!.href;
      const res = await fetch(href);
      const bitmap = await createImageBitmap(await res.blob());
      return { type: res.headers.get('content-type'), width: bitmap.width };
    });
    expect(icon).toEqual({ type: 'image/png', width: 32 });
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('API requests go to the network, never to the worker: offline they fail instead of answering from a cache', async () => {
  const context = await pwaContext();
  const page = await controlledPage(context);
  const apiResponses: { url: string; fromServiceWorker: boolean }[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiResponses.push({ url: r.url(), fromServiceWorker: r.fromServiceWorker() });
  });
  // A controlled page's own API call (the login screen makes none of its own: the page carries its lookups).
  await page.reload();
  await page.getByTestId('page-title').waitFor();
  await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/lookup/info'),
    page.evaluate(async () => (await fetch('/api/lookup/info')).text()),
  ]);
  expect(apiResponses.length).toBeGreaterThan(0);
  expect(apiResponses.filter((r) => r.fromServiceWorker)).toEqual([]);
  // A script the worker serves, for contrast: the precache answers it.
  const assetFromWorker = await page.evaluate(async () => {
    const main = [...document.scripts].map((s) => s.src).find((src) => /\/assets\/main\./.test(src))!;
    return (await fetch(main)).headers.get('content-type');
  });
  expect(assetFromWorker).toMatch(/javascript/);

  await context.setOffline(true);
  const offlineApi = await page.evaluate(() =>
    fetch('/api/lookup/info').then(
      (r) => `answered ${r.status}`,
      () => 'failed',
    ),
  );
  expect(offlineApi).toBe('failed');
  await context.setOffline(false);
  await context.close();
});

test.each([
  ['th-TH', 'th', 'ไม่มีการเชื่อมต่ออินเทอร์เน็ต', 'ลองอีกครั้ง'],
  ['lo-LA', 'lo', 'ບໍ່ມີການເຊື່ອມຕໍ່ອິນເຕີເນັດ', 'ລອງໃໝ່'],
  ['en-GB', 'en', 'No connection', 'Try again'],
])('with the network cut a navigation shows the offline page in the browser language (%s), Try again asks again and opens the app once back online', async (locale, lang, title, retry) => {
  const context = await pwaContext(locale);
  const page = await controlledPage(context);
  await page.evaluate(() => localStorage.clear()); // no language chosen in the app: the browser's decides
  await context.setOffline(true);
  await page.goto(`${server.url}/user/home`);
  await page.getByRole('heading', { name: title }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
  expect(page.url()).toBe(`${server.url}/user/home`);
  await expectAccessible(page);

  // Try again while still offline: the page asks again and gets the offline page again.
  await page.evaluate(() => ((window as unknown as { asked: boolean }).asked = true));
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: retry }).click()]);
  await page.getByRole('heading', { name: title }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { asked?: boolean }).asked)).toBeUndefined();
  // Back online, Try again opens the app (no session: the guard sends it to /login).
  await context.setOffline(false);
  await page.getByRole('button', { name: retry }).click();
  await page.waitForURL(/\/login(\?|$)/);
  await page.getByTestId('page-title').waitFor();
  await context.close();
});

test("the offline page speaks the language the player chose in the app, whatever the browser's", async () => {
  const context = await pwaContext('en-US');
  const page = await controlledPage(context);
  await page.getByTestId('language-switcher').selectOption('la');
  await page.waitForFunction(() => document.documentElement.lang === 'lo');
  await context.setOffline(true);
  await page.goto(`${server.url}/user/statement`);
  await page.getByRole('heading', { name: 'ບໍ່ມີການເຊື່ອມຕໍ່ອິນເຕີເນັດ' }).waitFor();
  await context.close();
});

test('a new deploy offers "New version available"; Reload lets the new worker in and reloads the page once', async () => {
  const context = await pwaContext();
  const page = await controlledPage(context);
  await page.getByTestId('language-switcher').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');

  // Deploy: a changed sw.js (its compressed twins would still be the old one).
  const sw = path.join(dist, 'sw.js');
  fs.writeFileSync(sw, `${fs.readFileSync(sw, 'utf8')}\n// deploy ${Date.now()}\n`);
  for (const twin of ['sw.js.gz', 'sw.js.br']) fs.rmSync(path.join(dist, twin), { force: true });
  // The new version loads the prompt's chunk (workbox-window), which the first visit never downloaded.
  const promptChunk = page.waitForRequest((r) => r.url().includes('/assets/sw-client.'));
  await page.evaluate(() => {
    (window as unknown as { beforeReload: boolean }).beforeReload = true;
    return navigator.serviceWorker.getRegistration().then((r) => r!.update());
  });

  const prompt = page.getByRole('alert').filter({ hasText: 'New version available' });
  await promptChunk;
  await prompt.waitFor();
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => Boolean(r!.waiting)))).toBe(true);
  await expectAccessible(page);

  await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
  await page.getByTestId('page-title').waitFor();
  expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).toBeUndefined();
  const after = await page.evaluate(async () => {
    const r = (await navigator.serviceWorker.getRegistration())!;
    return { waiting: Boolean(r.waiting), controller: navigator.serviceWorker.controller?.scriptURL, active: r.active?.scriptURL };
  });
  // With this page open, the new worker could only have left `waiting` through the prompt's skipWaiting.
  expect(after).toEqual({ waiting: false, controller: `${server.url}/sw.js`, active: `${server.url}/sw.js` });
  // No second prompt after the reload: the page runs the new worker's version.
  expect(await page.getByText('New version available').count()).toBe(0);
  await context.close();
});
