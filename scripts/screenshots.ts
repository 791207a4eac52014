/**
 * Screenshots of the player's main screens for docs/screenshots/ (issue 12), so the next engineer sees what the
 * product looks like:
 *   npm run screenshots
 * builds the SPA when it is stale, starts the demo server as the end-to-end harness does, logs the demo player in
 * with Debian's Chromium (playwright-core) at a 360 x 740 phone viewport, activates the demo bonus FIRST10, and saves
 * home, deposit (bank, QR, slip), withdraw with the bonus active, the game-account modal, the spin wheel, the
 * statement and profile in Thai and Lao as docs/screenshots/<screen>-<lang>.png (18 files, listed in
 * docs/screenshots/README.md; issue 40's proof). Each screenshot waits until the screen has settled: no requests in
 * flight, fonts loaded, images decoded. A screen that cannot be reached fails the run naming it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';

import { ensureSpaBuilt } from '../server/spa-build';
import { DEMO_LOGIN, launchBrowser, pageApi, phoneContext, ROOT, startServer } from '../test/e2e/harness';

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

/** A home widget's dialog: opened, and waited for until `ready` (inside it) shows. */
async function openDialog(page: Page, widget: string, ready: string): Promise<Locator> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId(widget).click();
  const dialog = page.getByRole('dialog');
  await reach(dialog.getByTestId(ready), `${widget}'s dialog (${ready})`);
  return dialog;
}

