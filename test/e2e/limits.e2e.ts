import type { Browser, BrowserContext, Page } from 'playwright-core';
import { amountOf, expectAccessible, launchBrowser, logIn, phoneContext, startServer, until, type RunningServer } from './harness';

/**
 * Issue 15's journeys at 360 px on the real server (docs/responsible-play.md): a deposit limit of 100 lets one
 * QR of 100 be paid and refuses the next with the translated message; a 24-hour time-out, confirmed twice, turns
 * the home screen's deposit and game buttons into a refusal (also in Thai); the reality check comes after its
 * interval (PLAY_MINUTE_MS shortens a "minute"), cannot be dismissed, and logs out. axe on every new screen.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('limits and a time-out', () => {
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    server = await startServer();
    context = await phoneContext(browser);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await server?.stop();
  });

  test('a deposit limit of 100 takes one QR of 100 and refuses the next; a 24-hour time-out refuses deposits and games', async () => {
    await logIn(page, server.url);
    const wallet = () => amountOf(page.getByTestId('wallet-balance'));
    const start = await until(wallet, (value) => value > 0, 'wallet balance');

    // The limits page from the home screen's link; a daily deposit limit of 100, effective at once.
    await page.getByTestId('home-limits').click();
    await page.waitForURL(/\/user\/limits$/);
    await page.getByTestId('limit-depositDay-input').waitFor();
    await expectAccessible(page);
    await page.getByTestId('limit-depositDay-input').fill('100');
    await page.getByTestId('limits-deposit-save').click();
    await until(async () => (await page.getByTestId('limit-depositDay-value').textContent()) ?? '', (text) => text.includes('100.00'), 'daily limit shown');
    await page.locator('[data-testid="limits-history-item"][data-action="LIMIT_SET"]').first().waitFor();
    await expectAccessible(page);

    // A QR of 100, paid at the demo bank: credited.
    await page.getByRole('link', { name: 'Home' }).first().click();
    await page.waitForURL(/\/user\/home$/);
    await page.getByTestId('widget-deposit').click();
    const dialog = page.getByRole('dialog', { name: 'Deposit' });
    await dialog.getByRole('tab', { name: 'QR code' }).click();
    const panel = dialog.getByTestId('qr-KBANK');
    await panel.getByRole('button', { name: '100', exact: true }).click();
    await panel.getByRole('button', { name: 'Create QR code' }).click();
    await panel.getByRole('img', { name: /QR code for 100\.00 baht/ }).waitFor();
    const bank = await context.newPage();
    await bank.setViewportSize({ width: 1200, height: 900 });
    await bank.goto(`${server.url}/demo/bank`);
    await bank.locator('tr', { hasText: 'KBANK' }).filter({ hasText: '100.00' }).getByRole('button', { name: 'Pay' }).click();
    await bank.getByText('Paid: the wallet was credited.').waitFor();
    await bank.close();
    await panel.getByTestId('qr-paid').waitFor({ timeout: 30_000 });
    await until(wallet, (value) => Math.abs(value - (start + 100)) < 0.005, 'wallet + 100');

    // The next QR would pass the limit: refused at creation, in words, and no QR appears.
    await panel.getByRole('button', { name: '100', exact: true }).click();
    await panel.getByRole('button', { name: 'Create QR code' }).click();
    await page.getByText('This would go over the deposit limit you set.').waitFor();
    expect(await panel.getByRole('img', { name: /QR code for/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The limits page shows the day's usage; a 24-hour time-out, confirmed twice.
    await page.getByTestId('home-limits').click();
    await until(async () => (await page.getByTestId('limit-depositDay-usage').textContent()) ?? '', (text) => text.includes('100.00'), 'usage 100');
    await page.getByTestId('timeout-24h').click();
    await page.getByTestId('restriction-step1').waitFor();
    await expectAccessible(page);
    await page.getByTestId('restriction-confirm-1').click();
    const step2 = page.getByTestId('restriction-step2');
    await step2.waitFor();
    expect(await step2.textContent()).toMatch(/\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d/);
    await page.getByTestId('restriction-confirm-2').click();
    await page.getByTestId('restriction-done').waitFor();
    await page.getByTestId('restriction-ok').click();
    await page.getByTestId('restriction-running').waitFor();
    await page.locator('[data-testid="limits-history-item"][data-action="TIMEOUT"]').waitFor();
    await expectAccessible(page);

    // Home: the deposit widget and a game button answer with the refusal instead of opening anything.
    await page.getByRole('link', { name: 'Home' }).first().click();
    await page.waitForURL(/\/user\/home$/);
    await page.getByTestId('widget-deposit').click();
    const refusal = page.getByTestId('play-refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('You are on a time-out.');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.locator('[data-testid^="game-card-"] .game-card__action').first().click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expectAccessible(page);

    // The same refusal in Thai.
    await page.getByTestId('language-switcher').selectOption('th');
    await page.waitForFunction(() => document.documentElement.lang === 'th');
    await until(async () => (await refusal.textContent()) ?? '', (text) => text.includes('คุณอยู่ในช่วงพักการเล่น'), 'Thai refusal');
    await page.getByTestId('language-switcher').selectOption('en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  });
});

describe('reality check', () => {
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    // One "minute" is 250 ms, so the default 60-minute check comes 15 s into the session.
    server = await startServer({ PLAY_MINUTE_MS: '250' });
    context = await phoneContext(browser);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await server?.stop();
  });

  test('comes after its interval, cannot be dismissed, continues, comes again and logs out', async () => {
    await logIn(page, server.url);
    const check = page.getByRole('alertdialog', { name: 'Reality check' });
    await check.waitFor({ timeout: 30_000 });
    expect(await check.getByTestId('reality-played').textContent()).toMatch(/\d/);
    expect(await check.getByTestId('reality-net').textContent()).toMatch(/0\.00/);
    await expectAccessible(page);

    // Escape does not dismiss it; only its own buttons do.
    await page.keyboard.press('Escape');
    expect(await check.isVisible()).toBe(true);
    await check.getByTestId('reality-continue').click();
    await check.waitFor({ state: 'detached' });

    // A reload does not bring back the acknowledged check; the next one still comes.
    await page.reload();
    await page.getByTestId('wallet-balance').waitFor();
    expect(await check.count()).toBe(0);
    await check.waitFor({ timeout: 30_000 });
    await check.getByTestId('reality-logout').click();
    await page.waitForURL(/\/login(\?|$)/);
  });
});
