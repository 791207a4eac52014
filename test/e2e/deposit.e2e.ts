import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { amountOf, expectAccessible, expectTapTargets, launchBrowser, logIn, phoneContext, startServer, until, type RunningServer } from './harness';

/**
 * Issue 5's journey on the real server at 360 px: the demo player (KBANK) opens the deposit modal from the
 * home widget, creates a KBANK QR for 100, sees the countdown, pays it on the demo bank page in another tab
 * and sees the wallet grow by 100 without a reload; makes a transfer on the demo bank, uploads its slip and
 * finds it in the slip history; redeems a gift link. axe on every state of the SPA.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const SHOTS = process.env.E2E_SCREENSHOTS; // a folder to keep 360 px screenshots in

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  context = await phoneContext(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function shot(name: string, on: Page = page) {
  if (SHOTS) await on.screenshot({ path: `${SHOTS}/deposit-${name}.png` }); // the viewport: modals are fixed to it
}

/** '1,100.00' -> 1100 */
const walletBalance = () => amountOf(page.getByTestId('wallet-balance'));


/** The demo bank page in its own tab, as a second device would be: a phone too, 360 px wide. */
async function demoBank(): Promise<Page> {
  const bank = await context.newPage();
  await bank.goto(`${server.url}/demo/bank`);
  return bank;
}

/** The demo bank works at 360 px (issue 12): nothing wider than the screen, every control a 44 px target, axe. */
async function expectBankFitsPhone(bank: Page): Promise<void> {
  const { width, scrollWidth, wide } = await bank.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const over = Array.from(document.querySelectorAll('body *')).filter((el) => el.getBoundingClientRect().right > vw + 0.5);
    return { width: vw, scrollWidth: document.documentElement.scrollWidth, wide: over.map((el) => el.tagName.toLowerCase()).slice(0, 10) };
  });
  expect(width).toBe(360);
  expect({ scrollWidth, wide }).toEqual({ scrollWidth: 360, wide: [] });
  await expectTapTargets(bank);
  await expectAccessible(bank);
}