async function closeDialog(page: Page, dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

/** Waits for a screen's marker; one that does not come fails the run naming the screen, not a bare timeout. */
async function reach(locator: Locator, what: string, timeout = 30_000): Promise<void> {
  try {
    await locator.first().waitFor({ timeout });
  } catch (error) {
    throw new Error(`screenshots: could not reach ${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

/**
 * FIRST10 (server/demo/bonus.ts) activated with the player's token, once: the player keeps it for the
 * second language. Home's refresh reloads the wallet with its active bonus, as after any play.
 */
async function activateBonus(page: Page): Promise<void> {
  await pageApi(page, 'GET', '/api/bonus/activate/FIRST10');
  await page.getByTestId('refresh-balance').click();
  await reach(page.getByTestId('home-bonus-lock'), "home's bonus lock after activating FIRST10");
}

/** The QR tab with a 100 baht KBANK QR: created, or the one the first language left still shown (replaced if asked). */
async function qrShot(page: Page, dialog: Locator, name: string): Promise<string> {
  await dialog.getByTestId('tab-qr').click();
  const panel = dialog.getByTestId('qr-KBANK');
  const image = panel.getByTestId('qr-image');
  const create = panel.getByTestId('qr-create');
  await reach(image.or(create), 'the QR tab');
  if (!(await image.isVisible())) {
    await panel.getByTestId('qr-pick-100').click();
    await create.click();
    const replace = panel.getByTestId('qr-replace-confirm');
    await reach(image.or(replace), 'a created QR');
    if (await replace.isVisible()) await replace.click();
    await reach(image, 'a created QR');
  }
  await panel.getByTestId('qr-countdown').filter({ hasText: /\d\d:\d\d/ }).waitFor();
  return shot(page, name);
}

/**
 * The slip upload on the bank-transfer tab with a slip the demo bank made for `amount` baht, accepted: the player
 * sees the upload and its result together.
 */
async function slipShot(page: Page, url: string, dialog: Locator, amount: string, name: string): Promise<string> {
  const bank = await page.context().newPage();
  let slipFile: string;
  try {
    await bank.goto(`${url}/demo/bank`);
    // The bank speaks the browser's language: its transfer form and slip link are found by their markup.
    const form = bank.locator('form[action="/demo/bank/transfer"]');
    await reach(form, "the demo bank's transfer form");
    await form.locator('input[name="amount"]').fill(amount);
    await form.locator('button[type="submit"]').click();
    const link = bank.locator('.flash.ok a[download]');
    await reach(link, 'the demo bank\'s slip');
    const png = await bank.request.get(new URL((await link.getAttribute('href'))!, url).toString());
    slipFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'slip-')), 'slip.png');
    fs.writeFileSync(slipFile, await png.body());
  } finally {
    await bank.close();
  }
  await dialog.getByTestId('tab-bank').click();
  await dialog.getByTestId('slip-file').setInputFiles(slipFile);
  const result = dialog.getByTestId('slip-result');
  await reach(result, 'the slip upload\'s result', 60_000);
  fs.rmSync(path.dirname(slipFile), { recursive: true, force: true });
  // The file picker and the result in view together: the result sits under the picker.
  await dialog.getByTestId('slip-file').evaluate((input) => (input.closest('.slip-upload') ?? input.parentElement ?? input).scrollIntoView({ block: 'start' }));
  return shot(page, name);
}

/** The demo PG Soft account opened (if it is not yet) and its data dialog. */
async function gameShot(page: Page, name: string): Promise<string> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const card = page.getByTestId('game-card-pg');
  await reach(card, 'the PG Soft game card');
  const action = card.locator('.game-card__action');
  if (!(await card.locator('[aria-haspopup="dialog"]').count())) {
    await action.click();
    await reach(card.locator('[aria-haspopup="dialog"]'), 'the PG Soft account opened');
  }
  await card.locator('[aria-haspopup="dialog"]').click();
  const dialog = page.getByRole('dialog');
  await reach(dialog.getByTestId('game-username'), "the PG Soft account's data");
  const file = await shot(page, name);
  await closeDialog(page, dialog);
  return file;
}

/**
 * A page of the bottom menu, from its top: the SPA keeps the window's scroll across a route change, so the page
 * would otherwise open where home was scrolled to.
 */
async function pageShot(page: Page, route: string, ready: string, name: string): Promise<string> {
  await page.locator(`.bottom-menu a[href="/user/${route}"]`).click();
  await page.waitForURL(new RegExp(`/user/${route}$`));
  await reach(page.getByTestId(ready), `the ${route} page (${ready})`);
  await page.evaluate(() => window.scrollTo(0, 0));
  return shot(page, name);
}

async function screensIn(browser: Browser, url: string, locale: string, tag: string, first: boolean): Promise<string[]> {
  const context = await phoneContext(browser, { locale: 'th-TH' });
  try {
    const page = await context.newPage();
    await logIn(page, url, locale, tag);
    if (first) await activateBonus(page);
    await reach(page.getByTestId('home-bonus-lock'), "home's bonus lock");
    const files = [await shot(page, `home-${locale}`)];

    const deposit = await openDialog(page, 'widget-deposit', 'bank-KBANK');
    files.push(await shot(page, `deposit-bank-${locale}`));
    files.push(await qrShot(page, deposit, `deposit-qr-${locale}`));
    files.push(await slipShot(page, url, deposit, first ? '150.00' : '120.00', `deposit-slip-${locale}`));
    await closeDialog(page, deposit);

    const withdraw = await openDialog(page, 'widget-withdraw', 'withdraw-bonus-lock');
    files.push(await shot(page, `withdraw-${locale}`));
    await closeDialog(page, withdraw);

    files.push(await gameShot(page, `game-${locale}`));

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('widget-spin').click();
    const wheel = page.getByTestId('modal-spinWheel');
    await reach(wheel.getByTestId('wheel-coins'), 'the prize wheel');
    await reach(wheel.locator('canvas, [role="img"]'), "the prize wheel's drawing");
    files.push(await shot(page, `wheel-${locale}`));
    await closeDialog(page, wheel);

    files.push(await pageShot(page, 'statement', 'statement-entry', `statement-${locale}`));
    files.push(await pageShot(page, 'profile', 'profile-name', `profile-${locale}`));
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
    for (const [index, { locale, tag }] of LANGS.entries()) {
      const files = await screensIn(browser, server.url, locale, tag, index === 0);
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
