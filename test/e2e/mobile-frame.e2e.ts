import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { spaIsStale } from '../../server/spa-build';
import { DEMO_LOGIN, expectAccessible, launchBrowser, pageApi, phoneContext, ROOT, startServer, until, type RunningServer } from './harness';

/**
 * The mobile/iframe build (VARIANT=mobile) inside a host app's page: the host hides the top bar's controls it shows
 * itself and sets the language, hears the route and the balance, and a page at another origin cannot steer the app. The mobile build goes
 * to its own directory (.tmp/e2e-mobile-dist), rebuilt only when the sources are newer; the server serves it
 * (DIST_DIR) with FRAME_ANCESTORS naming the host page's origin.
 */
const MOBILE_DIST = path.join(ROOT, '.tmp', 'e2e-mobile-dist');

type Received = { origin: string; data: { type: string; path?: string; amount?: number } };

/** A tiny web server: the host page (the app in a frame, a recorder of its messages) or a stranger's page. */
async function pageServer(html: (url: URL) => string): Promise<{ origin: string; close(): Promise<void> }> {
  const srv = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html(new URL(req.url ?? '/', 'http://localhost')));
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => srv.close(() => resolve())) };
}

let server: RunningServer;
let host: Awaited<ReturnType<typeof pageServer>>;
let stranger: Awaited<ReturnType<typeof pageServer>>;
let browser: Browser;

beforeAll(async () => {
  if (spaIsStale(ROOT, MOBILE_DIST)) {
    execFileSync('npx', ['webpack', '--mode', 'production', '--output-path', MOBILE_DIST], {
      cwd: ROOT,
      env: { ...process.env, VARIANT: 'mobile' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  stranger = await pageServer(() => '<!doctype html><html lang="en"><title>Stranger</title><body><p>Another site</p></body></html>');
  // The host page names the app's origin when it is asked for, after the server (which needs the host's origin) started.
  host = await pageServer(
    (url) => `<!doctype html><html lang="en"><head><title>Host app</title></head><body>
<iframe name="app" title="Wallet" src="${server.url}${url.searchParams.get('path') ?? '/login'}" style="width:360px;height:640px;border:0"></iframe>
<iframe name="stranger" title="Stranger" src="${stranger.origin}/" style="width:10px;height:10px;border:0"></iframe>
<script>
  window.received = [];
  addEventListener('message', (event) => {
    if (event.source === frames.app) received.push({ origin: event.origin, data: event.data });
  });
  window.sendToApp = (data) => frames.app.postMessage(data, ${JSON.stringify(server.url)});
</script></body></html>`,
  );
  server = await startServer({ DIST_DIR: MOBILE_DIST, FRAME_ANCESTORS: host.origin });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await host?.close();
  await stranger?.close();
});

const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Received[] }).received);
const routes = async (page: Page) => (await received(page)).filter((m) => m.data.type === 'route').map((m) => m.data.path);
const balances = async (page: Page) => (await received(page)).filter((m) => m.data.type === 'balance').map((m) => m.data.amount);
const appFrame = (page: Page): Frame => page.frame({ name: 'app' })!;

test('the host hides the top bar controls it shows itself and sets the language, hears the route and the balance; a stranger cannot steer the app', async () => {
  const context = await phoneContext(browser, { viewport: { width: 400, height: 700 } });
  const page = await context.newPage();
  // The host shows its own language picker: it says so, and which language it runs in, in the frame's address.
  await page.goto(`${host.origin}/?path=${encodeURIComponent('/login?hostControls=language&locale=la')}`);
  const app = page.frameLocator('iframe[name="app"]');
  await app.getByTestId('login-phone').fill(DEMO_LOGIN.phone);
  await app.getByTestId('login-password').fill(DEMO_LOGIN.password);
  await app.getByTestId('login-submit').click();
  await app.getByTestId('agreement-accept').click();
  await until(() => routes(page), (paths) => paths.includes('/user/home'), 'the route message for home');

  const topBar = app.locator('.top-bar');
  await topBar.getByTestId('logout').waitFor();
  expect(await topBar.getByTestId('language-switcher').count()).toBe(0);
  expect(await appFrame(page).evaluate(() => document.documentElement.lang)).toBe('lo');

  // The balance the home screen loaded, then a deposit: a QR paid at the demo bank moves it.
  const [first] = await until(() => balances(page), (list) => list.length > 0, 'a balance message');
  const qr = await pageApi<{ qrcodeId: string }>(appFrame(page) as unknown as Page, 'POST', '/api/qrcode/KBANK', { amount: 300 });
  const paid = await page.request.post(`${server.url}/demo/bank/qr/${qr.qrcodeId}/pay`, { form: {}, maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  await until(() => balances(page), (list) => list.includes(first! + 300), 'the balance after the deposit');

  // A page at an origin FRAME_ANCESTORS does not name asks to hide the logout: ignored. The next navigation's route
  // message (after the stranger's message was delivered) is the point where the top bar is checked.
  await page.frame({ name: 'stranger' })!.evaluate(() => {
    (window.parent.frames as unknown as Record<string, Window>).app.postMessage({ type: 'host-controls', hide: ['logout', 'language'] }, '*');
  });
  await app.locator('.bottom-menu a[href="/user/statement"]').click();
  await until(() => routes(page), (paths) => paths.includes('/user/statement'), 'the route message for the statement');
  await topBar.getByTestId('logout').waitFor();

  // The host itself asks: the logout goes too.
  await page.evaluate(() => (window as unknown as { sendToApp(data: unknown): void }).sendToApp({ type: 'host-controls', hide: ['logout', 'language'] }));
  await topBar.getByTestId('logout').waitFor({ state: 'detached' });
  expect(await topBar.getByTestId('language-switcher').count()).toBe(0);
  // Its language picker switches the app's language.
  await page.evaluate(() => (window as unknown as { sendToApp(data: unknown): void }).sendToApp({ type: 'locale', locale: 'en' }));
  await appFrame(page).waitForFunction(() => document.documentElement.lang === 'en');
  await expectAccessible(page);

  // A reload inside the frame, without the query parameter, keeps what the host asked for this session.
  await appFrame(page).goto(`${server.url}/user/profile`);
  await until(() => routes(page), (paths) => paths.filter((p) => p === '/user/profile').length === 1, 'the route message for the profile');
  await app.locator('.bottom-menu').waitFor();
  expect(await topBar.getByTestId('logout').count()).toBe(0);
  expect(await topBar.getByTestId('language-switcher').count()).toBe(0);

  // Every message came from the app's origin, and only the allowed host heard them (the host page records them).
  const all = await received(page);
  expect(new Set(all.map((m) => m.origin))).toEqual(new Set([server.url]));
  expect(all.map((m) => m.data.type)).toEqual(expect.arrayContaining(['ready', 'route', 'balance']));
  await context.close();
});
