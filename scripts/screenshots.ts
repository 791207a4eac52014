/**
 * Screenshots of the player's main screens for docs/screenshots/ (issue 12), so the next engineer sees what the
 * product looks like:
 *   npm run screenshots
 * builds the SPA when it is stale, starts the demo server as the end-to-end harness does, logs the demo player in
 * with Debian's Chromium (playwright-core) at a 360 x 740 phone viewport, and saves home, deposit, withdraw and
 * profile in Thai and Lao as docs/screenshots/<screen>-<lang>.png (8 files, listed in docs/screenshots/README.md).
 * Each screenshot waits until the screen has settled: no requests in flight, fonts loaded, images decoded.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';

import { ensureSpaBuilt } from '../server/spa-build';
import { DEMO_LOGIN, launchBrowser, phoneContext, ROOT, startServer } from '../test/e2e/harness';

const OUT = path.join(ROOT, 'docs', 'screenshots');
const LANGS = [
  { locale: 'th', tag: 'th' },
  { locale: 'la', tag: 'lo' },
] as const;

/** Waits for the screen to settle, then saves the viewport as docs/screenshots/<name>.png. */
async function shot(page: Page, name: string): Promise<string> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(Array.from(document.images).map((img) => (img.complete ? null : img.decode().catch(() => null))));
  });
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  return file;
}

/** The demo player logged in, in `locale`, the first visit's agreement accepted, home's balance shown. */
async function logIn(page: Page, url: string, locale: string, tag: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByTestId('language-switcher').selectOption(locale);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, tag);
  await page.getByTestId('login-phone').fill(DEMO_LOGIN.phone);
  await page.getByTestId('login-password').fill(DEMO_LOGIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/user\/home$/);
  const agreement = page.locator('[role="dialog"]').filter({ has: page.getByTestId('agreement-accept') });
  await agreement.getByTestId('agreement-accept').click();
  await agreement.waitFor({ state: 'detached' });
  await page.getByTestId('total-balance').filter({ hasText: /\d/ }).waitFor();
}

/** A home widget's dialog (deposit, withdraw): opened, saved, closed with Escape. */
async function dialogShot(page: Page, widget: string, name: string): Promise<string> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId(widget).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const file = await shot(page, name);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return file;
}

async function screensIn(browser: Browser, url: string, locale: string, tag: string): Promise<string[]> {
  const context = await phoneContext(browser, { locale: 'th-TH' });
  try {
    const page = await context.newPage();
    await logIn(page, url, locale, tag);
    const files = [await shot(page, `home-${locale}`)];
    files.push(await dialogShot(page, 'widget-deposit', `deposit-${locale}`));
    files.push(await dialogShot(page, 'widget-withdraw', `withdraw-${locale}`));
    await page.locator('.bottom-menu a[href="/user/profile"]').click();
    await page.waitForURL(/\/user\/profile$/);
    await page.getByTestId('profile-name').waitFor();
    files.push(await shot(page, `profile-${locale}`));
    return files;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  await ensureSpaBuilt(ROOT, path.join(ROOT, 'dist'), (line) => console.log(line));
  fs.mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    for (const { locale, tag } of LANGS) {
      const files = await screensIn(browser, server.url, locale, tag);
      console.log(`${locale}: ${files.map((f) => path.relative(ROOT, f)).join(', ')}`);
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