test('deposit journey: QR paid at the bank, slip uploaded and listed, gift link redeemed', async () => {
  await logIn(page, server.url);
  const start = await until(walletBalance, (value) => value > 0, 'wallet balance');
  // Nothing below may reload the page: this marker would be gone.
  await page.evaluate(() => ((window as unknown as { depositJourney: boolean }).depositJourney = true));

  // The deposit modal from home's deposit widget: bank transfer first, with the accounts to pay.
  await page.getByTestId('widget-deposit').click();
  const dialog = page.getByRole('dialog', { name: 'Deposit' });
  await dialog.getByRole('tab', { name: 'Bank transfer' }).waitFor();
  expect(await dialog.getByRole('tab').allTextContents()).toEqual(['Bank transfer', 'QR code', 'Wallet link']);
  const kbank = dialog.getByTestId('bank-KBANK');
  // KBANK auto deposit copies the account details (spec §2): bank, number (digits only) and name, one a line, the
  // names in the player's language (issue 40 items 9, 13: the seeded names setting's English account name).
  await kbank.getByRole('button', { name: 'Copy the Kasikornbank account details' }).click();
  await kbank.getByText('Copied: Kasikornbank 0123456789 Demo Wallet Co., Ltd.').waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Kasikornbank\n0123456789\nDemo Wallet Co., Ltd.');
  await expectAccessible(page);
  await expectTapTargets(page);
  await shot('bank-transfer');

  // QR: KBANK for 100, with its countdown.
  await dialog.getByRole('tab', { name: 'QR code' }).click();
  const panel = dialog.getByTestId('qr-KBANK');
  await panel.getByRole('button', { name: '100', exact: true }).click();
  await expectAccessible(page);
  await panel.getByRole('button', { name: 'Create QR code' }).click();
  await panel.getByRole('img', { name: /QR code for 100\.00 baht/ }).waitFor();
  const timer = panel.getByRole('timer');
  const first = (await timer.textContent()) ?? '';
  expect(first).toMatch(/^0[45]:\d\d$/);
  await until(async () => (await timer.textContent()) ?? '', (value) => value !== first && value < first, 'countdown moving');
  await expectAccessible(page);
  await shot('qr-shown');

  // The bank pays it in another tab (the signed webhook credits the wallet).
  const bank = await demoBank();
  const row = bank.locator('tr', { hasText: 'KBANK' }).filter({ hasText: '100.00' });
  await row.waitFor();
  await expectBankFitsPhone(bank);
  await row.getByRole('button', { name: 'Pay' }).click();
  await bank.getByText('Paid: the wallet was credited.').waitFor();

  // Back in the app, untouched: the poll sees the QR paid and the wallet behind the modal grows by 100.
  await panel.getByTestId('qr-paid').waitFor({ timeout: 30_000 });
  expect(await panel.getByTestId('qr-paid').textContent()).toBe('Payment received: 100.00 baht is now in your wallet.');
  await until(walletBalance, (value) => Math.abs(value - (start + 100)) < 0.005, 'wallet + 100');
  await expectAccessible(page);
  await shot('qr-paid');

  // A transfer at the bank makes a slip; the player uploads it.
  await bank.goto(`${server.url}/demo/bank`);
  await bank.locator('input[name="amount"][value="100.00"]').fill('150.00');
  await bank.getByRole('button', { name: 'Transfer' }).click();
  const slipLink = bank.getByRole('link', { name: 'Download the slip' });
  await slipLink.waitFor();
  await bank.getByRole('link', { name: 'Slip PNG' }).first().waitFor();
  await expectBankFitsPhone(bank);
  const slipUrl = new URL((await slipLink.getAttribute('href'))!, server.url).toString();
  const png = await bank.request.get(slipUrl);
  expect(png.headers()['content-type']).toBe('image/png');
  const slipFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'slip-')), 'slip.png');
  fs.writeFileSync(slipFile, await png.body());

  await dialog.getByRole('tab', { name: 'Bank transfer' }).click();
  await dialog.getByTestId('slip-file').setInputFiles(slipFile);
  await dialog.getByTestId('slip-result').waitFor({ timeout: 60_000 });
  expect(await dialog.getByTestId('slip-result').textContent()).toBe('Slip accepted: 150.00 baht is now in your wallet.');
  await until(walletBalance, (value) => Math.abs(value - (start + 250)) < 0.005, 'wallet + 150');
  await expectAccessible(page);
  await shot('slip-credited');

  // A gift voucher from the bank page, pasted in the wallet-link form.
  await bank.goto(`${server.url}/demo/bank`);
  await bank.getByRole('button', { name: 'Issue voucher' }).click();
  const giftLink = await bank.getByRole('textbox', { name: 'Gift link' }).inputValue();
  expect(giftLink).toMatch(/^https:\/\/gift\.truemoney\.com\/campaign\/\?v=/);
  await expectBankFitsPhone(bank);
  await dialog.getByRole('tab', { name: 'Wallet link' }).click();
  const send = dialog.getByRole('button', { name: 'Send link' });
  expect(await send.isDisabled()).toBe(true);
  await dialog.getByLabel('Gift link').fill(giftLink);
  await send.click();
  await dialog.getByText('Received 50.00 baht into your wallet.').waitFor();
  await until(walletBalance, (value) => Math.abs(value - (start + 300)) < 0.005, 'wallet + 50');
  await expectAccessible(page);
  await shot('gift-received');

  // The slip in the statement's slip history.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('link', { name: 'Statement' }).click();
  await page.waitForURL(/\/user\/statement$/);
  await page.getByRole('button', { name: 'Slip upload status' }).click();
  const history = page.getByRole('dialog', { name: 'Slip uploads' });
  const slipRow = history.getByTestId('slip-row').first();
  await slipRow.waitFor();
  const cells = await slipRow.getByRole('definition').allTextContents();
  expect(cells[0]).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/);
  expect(cells.slice(1, 3)).toEqual(['150.00', 'Success']);
  await expectAccessible(page);
  // The slip cards' view links (and the modal's other controls) are 44 px targets at 360 px.
  await expectTapTargets(page);
  await shot('slip-history');
  const [image] = await Promise.all([page.waitForEvent('popup'), slipRow.getByRole('link', { name: /View the slip/ }).click()]);
  await image.waitForLoadState();
  expect(image.url()).toContain('/api/statement/slip/image/');
  expect(await image.evaluate(() => document.contentType)).toBe('image/png');
  await image.close();

  expect(await page.evaluate(() => (window as unknown as { depositJourney?: boolean }).depositJourney)).toBe(true);
  await bank.close();
});

