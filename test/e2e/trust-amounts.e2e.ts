import type { Browser, BrowserContext, Page } from 'playwright-core';
import { amountOf, launchBrowser, logIn, pageApi, phoneContext, startServer, switchTo, until, type RunningServer } from './harness';

/**
 * Issue 40 on the real server at 360 px, in Lao: a withdrawal typed as the Lao screens write amounts (150,50) sends
 * 150.5, not 15050; then, with a bonus active, the withdraw modal says its lock (turnover left, what cancelling takes
 * back, a link to the bonus page) before the player submits anything.
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
  await logIn(page, server.url);
  await switchTo(page, 'la');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

test('a Lao withdrawal of 150,50 sends 150.5 and the wallet goes down by 150.50', async () => {
  await until(() => amountOf(page.getByTestId('wallet-balance')), (value) => value > 0, 'wallet balance');
  await page.getByTestId('widget-withdraw').click();
  const modal = page.getByTestId('modal-withdraw');
  // The hint is in Lao marks: 100,00 and 50.000,00.
  await modal.getByText(/100,00.*50\.000,00/).waitFor();
  await modal.getByTestId('withdraw-amount').fill('150,50');
  const sent = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/wallet/withdrawAll'));
  await modal.getByTestId('withdraw-submit').click();
  await modal.getByTestId('withdraw-confirm').click();
  expect((await sent).postDataJSON()).toEqual({ amount: 150.5 });
  const receipt = modal.getByTestId('receipt');
  await receipt.waitFor();
  expect(await receipt.getByTestId('receipt-amount').textContent()).toContain('150,50');
  const { wallet } = await pageApi<{ wallet: { amount: number } }>(page, 'GET', '/api/wallet');
  expect(wallet.amount).toBe(849.5);
  await receipt.getByRole('button').first().click();
  await modal.waitFor({ state: 'detached' });
});

test('with a bonus active, the withdraw modal says its lock before the amount, before anything is sent', async () => {
  await pageApi(page, 'GET', '/api/bonus/activate/FIRST10');
  // 10% of 849.50 is 84.95; the target (849.50 + 84.95) x 3 = 2,803.35, none of it wagered yet.
  // Refreshing the balances reloads the active bonus with the wallet (its tags), as after any play.
  await page.getByTestId('refresh-balance').click();
  const homeLock = page.getByTestId('home-bonus-lock');
  await homeLock.waitFor();
  expect(await homeLock.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('2803.35');

  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/wallet/withdrawAll')) posts.push(request.url());
  });
  await page.getByTestId('widget-withdraw').click();
  const modal = page.getByTestId('modal-withdraw');
  const lock = modal.getByTestId('withdraw-bonus-lock');
  await lock.waitFor();
  expect(await lock.getByTestId('withdraw-bonus-lock-remaining').textContent()).toContain('2.803,35');
  expect(await lock.getByTestId('withdraw-bonus-lock-takes-back').textContent()).toContain('84,95');
  expect(await lock.getByRole('link').getAttribute('href')).toBe('/user/bonus');
  // Above the amount field: seen first.
  const [lockBox, amountBox] = await Promise.all([lock.boundingBox(), modal.getByTestId('withdraw-amount').boundingBox()]);
  expect(lockBox!.y).toBeLessThan(amountBox!.y);
  expect(posts).toEqual([]);
});
