import { JSDOM } from 'jsdom';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { ensureTestGames } from '../../test/support/games-sim';
import { PLAY_JS } from './assets';

/**
 * The page's script run in a DOM, its fetch answered by the real routes through app.inject: the player
 * types a bet, spins, and reads the result and the new balance.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await ensureTestGames(t.db.db);
});
afterAll(() => t.close());

async function openGame(lang: string, satang: number) {
  const p = await t.app.gameProvider.createPlayer('pg', Math.floor(Math.random() * 1e6));
  await t.app.gameProvider.deposit('pg', p.username, `js-${p.username}`, satang);
  const url = await t.app.gameProvider.launchUrl('pg', p.username);
  const page = await t.app.inject({ method: 'GET', url: `${url}&lang=${lang}` });
  const dom = new JSDOM(page.body, { runScripts: 'outside-only', url: 'http://localhost/' });
  const calls: string[] = [];
  Object.assign(dom.window, {
    fetch: async (path: string, init: { method: string; body: string }) => {
      calls.push(path);
      const res = await t.app.inject({ method: 'POST', url: path, payload: JSON.parse(init.body) });
      return { ok: res.statusCode < 300, json: async () => res.json() };
    },
  });
  dom.window.eval(PLAY_JS);
  const $ = (id: string) => dom.window.document.getElementById(id) as HTMLElement & { value: string; disabled: boolean };
  const settle = async () => {
    for (let i = 0; i < 50 && $('spin').disabled; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 5));
  };
  const submit = async () => {
    $('spin-form').dispatchEvent(new dom.window.Event('submit', { cancelable: true, bubbles: true }));
    await settle();
  };
  return { p, dom, $, submit, settle, calls };
}

test('a spin updates the balance and announces the outcome in the live region', async () => {
  const g = await openGame('en', 10_000);
  expect(g.$('balance').textContent).toBe('100.00');
  g.$('bet').value = '2';
  await g.submit();
  expect(g.calls).toEqual(['/sim/games/pg/round']);
  const balance = await t.app.gameProvider.balance('pg', g.p.username);
  expect(g.$('balance').textContent).toBe((balance / 100).toFixed(2));
  expect(g.$('result').textContent).toMatch(/^(You won [\d.]+!|No win this time\.) \(.+\)$/);
  expect(g.$('spin').disabled).toBe(false);
  expect(g.$('spin').textContent).toBe('Spin');
});

test('a bet above the balance shows the localized refusal and an invalid bet never reaches the server', async () => {
  const g = await openGame('th', 500);
  g.$('bet').value = '50';
  await g.submit();
  expect(g.$('result').textContent).toBe('ยอดเงินในเกมไม่พอสำหรับการเดิมพันนี้');
  g.$('bet').value = '0';
  await g.submit();
  expect(g.calls).toHaveLength(1);
  expect(g.$('bet').getAttribute('aria-invalid')).toBe('true');
  expect(g.$('result').textContent).toContain('กรุณาใส่จำนวนเดิมพัน');
});

test('quick bets fill the amount and refresh reloads the balance', async () => {
  const g = await openGame('la', 1_000);
  (g.dom.window.document.querySelector('[data-bet="5"]') as HTMLElement).click();
  expect(g.$('bet').value).toBe('5');
  await t.app.gameProvider.deposit('pg', g.p.username, `js-more-${g.p.username}`, 1_000);
  g.$('refresh').click();
  await g.settle();
  expect(g.calls).toEqual(['/sim/games/pg/balance']);
  // Lao formats with its own separators (20,00), the same on the server-rendered page and in the script.
  expect(g.$('balance').textContent).toBe(new Intl.NumberFormat('lo', { minimumFractionDigits: 2 }).format(20));
});