/** Where `npm run bench` finds the webhook-to-screen figures of the last run (test/bench/index.ts). */
const WEBHOOK_TO_SCREEN_FILE = path.join(__dirname, '..', '..', '.tmp', 'webhook-to-screen.json');

test('live balance: a paid QR shows in the open SPA within 1 s of the webhook\'s 200, without the poll', async () => {
  await page.goto(`${server.url}/user/home`);
  await page.getByTestId('widget-deposit').click();
  const dialog = page.getByRole('dialog', { name: 'Deposit' });
  await dialog.getByRole('tab', { name: 'QR code' }).click();
  const panel = dialog.getByTestId('qr-KBANK');
  const bank = await demoBank();
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) {
    await panel.getByRole('button', { name: '100', exact: true }).click();
    await panel.getByRole('button', { name: 'Create QR code' }).click();
    await panel.getByRole('img', { name: /QR code for 100\.00 baht/ }).waitFor();
    // The SPA notes the moment its paid state is in the page.
    await page.evaluate(() => {
      const w = window as unknown as { paidAt?: number };
      delete w.paidAt;
      const seen = () => document.querySelector('[data-testid="qr-paid"]') !== null;
      const observer = new MutationObserver(() => {
        if (seen()) {
          w.paidAt = Date.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await bank.goto(`${server.url}/demo/bank`);
    const paid = bank.waitForResponse((r) => r.request().method() === 'POST' && /\/demo\/bank\/qr\/[^/]+\/pay$/.test(r.url()));
    await bank.locator('tr', { hasText: 'KBANK' }).filter({ hasText: '100.00' }).getByRole('button', { name: 'Pay' }).click();
    // The demo bank answers its form right after the webhook's 200 (it calls the webhook in-process).
    const timing = (await paid).request().timing();
    const webhookDone = timing.startTime + timing.responseStart;
    await bank.getByText('Paid: the wallet was credited.').waitFor();
    await panel.getByTestId('qr-paid').waitFor({ timeout: 10_000 });
    const paidAt = await page.evaluate(() => (window as unknown as { paidAt?: number }).paidAt);
    expect(paidAt).toBeDefined();
    ms.push(Math.max(0, paidAt! - webhookDone));
  }
  await bank.close();
  const sorted = [...ms].sort((a, b) => a - b);
  const figures = { runs: ms.map((v) => Math.round(v)), p50: Math.round(sorted[Math.floor(sorted.length / 2)]), max: Math.round(sorted[sorted.length - 1]), at: new Date().toISOString() };
  console.log(`webhook 200 -> paid QR on screen: ${figures.runs.join(', ')} ms (p50 ${figures.p50} ms, max ${figures.max} ms)`);
  fs.mkdirSync(path.dirname(WEBHOOK_TO_SCREEN_FILE), { recursive: true });
  fs.writeFileSync(WEBHOOK_TO_SCREEN_FILE, `${JSON.stringify(figures)}\n`);
  for (const v of ms) expect(v).toBeLessThan(1000);
});
