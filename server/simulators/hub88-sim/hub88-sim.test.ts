import { buildTestApp, type TestApp } from '../../test/support/helper';
import { depositTo, insertPlayer } from '../../test/support/ledger';
import { walletBalance } from '../../ledger';
import { Hub88Driver, hub88SimSettings, HUB88_SIM_STAKES } from '.';
import { HUB88_PLAY_JS } from './assets';

/**
 * The aggregator simulator's plugin (issue 42): the page the launch link opens (texts in th, la and en, labelled
 * controls, a live region, its own CSP and no inline script), its assets, and the spin the page posts, which the
 * simulator's server side plays against our Wallet API. On both engines.
 */
let t: TestApp;
const GAME = { code: 'sim_p1', aggregator_game_code: 'sim_page_slot' };

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  await t.db.db
    .insertInto('games')
    .values({ ...GAME, name: 'Sim page slot', category: 'slot', ft_wallet_slot: 1, logo: '/games/x.png', background: '/games/x.svg', has_web: 1, android: null, ios: null, login_with_password: 0, active: 1, sort: 999, wallet_mode: 'seamless', aggregator: 'hub88' })
    .execute();
});
afterAll(() => t.close());

async function launched(balance = 12_345, lang = 'en') {
  const id = await insertPlayer(t.db.db);
  if (balance) await depositTo(t.db.db, id, balance);
  const headers = { authorization: `Bearer ${await t.app.tokens.issue(id)}` };
  const res = await t.app.inject({ method: 'GET', url: `/api/seamless/launch/${GAME.code}?lang=${lang}`, headers });
  expect(res.statusCode).toBe(200);
  const link = res.json().link as string;
  const q = new URL(link, 'http://x').searchParams;
  return { id, link, user: q.get('user')!, token: q.get('token')!, game: q.get('game')!, currency: q.get('currency')! };
}
const spin = (body: object) => t.app.inject({ method: 'POST', url: '/sim/hub88/spin', payload: body });

test('in demo mode the app has the simulator as its aggregator, and its driver', () => {
  expect(t.app.aggregator?.simulated).toBe(true);
  expect(t.app.hub88Sim).toBeInstanceOf(Hub88Driver);
});

