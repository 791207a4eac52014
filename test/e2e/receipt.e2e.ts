import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, expectTapTargets, launchBrowser, logIn, phoneContext, startServer, type RunningServer } from './harness';

/**
 * Issue 12 at 360 px: a transfer to a game ends on a receipt (amount, from and to, time, reference, status), and
 * the same receipt opens again from the statement. The transfer is the whole wallet ('All': POST
 * /api/wallet/transferAll), so the amount on the receipt is the one the server moved.
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

test('a transfer to a game shows its receipt, and the statement opens the same receipt again', async () => {
  await logIn(page, server.url);
  await page.getByRole('button', { name: 'Open account: PG Soft' }).click();
  await page.getByRole('button', { name: 'View data: PG Soft' }).waitFor();

  await page.getByTestId('open-transfer').click();
  const dialog = page.getByRole('dialog', { name: 'Transfer' });
  await dialog.getByTestId('transfer-to').selectOption('pg');
  await dialog.getByRole('button', { name: 'All' }).click();
  await dialog.getByTestId('transfer-submit').click();

  const receipt = dialog.getByTestId('receipt');
  await receipt.waitFor();
  const read = async (root: typeof receipt) => ({
    amount: await root.getByTestId('receipt-amount').textContent(),
    from: await root.getByTestId('receipt-from').textContent(),
    to: await root.getByTestId('receipt-to').textContent(),
    time: await root.getByTestId('receipt-time').getAttribute('datetime'),
    reference: await root.getByTestId('receipt-reference').textContent(),
    status: await root.getByTestId('receipt-status').textContent(),
  });
  const first = await read(receipt);
  expect(first).toMatchObject({ amount: '1,000.00 baht', from: 'Wallet', to: 'PG Soft' });
  expect(first.reference).toMatch(/^[\w-]{6,}$/);
  expect(first.status).toMatch(/^(Success|In progress)$/);
  expect(first.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  await expectAccessible(page);
  await expectTapTargets(page);
  await receipt.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'detached' });

  await page.getByRole('link', { name: 'Statement' }).click();
  await page.waitForURL(/\/user\/statement$/);
  // The line says where the money went in words, with the game's name (issue 40).
  await page.getByRole('button', { name: 'View receipt: To the game PG Soft, 1,000.00' }).click();
  const again = page.getByRole('dialog', { name: 'Receipt' }).getByTestId('receipt');
  await again.waitFor();
  const second = await read(again);
  expect(second).toMatchObject({ amount: first.amount, from: first.from, to: first.to, reference: first.reference });
  expect(second.status).toMatch(/^(Success|In progress)$/);
  // The same moment (the statement's time is the server's; the first receipt's is the browser's on the answer).
  expect(Math.abs(Date.parse(second.time ?? '') - Date.parse(first.time ?? ''))).toBeLessThan(60_000);
  await expectAccessible(page);
  await expectTapTargets(page);
  await again.getByRole('button', { name: 'OK' }).click();
  await page.getByRole('dialog', { name: 'Receipt' }).waitFor({ state: 'detached' });

  // The same receipt in Thai and Lao (issue 12's proof runs in th and la), readable by axe in each.
  for (const [lang, htmlLang, title, reference] of [
    ['th', 'th', 'หลักฐานการโอนเงิน', 'เลขที่อ้างอิง'],
    ['la', 'lo', 'ຫຼັກຖານການໂອນເງິນ', 'ເລກອ້າງອີງ'],
  ] as const) {
    await page.getByTestId('language-switcher').selectOption(lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, htmlLang);
    await page.getByTestId('statement-receipt').first().click();
    const local = page.getByRole('dialog').getByTestId('receipt');
    await local.getByRole('heading', { name: title }).waitFor();
    await local.getByText(reference).waitFor();
    expect(await local.getByTestId('receipt-reference').textContent()).toBe(first.reference);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await local.waitFor({ state: 'detached' });
  }
});
