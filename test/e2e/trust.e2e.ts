import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, logIn, phoneContext, say, startServer, switchTo, type RunningServer } from './harness';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Issue 12's "things that break trust" at 360 px on the real server, in Thai and in Lao: a QR at another bank is
 * not voided without asking (which QR, how long it has left; "Keep it" keeps it), and a session the server ends
 * brings the player to the login screen with a word of why and back to where they were.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  context = await phoneContext(browser);
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

test('a QR at another bank asks before the live one is cancelled (th)', async () => {
  await logIn(page, server.url);
  await switchTo(page, 'th');
  await page.getByTestId('widget-deposit').click();
  const dialog = page.getByRole('dialog', { name: say('th', 'deposit.title') });
  await dialog.getByRole('tab', { name: say('th', 'deposit.methods.qr') }).click();
  const qrFor100 = new RegExp(escape(say('th', 'deposit.qr.imageAlt', { amount: '100.00' })).replace('\\{\\{bank\\}\\}', '.*'));
  const kbank = dialog.getByTestId('qr-KBANK');
  await kbank.getByTestId('qr-pick-100').click();
  await kbank.getByRole('button', { name: say('th', 'deposit.qr.create') }).click();
  await kbank.getByRole('img', { name: qrFor100 }).waitFor();

  // Another bank: the question names the live QR and its time left; "Keep it" sends nothing.
  await dialog.getByTestId('qr-bank-WW').check();
  const ww = dialog.getByTestId('qr-WW');
  await ww.getByTestId('qr-pick-100').click();
  await ww.getByTestId('qr-create').click();
  const ask = page.getByRole('alertdialog', { name: say('th', 'deposit.qr.replace.title') });
  await ask.waitFor();
  expect(await ask.getByTestId('qr-replace-text').textContent()).toMatch(/KBANK|K PLUS|กสิกร/i);
  expect(await ask.getByTestId('qr-replace-time').textContent()).toMatch(/^0[0-5]:\d\d$/);
  await expectAccessible(page);
  await ask.getByTestId('qr-replace-keep').click();
  await ask.waitFor({ state: 'detached' });
  expect(await ww.getByRole('img').count()).toBe(0);
  await dialog.getByTestId('qr-bank-KBANK').check();
  await kbank.getByRole('img', { name: qrFor100 }).waitFor();

  // Asked again and confirmed: the WW QR replaces it.
  await dialog.getByTestId('qr-bank-WW').check();
  await ww.getByTestId('qr-pick-100').click();
  await ww.getByTestId('qr-create').click();
  await ask.waitFor();
  await ask.getByTestId('qr-replace-confirm').click();
  await ww.getByRole('img', { name: qrFor100 }).waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
});

test('an expired session says so on the login screen and returns the player to where they were (la)', async () => {
  await context.close();
  context = await phoneContext(browser);
  page = await context.newPage();
  await logIn(page, server.url);
  await switchTo(page, 'la');
  await page.getByRole('link', { name: say('la', 'nav.statement') }).first().click();
  await page.waitForURL(/\/user\/statement$/);
  // The player leaves the app (the tab keeps its stored token), and meanwhile the server's session ends (its row
  // expires), as it does after TOKEN_TTL. Leaving first matters: an open page would meet the refusal on its next
  // call by itself, and a reload after that starts a fresh app that no longer holds the reason.
  await page.goto('about:blank');
  const db = new SQLite(path.join(server.dataDir, 'wallet.sqlite'));
  try {
    db.prepare("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE revoked_at IS NULL").run();
  } finally {
    db.close();
  }
  // Coming back makes a call at once, and the server refuses it.
  await page.goto(`${server.url}/user/statement`);
  await page.waitForURL(/\/login\?next=%2Fuser%2Fstatement$/);
  const notice = page.getByTestId('session-expired');
  await notice.waitFor();
  expect(await notice.textContent()).toBe(say('la', 'login.sessionExpired'));
  await expectAccessible(page);
  await page.getByTestId('login-phone').fill('0812345678');
  await page.getByTestId('login-password').fill('demo1234');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/user\/statement$/);
  expect(await notice.count()).toBe(0);
});