describe('the game page', () => {
  test('opens at the launch link with the wallet balance, a labelled stake choice, a Spin button, a live result region and its own CSP', async () => {
    const s = await launched(12_345);
    expect(s.link).toMatch(/^\/sim\/hub88\/game\?token=[0-9a-f]{64}&user=u\d{6,}&game=sim_page_slot&lang=en&currency=THB&lobby=%2Fuser%2Fhome$/);
    const res = await t.app.inject({ method: 'GET', url: s.link });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const html = res.body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('123.45 THB');
    expect(html).toMatch(/<fieldset class="stakes"><legend>Choose your stake<\/legend>/);
    expect(html.match(/<label class="stake"><input type="radio" name="stake" value="\d+"/g)).toHaveLength(HUB88_SIM_STAKES.length);
    expect(html).toMatch(/<button type="submit" id="spin"[^>]*>Spin<\/button>/);
    expect(html).toMatch(/id="result"[^>]*role="status"[^>]*aria-live="polite"/);
    expect(html).toMatch(/id="reels"[^>]*role="img"[^>]*aria-label="Spin result"/);
    expect(html).toContain('<a class="lobby" href="/user/home">Back to the wallet</a>');
    expect(html).toContain('<script src="/sim/hub88/play.js" defer></script>');
    expect(html).not.toMatch(/<script>(?!<)/); // no inline executable script
    expect(html).toContain(`data-token="${s.token}"`);
  });

  test('speaks Thai, Lao and English; the market language by default', async () => {
    const s = await launched(1000, 'th');
    const th = await t.app.inject({ method: 'GET', url: s.link });
    expect(th.body).toContain('<html lang="th">');
    expect(th.body).toContain('ยอดเงินในกระเป๋า');
    expect(th.body).toContain('>หมุน</button>');
    const la = await t.app.inject({ method: 'GET', url: s.link.replace('lang=th', 'lang=la') });
    expect(la.body).toContain('<html lang="lo">');
    expect(la.body).toContain('ຍອດເງິນໃນກະເປົາ');
    const none = await t.app.inject({ method: 'GET', url: s.link.replace('lang=th&', '') });
    expect(none.body).toContain('<html lang="th">');
  });

  test('an unknown token gets the expired page with 401; a malformed query is a 400; a hostile lobby is not linked', async () => {
    const s = await launched();
    const forged = await t.app.inject({ method: 'GET', url: s.link.replace(s.token, 'e'.repeat(64)) });
    expect(forged.statusCode).toBe(401);
    expect(forged.body).toContain('role="alert"');
    expect(forged.body).toContain('This game session has ended');
    expect((await t.app.inject({ method: 'GET', url: '/sim/hub88/game' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: s.link.replace(/token=[^&]+/, 'token=%3Cscript%3E') })).statusCode).toBe(400);
    const hostile = await t.app.inject({ method: 'GET', url: s.link.replace('lobby=%2Fuser%2Fhome', 'lobby=javascript%3Aalert(1)') });
    expect(hostile.statusCode).toBe(200);
    expect(hostile.body).not.toContain('javascript:');
    expect(hostile.body).not.toContain('class="lobby"');
  });

  test('its script and stylesheet are files of this server', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/sim/hub88/play.js' });
    expect([js.statusCode, js.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(js.body).toBe(HUB88_PLAY_JS);
    expect(js.body).toContain("fetch('/sim/hub88/spin'");
    const css = await t.app.inject({ method: 'GET', url: '/sim/hub88/play.css' });
    expect([css.statusCode, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
  });
});

describe('the spin', () => {
  test('plays a round against our Wallet API: the answer is the round, and the wallet moved by win - stake', async () => {
    const s = await launched(50_000);
    let expected = 50_000;
    for (let i = 0; i < 5; i++) {
      const res = await spin({ token: s.token, user: s.user, game: s.game, currency: s.currency, stake: 1000 });
      expect(res.statusCode).toBe(200);
      const r = res.json();
      expect(r).toMatchObject({ outcome: 'settled', stake: 1000, status: null });
      expect(r.round).toMatch(/^r-/);
      expect(r.symbols).toHaveLength(3);
      expect(Object.keys(r).sort()).toEqual(['balance', 'outcome', 'round', 'stake', 'status', 'symbols', 'win']);
      expect(r.win).toBeGreaterThanOrEqual(0);
      expected += r.win - 1000;
      expect(r.balance).toBe(expected);
    }
    expect(await walletBalance(t.db.db, s.id)).toBe(expected);
  });

  test('a stake above the balance is refused by our wallet: RS_ERROR_NOT_ENOUGH_MONEY, nothing moved', async () => {
    const s = await launched(300);
    const r = (await spin({ token: s.token, user: s.user, game: s.game, currency: s.currency, stake: 500 })).json();
    expect(r).toMatchObject({ outcome: 'refused', status: 'RS_ERROR_NOT_ENOUGH_MONEY', balance: 300, win: 0 });
    expect(await walletBalance(t.db.db, s.id)).toBe(300);
  });

  test('only the offered stakes, and only the documented fields', async () => {
    const s = await launched(50_000);
    const base = { token: s.token, user: s.user, game: s.game, currency: s.currency };
    for (const stake of [0, 1, 99, 150.5, -100, '100', 10_000_000]) expect([stake, (await spin({ ...base, stake })).statusCode]).toEqual([stake, 400]);
    expect((await spin({ ...base, stake: 100, extra: 1 })).statusCode).toBe(400);
    expect((await spin({ ...base })).statusCode).toBe(400);
    expect(await walletBalance(t.db.db, s.id)).toBe(50_000);
  });

  test('over real HTTP: with the app listening, the simulator calls the listening address', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    try {
      const s = await launched(10_000);
      const r = (await spin({ token: s.token, user: s.user, game: s.game, currency: s.currency, stake: 100 })).json();
      expect(r.outcome).toBe('settled');
      const port = (t.app.server.address() as { port: number }).port;
      const urls = fetchSpy.mock.calls.map((c) => String(c[0]));
      expect(urls).toEqual([`http://127.0.0.1:${port}/api/seamless/hub88/user/balance`, `http://127.0.0.1:${port}/api/seamless/hub88/transaction/bet`, `http://127.0.0.1:${port}/api/seamless/hub88/transaction/win`]);
      expect(await walletBalance(t.db.db, s.id)).toBe(10_000 - 100 + r.win);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});

test("the demo's seamless slot (the seed's h88dragon) opens and plays from the wallet", async () => {
  const id = await insertPlayer(t.db.db);
  await depositTo(t.db.db, id, 10_000);
  const headers = { authorization: `Bearer ${await t.app.tokens.issue(id)}` };
  const { link } = (await t.app.inject({ method: 'GET', url: '/api/seamless/launch/h88dragon?lang=en', headers })).json() as { link: string };
  const page = await t.app.inject({ method: 'GET', url: link });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('<h1>Dragon Rising</h1>');
  const q = new URL(link, 'http://x').searchParams;
  const r = (await spin({ token: q.get('token'), user: q.get('user'), game: q.get('game'), currency: q.get('currency'), stake: 500 })).json();
  expect(r.outcome).toBe('settled');
  expect(await walletBalance(t.db.db, id)).toBe(10_000 - 500 + r.win);
});

test('the settings: defaults, bounds, and the setting named when wrong', () => {
  expect(hub88SimSettings({})).toEqual({ failRate: 0, delayMs: 0, timeoutMs: 5000, seed: undefined });
  expect(hub88SimSettings({ HUB88_SIM_FAIL_RATE: '0.25', HUB88_SIM_DELAY_MS: '40', HUB88_SIM_TIMEOUT_MS: '2000', HUB88_SIM_SEED: '9' })).toEqual({ failRate: 0.25, delayMs: 40, timeoutMs: 2000, seed: 9 });
  expect(() => hub88SimSettings({ HUB88_SIM_FAIL_RATE: '1.5' })).toThrow('HUB88_SIM_FAIL_RATE');
  expect(() => hub88SimSettings({ HUB88_SIM_DELAY_MS: 'x' })).toThrow('HUB88_SIM_DELAY_MS');
  expect(() => hub88SimSettings({ HUB88_SIM_TIMEOUT_MS: '10' })).toThrow('HUB88_SIM_TIMEOUT_MS');
});

describe('SEAMLESS_AGGREGATOR=off', () => {
  let off: TestApp;
  beforeAll(async () => {
    const before = process.env.SEAMLESS_AGGREGATOR;
    process.env.SEAMLESS_AGGREGATOR = 'off';
    try {
      off = await buildTestApp();
    } finally {
      if (before === undefined) delete process.env.SEAMLESS_AGGREGATOR;
      else process.env.SEAMLESS_AGGREGATOR = before;
    }
  });
  afterAll(() => off.close());

  test('no simulator: no driver and no page', async () => {
    expect(off.app.hub88Sim).toBeNull();
    expect((await off.app.inject({ method: 'GET', url: '/sim/hub88/play.js' })).statusCode).toBe(404);
  });
});
