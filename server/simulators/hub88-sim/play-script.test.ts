import { JSDOM } from 'jsdom';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { depositTo, insertPlayer } from '../../test/support/ledger';
import { walletBalance } from '../../ledger';
import { HUB88_PLAY_JS } from './assets';
import { HUB88_SIM_TEXTS } from './texts';

/**
 * The aggregator simulator's page script run in a DOM, its fetch answered by the real routes through app.inject: the
 * player picks a stake, spins, and hears the outcome and the new wallet balance in the live region.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(() => t.close());

async function openGame(lang: 'th' | 'en', satang: number) {
  const id = await insertPlayer(t.db.db);
  if (satang) await depositTo(t.db.db, id, satang);
  const headers = { authorization: `Bearer ${await t.app.tokens.issue(id)}` };
  const { link } = (await t.app.inject({ method: 'GET', url: `/api/seamless/launch/h88dragon?lang=${lang}`, headers })).json() as { link: string };
  const page = await t.app.inject({ method: 'GET', url: link });
  const dom = new JSDOM(page.body, { runScripts: 'outside-only', url: 'http://localhost/' });
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  Object.assign(dom.window, {
    fetch: async (path: string, init: { method: string; body: string }) => {
      const body = JSON.parse(init.body) as Record<string, unknown>;
      calls.push({ path, body });
      const res = await t.app.inject({ method: 'POST', url: path, payload: body });
      return { ok: res.statusCode < 300, json: async () => res.json() };
    },
  });
  dom.window.eval(HUB88_PLAY_JS);
  const doc = dom.window.document;
  const $ = (id: string) => doc.getElementById(id) as HTMLElement & { disabled: boolean };
  const submit = async () => {
    $('spin-form').dispatchEvent(new dom.window.Event('submit', { cancelable: true, bubbles: true }));
    for (let i = 0; i < 100 && $('spin').disabled; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 5));
  };
  const choose = (satang: number) => {
    (doc.querySelector(`input[name="stake"][value="${satang}"]`) as HTMLInputElement).checked = true;
  };
  return { id, doc, $, submit, choose, calls };
}

test('a spin posts the chosen stake, then shows the new wallet balance and announces the outcome', async () => {
  const g = await openGame('en', 10_000);
  expect(g.$('balance').textContent).toBe('100.00 THB');
  g.choose(500);
  await g.submit();
  expect(g.calls.map((c) => c.path)).toEqual(['/sim/hub88/spin']);
  expect(g.calls[0].body).toMatchObject({ stake: 500, game: 'sim_dragon_rising', currency: 'THB' });
  const balance = await walletBalance(t.db.db, g.id);
  expect(g.$('balance').textContent).toBe(`${(balance / 100).toFixed(2)} THB`);
  const result = g.$('result');
  expect(result.getAttribute('aria-live')).toBe('polite');
  const en = HUB88_SIM_TEXTS.en;
  if (balance > 10_000 - 500) expect(result.textContent).toMatch(/^You won /);
  else expect(result.textContent).toContain(en.lose);
  // The reels' label names the symbols for screen readers.
  expect(g.$('reels').getAttribute('aria-label')).toMatch(/^Spin result: \w/);
  expect(g.$('spin').disabled).toBe(false);
  expect(g.$('spin').textContent).toBe(en.spin);
});

test('a stake above the balance: the wallet refuses, the page says so in Thai, nothing moves', async () => {
  const g = await openGame('th', 300);
  g.choose(1000);
  await g.submit();
  expect(g.$('result').textContent).toBe(HUB88_SIM_TEXTS.th.insufficient);
  expect(g.$('result').className).toBe('result bad');
  expect(await walletBalance(t.db.db, g.id)).toBe(300);
});
