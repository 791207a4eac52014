import type { Browser, BrowserContext, Page } from 'playwright-core';
import { amountOf, expectAccessible, launchBrowser, logIn, phoneContext, startServer, until, type RunningServer } from './harness';

/**
 * Issue 42's journey on the real server with the Hub88 simulator as the aggregator (the default outside production):
 * the demo player sees the seamless demo game's card say it plays from the wallet (no account to open, nothing to
 * transfer: the transfer modal does not offer it), opens it, plays rounds on the simulator's page (each a signed bet
 * and win against our Wallet API), sees the wallet balance on the home page move with each round without a reload,
 * and finds each round as one line of the statement. The draws are seeded (HUB88_SIM_SEED).
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const GAME = 'h88dragon';
const NAME = 'Dragon Rising';
/** The stake chosen on the game's page: 10 baht (the page's values are satang). */
const STAKE_SATANG = 1000;
const ROUNDS = 3;

beforeAll(async () => {
  server = await startServer({ HUB88_SIM_SEED: '42' });
  browser = await launchBrowser();
  context = await phoneContext(browser);
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const walletBalance = () => amountOf(page.getByTestId('wallet-balance'));
const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

interface Spin {
  outcome: string;
  stake: number;
  win: number;
  balance: number | null;
}

test('seamless game: plays from the wallet, no transfer offered; rounds move the balance live and show in the statement', async () => {
  await logIn(page, server.url);
  await until(walletBalance, (v) => near(v, 1000), 'the demo wallet');

  // The card (on a later page of the slot carousel): plays from the wallet, a Play button, no account to open and no
  // balance of its own.
  const card = page.getByTestId(`game-card-${GAME}`);
  const slots = page.getByTestId('carousel-slot');
  await slots.waitFor();
  for (let turns = 0; turns < 6 && (await card.count()) === 0; turns++) await slots.getByRole('button', { name: 'Next games' }).click();
  await card.waitFor();
  expect(await card.getByTestId(`game-state-${GAME}`).textContent()).toContain('Plays from your wallet');
  expect(await card.getByRole('button', { name: `Play: ${NAME}` }).count()).toBe(1);
  expect(await page.getByRole('button', { name: `Open account: ${NAME}` }).count()).toBe(0);
  expect(await page.getByTestId(`game-amount-${GAME}`).count()).toBe(0);
  await expectAccessible(page);

  // The transfer modal offers no way to move money to or from it.
  await page.getByTestId('open-transfer').click();
  const transfer = page.getByRole('dialog', { name: 'Transfer' });
  await transfer.waitFor();
  const values = (testId: string) => transfer.getByTestId(testId).locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(await values('transfer-to')).not.toContain(GAME);
  expect(await values('transfer-from')).not.toContain(GAME);
  await page.keyboard.press('Escape');
  await transfer.waitFor({ state: 'detached' });

  // Play opens the simulator's game page (a game session from GET /api/seamless/launch), with the wallet's balance.
  const [game] = await Promise.all([page.waitForEvent('popup'), card.getByRole('button', { name: `Play: ${NAME}` }).click()]);
  await game.waitForURL(/\/sim\/hub88\/game\?/);
  const gameBalance = game.locator('#balance');
  await until(async () => (await gameBalance.textContent()) ?? '', (t) => t.includes('1,000.00'), 'the game page shows the wallet');
  await expectAccessible(game);

  // Rounds: each one a bet and a win at our Wallet API; the home page (not reloaded) follows each.
  await game.getByRole('radio', { name: /^10\.00 THB$/ }).check();
  let expected = 1000;
  const spins: Spin[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [answer] = await Promise.all([game.waitForResponse((r) => r.url().endsWith('/sim/hub88/spin')), game.getByRole('button', { name: 'Spin' }).click()]);
    const spin = (await answer.json()) as Spin;
    expect({ outcome: spin.outcome, stake: spin.stake }).toEqual({ outcome: 'settled', stake: STAKE_SATANG });
    spins.push(spin);
    expected = Math.round(expected * 100 - spin.stake + spin.win) / 100;
    expect(spin.balance).toBe(Math.round(expected * 100));
    await until(async () => (await game.locator('#result').textContent()) ?? '', (t) => t.length > 0, 'the round result');
    await until(walletBalance, (v) => near(v, expected), `the home page's wallet after round ${i + 1}`);
  }
  // The draws (seeded) moved the balance: the journey would prove nothing if every round paid its stake back.
  expect(expected).not.toBe(1000);
  await game.close();

  // The statement: one line per round, with the game, closed (Success), for the round's net.
  await page.getByRole('link', { name: 'Statement' }).click();
  await page.waitForURL(/\/user\/statement$/);
  const lines = page.getByTestId('statement-entry').filter({ hasText: NAME });
  await until(() => lines.count(), (n) => n === ROUNDS, 'a statement line per round');
  const amounts = (await lines.getByTestId('statement-amount').allTextContents()).map((t) => Number(t.replace(/[^0-9.]/g, '')));
  const nets = spins.map((s) => Math.abs(s.win - s.stake) / 100);
  const byValue = (a: number, b: number) => a - b;
  expect([...amounts].sort(byValue)).toEqual([...nets].sort(byValue));
  expect(new Set(await lines.getByTestId('statement-status').allTextContents())).toEqual(new Set(['Success']));
  await expectAccessible(page);
});
