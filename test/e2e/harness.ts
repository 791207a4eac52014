import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import SQLite from 'better-sqlite3';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  /** Runs the operator CLI against this server's database. */
  operator(...args: string[]): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  output(): string;
}

/** Starts the real server (`npm start`'s entry) on a free port with a fresh data directory. */
export async function startServer(extraEnv: Record<string, string> = {}, reuseDataDir?: string): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = reuseDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-e2e-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: 'on',
    JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456789',
    LOG_LEVEL: 'warn',
    SKIP_SPA_BUILD: '1',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  if (extraEnv.DATABASE_URL) env.DATABASE_URL = extraEnv.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!env.DATABASE_URL) openSlipsAllDay(path.join(dataDir, 'wallet.sqlite'));
  return {
    url,
    port,
    dataDir,
    env,
    output: () => out,
    operator: (...args: string[]) =>
      execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/operator-cli.ts', ...args], { cwd: ROOT, env, encoding: 'utf8' }),
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/**
 * Journeys run at any hour: the seeded daily closed hours for slips (23:50-00:10 in Bangkok, 16:50-17:10 UTC) would
 * refuse every slip upload for 20 minutes a day (SLIP_UPLOAD_FAIL). The closed hours have their own server tests.
 */
function openSlipsAllDay(file: string): void {
  const db = new SQLite(file);
  try {
    db.prepare("UPDATE settings SET value = json_set(value, '$.closeFrom', json('null'), '$.closeTo', json('null')) WHERE key = 'slip'").run();
  } finally {
    db.close();
  }
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/**
 * A phone-sized context (360 px wide, the product's smallest target). Service workers are blocked unless
 * asked for (pwa.e2e.ts): a worker would answer requests that tests intercept with `page.route`, and
 * precaching the whole app in every test's fresh context only adds load.
 */
export function phoneContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, serviceWorkers: 'block', ...options });
}

/** Fails on any serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) {
    const lines = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n  ')}`);
    throw new Error(`accessibility violations on ${page.url()}:\n${lines.join('\n')}`);
  }
}

/** Builds the SPA once for the whole e2e run (the servers are started with SKIP_SPA_BUILD). */
export function buildSpa(): void {
  if (process.env.E2E_SKIP_BUILD) return;
  execFileSync('npx', ['webpack', '--mode', 'production'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The demo player the seed creates (README). */
export const DEMO_LOGIN = { phone: '0812345678', password: 'demo1234' } as const;

/** An amount as the screen shows it, as a number of baht: '฿1,000.50' -> 1000.5. */
export const amountOf = async (locator: Locator): Promise<number> => Number(((await locator.textContent()) ?? '').replace(/[^0-9.]/g, ''));

/** Reads until `check` holds (the UI or the server catches up), then returns the last value; no fixed sleeps. */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

/** English on the login screen, logged in (the demo player unless told), the first visit's agreement accepted. */
export async function logIn(page: Page, baseUrl: string, login: { phone: string; password: string } = DEMO_LOGIN): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByTestId('language-switcher').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.getByTestId('login-phone').fill(login.phone);
  await page.getByTestId('login-password').fill(login.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/user\/home$/);
  const agreement = page.getByRole('dialog', { name: 'Agreement' });
  await agreement.waitFor();
  await agreement.getByTestId('agreement-accept').click();
  await agreement.waitFor({ state: 'detached' });
}

/** A call to the server from the page with the session's token, for setting up what a journey does not test. */
export function pageApi<T = Record<string, unknown>>(page: Page, method: 'GET' | 'POST', url: string, body?: object): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const raw = sessionStorage.getItem('persist:token') ?? localStorage.getItem('persist:token');
      const token = JSON.parse(JSON.parse(raw ?? '{}').token ?? 'null') as string | null;
      const res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    { method, url, body },
  ) as Promise<T>;
}

