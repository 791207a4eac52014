import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, logIn, phoneContext, startServer, type RunningServer } from './harness';

/**
 * Issue 40 item 2 at 360 px on the real server: a KBANK QR of 20 baht paid 25 on the demo bank page turns, in the
 * open modal and without a reload, into its review state (what arrived and why, that staff check it, the statement
 * line's reference, the way to support) pushed over the player's socket; the statement lists it as being checked.
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

test('a QR paid with another amount shows its review state without a reload, and the statement lists it', async () => {
  await logIn(page, server.url);
  await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
  await page.getByTestId('widget-deposit').click();
  const dialog = page.getByRole('dialog', { name: 'Deposit' });
  await dialog.getByRole('tab', { name: 'QR code' }).click();
  const panel = dialog.getByTestId('qr-KBANK');
  await panel.getByRole('button', { name: '20', exact: true }).click();
  await panel.getByRole('button', { name: 'Create QR code' }).click();
  await panel.getByRole('img', { name: /QR code for 20\.00 baht/ }).waitFor();

  // The demo bank pays 25 on it, in another tab (the signed qr.paid webhook: AMOUNT_MISMATCH).
  const bank = await context.newPage();
  await bank.goto(`${server.url}/demo/bank`);
  const row = bank.locator('tr', { hasText: 'KBANK' }).filter({ hasText: '20.00' });
  await row.getByLabel("Amount to pay (empty: the QR's amount)").fill('25');
  await row.getByRole('button', { name: 'Pay' }).click();
  await bank.getByText(/AMOUNT_MISMATCH/).waitFor();
  await bank.close();

  // The open modal, untouched: no more countdown, what arrived and why, that staff check it, the reference, support.
  const review = panel.getByTestId('qr-review');
  await review.waitFor({ timeout: 10_000 });
  expect(await review.textContent()).toBe('25.00 baht arrived: not the amount the QR code asked for.');
  expect(await panel.getByRole('timer').count()).toBe(0);
  const reference = (await panel.getByTestId('qr-review-reference').textContent()) ?? '';
  expect(reference).toMatch(/^D-\d{4}-\d{4}$/);
  expect(await panel.getByTestId('qr-review-next').textContent()).toBe('Our staff will check this payment. Nothing has been added to your wallet yet.');
  await panel.getByRole('link', { name: 'Contact support' }).waitFor();
  await expectAccessible(page);

  // The statement has the line, in progress with its reason and the same reference.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('link', { name: 'Statement' }).click();
  const line = page.getByTestId('statement-entry').filter({ hasText: reference });
  await line.waitFor();
  expect(await line.getByTestId('statement-status').textContent()).toBe('Being checked');
  expect(await line.getByTestId('statement-review').textContent()).toBe('Being checked by our staff: not the amount the QR code asked for');
  await expectAccessible(page);
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
});