/**
 * Fails listing every visible interactive control whose tap target is under `min` x `min` CSS px (44 x 44, the
 * issue 12 rule; run it in a 360 px phoneContext). What counts:
 * - controls: a[href], button, input (not hidden), select, textarea, summary, [role=button|link|tab|checkbox|
 *   radio|switch|menuitem|option], [tabindex="0"]; skipped when not rendered, hidden, aria-hidden or inert.
 * - a form control's target is its own box joined with its labels' boxes (clicking a label toggles a checkbox, so
 *   a 20 px remember-me box inside a 44 px tall label row passes; a visually hidden file input is its label).
 * - an element's box is its largest single line box (getClientRects), padding included: an inline link in
 *   running text gets no exemption, it must reach 44 px by padding (padding-block on the inline box extends what
 *   is tappable without moving the lines) or by being a block of its own; a link wrapped over two lines is
 *   measured by its biggest line, not by the union of both.
 * Controls in the whole page are checked, also those below the fold.
 */
export async function expectTapTargets(page: Page, min = 44): Promise<void> {
  const small = await page.evaluate((min) => {
    const selector = [
      'a[href]', 'button', 'input:not([type="hidden"])', 'select', 'textarea', 'summary', '[tabindex="0"]',
      ...['button', 'link', 'tab', 'checkbox', 'radio', 'switch', 'menuitem', 'option'].map((r) => `[role="${r}"]`),
    ].join(',');
    const hidden = (el: Element) => {
      if (el.closest('[aria-hidden="true"], [inert]')) return true;
      const style = getComputedStyle(el);
      return style.visibility === 'hidden' || style.display === 'none' || el.getClientRects().length === 0;
    };
    type Box = { left: number; top: number; right: number; bottom: number };
    const largest = (el: Element): Box | null => {
      let best: Box | null = null;
      for (const r of Array.from(el.getClientRects())) {
        if (r.width < 2 || r.height < 2) continue; // visually hidden (1 px clip)
        if (!best || r.width * r.height > (best.right - best.left) * (best.bottom - best.top)) best = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      }
      return best;
    };
    const join = (a: Box | null, b: Box | null): Box | null =>
      !a ? b : !b ? a : { left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) };
    const describe = (el: Element) => {
      const text = (el.getAttribute('aria-label') || (el as HTMLElement).innerText || (el as HTMLInputElement).value || el.getAttribute('title') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const id = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
    };
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (hidden(el)) continue;
      let box = largest(el);
      const labels = (el as HTMLInputElement).labels;
      if (labels) for (const label of Array.from(labels)) if (!hidden(label)) box = join(box, largest(label));
      if (!box) continue;
      const width = box.right - box.left;
      const height = box.bottom - box.top;
      // Half a pixel of rounding (2.75rem at a 16 px root is exactly 44).
      if (width < min - 0.5 || height < min - 0.5) out.push(`${describe(el)}: ${Math.round(width)} x ${Math.round(height)}`);
    }
    return out;
  }, min);
  if (small.length) throw new Error(`tap targets under ${min} x ${min} px on ${page.url()}:\n  ${small.join('\n  ')}`);
}

export type PlayerLanguage = 'th' | 'la';

/** A text of the app as the locales hold it, with i18next's {{name}} values filled in (unnamed ones stay). */
export function say(lng: PlayerLanguage, key: string, values: Record<string, string> = {}): string {
  const tree = JSON.parse(fs.readFileSync(path.join(ROOT, 'locales', `${lng}.json`), 'utf8')) as Record<string, unknown>;
  const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  if (typeof text !== 'string') throw new Error(`no text ${lng}:${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}

/** The top bar's language switch, waiting for the page to speak it (<html lang> is the standard tag: Lao is lo). */
export async function switchTo(page: Page, lng: PlayerLanguage): Promise<void> {
  await page.getByTestId('language-switcher').selectOption(lng);
  await page.locator(`html[lang="${lng === 'la' ? 'lo' : lng}"]`).waitFor({ state: 'attached' });
}
