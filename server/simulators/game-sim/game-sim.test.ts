import { buildTestApp, testConfig, type TestApp } from '../../test/support/helper';
import { GameSimulator } from '../../adapters/games/simulator';
import { createGameProvider, simulatorOptionsFromEnv } from '../../adapters/games';
import { ensureTestGames } from '../../test/support/games-sim';
import { ConfigError } from '../../config';
import { PLAY_JS } from './assets';

let t: TestApp;
let nextPlayer = 100;

beforeAll(async () => {
  t = await buildTestApp();
  await ensureTestGames(t.db.db);
});
afterAll(() => t.close());

/** A funded account and its launch token. */
async function player(game = 'pg', satang = 10_000) {
  const p = await t.app.gameProvider.createPlayer(game, nextPlayer++);
  if (satang > 0) await t.app.gameProvider.deposit(game, p.username, `fund-${p.username}-${game}`, satang);
  const url = await t.app.gameProvider.launchUrl(game, p.username, p.password);
  return { ...p, url, token: new URL(url, 'http://x').searchParams.get('t')! };
}

const round = (token: string, bet: unknown, game = 'pg') =>
  t.app.inject({ method: 'POST', url: `/sim/games/${game}/round`, payload: { t: token, bet } });

test('in demo mode the app provides the simulator as its game provider', () => {
  expect(t.app.gameProvider).toBeInstanceOf(GameSimulator);
  expect(t.app.gameSim).toBe(t.app.gameProvider);
});

describe('the game page', () => {
  test('opens at the launch URL with the balance, labelled controls, a live result region and its own CSP', async () => {
    const p = await player('pg', 12_345);
    expect(p.url).toMatch(/^\/sim\/games\/pg\/play\?t=/);
    const res = await t.app.inject({ method: 'GET', url: `${p.url}&lang=en` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const html = res.body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('123.45');
    expect(html).toContain(p.username);
    expect(html).toMatch(/<label for="bet">Bet amount<\/label>/);
    expect(html).toMatch(/<button type="submit" id="spin"[^>]*>Spin<\/button>/);
    expect(html).toMatch(/id="result"[^>]*aria-live="polite"/);
    expect(html).toContain('<script src="/sim/games/play.js" defer></script>');
    expect(html).not.toMatch(/<script>(?!<)/); // no inline executable script
  });

  test('speaks Thai, Lao and English, defaulting to the market language', async () => {
    const p = await player();
    const th = await t.app.inject({ method: 'GET', url: p.url });
    expect(th.body).toContain('<html lang="th">');
    expect(th.body).toContain('ยอดเงินในเกม');
    const la = await t.app.inject({ method: 'GET', url: `${p.url}&lang=la` });
    expect(la.body).toContain('<html lang="lo">');
    expect(la.body).toContain('ຍອດເງິນໃນເກມ');
    const en = await t.app.inject({ method: 'GET', url: `${p.url}&lang=en` });
    expect(en.body).toContain('Game balance');
  });

  test('a forged, missing, expired, other-game or pre-reset token gets the expired page with 401', async () => {
    const p = await player();
    // Other simulators over the same provider state (its own store: game-sim.sqlite on SQLite) and catalogue.
    const store = t.app.gameSim!.store;
    const forged = await new GameSimulator(store, { secret: 'not-the-server-secret-at-all-123', catalogue: t.db.db }).launchUrl('pg', p.username);
    const expired = await new GameSimulator(store, {
      catalogue: t.db.db,
      secret: testConfig(t.db.dataDir).jwtSecret,
      now: () => new Date(Date.now() - 24 * 3600 * 1000),
    }).launchUrl('pg', p.username);
    const urls = [forged, expired, '/sim/games/pg/play', `/sim/games/joker2/play?t=${encodeURIComponent(p.token)}`];
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}lang=en` });
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('This game link has expired');
    }
    // The same server's key, unexpired: accepted until the password is reset.
    expect((await t.app.inject({ method: 'GET', url: p.url })).statusCode).toBe(200);
    await t.app.gameProvider.resetPassword('pg', p.username);
    expect((await t.app.inject({ method: 'GET', url: p.url })).statusCode).toBe(401);
  });

  test('serves its script and stylesheet as files; the script parses', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/sim/games/play.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(() => new Function(js.body)).not.toThrow();
    expect(js.body).toBe(PLAY_JS);
    const css = await t.app.inject({ method: 'GET', url: '/sim/games/play.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });
});

describe('POST /sim/games/:code/round', () => {
  test('takes the bet and pays the win in baht, and the provider balance agrees', async () => {
    const p = await player('pg', 10_000);
    let expected = 100;
    for (let i = 0; i < 20; i++) {
      const res = await round(p.token, 2.5);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.bet).toBe(2.5);
      expect([0, 5, 12.5, 50]).toContain(body.win);
      expected = Math.round((expected - 2.5 + body.win) * 100) / 100;
      expect(body.balance).toBe(expected);
      expect(body.symbols).toHaveLength(3);
    }
    expect(await t.app.gameProvider.balance('pg', p.username)).toBe(Math.round(expected * 100));
  });

  test('refuses a bet above the balance, zero, negative or with more than 2 decimals, without touching the balance', async () => {
    const p = await player('pg', 1_000);
    const over = await round(p.token, 10.01);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });
    for (const bet of [0, -1, 0.001]) {
      const res = await round(p.token, bet);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'INVALID_BET' });
    }
    expect((await round(p.token, 'ten')).statusCode).toBe(400);
    expect(await t.app.gameProvider.balance('pg', p.username)).toBe(1_000);
    expect((await round(p.token, 10)).statusCode).toBe(200);
  });

  test('refuses a forged token and a token for another game', async () => {
    const p = await player();
    const forged = `${p.token.slice(0, -2)}xx`;
    expect((await round(forged, 1)).json()).toEqual({ message: 'invalid-token' });
    expect((await round(p.token, 1, 'joker2')).statusCode).toBe(401);
    expect(await t.app.gameProvider.balance('pg', p.username)).toBe(10_000);
  });

  test('rounds appear in the bet feed with turnover and win per player, once', async () => {
    const start = await t.app.gameProvider.betFeed('pg', null);
    let cursor = start.cursor;
    for (let page = start; page.rows.length > 0; page = await t.app.gameProvider.betFeed('pg', cursor)) cursor = page.cursor;
    const p = await player('pg', 50_000);
    const played = [];
    for (const bet of [1, 2, 3]) played.push((await round(p.token, bet)).json());
    const feed = await t.app.gameProvider.betFeed('pg', cursor);
    expect(feed.rows.map((r) => ({ roundId: r.roundId, username: r.username, bet: r.bet, win: r.win }))).toEqual(
      played.map((r) => ({ roundId: r.roundId, username: p.username, bet: r.bet * 100, win: r.win * 100 })),
    );
    expect((await t.app.gameProvider.betFeed('pg', feed.cursor)).rows).toEqual([]);
  });
});

test('POST /sim/games/:code/balance answers the page with the current balance', async () => {
  const p = await player('pg', 4_321);
  const res = await t.app.inject({ method: 'POST', url: '/sim/games/pg/balance', payload: { t: p.token } });
  expect(res.json()).toEqual({ username: p.username, balance: 43.21 });
  expect((await t.app.inject({ method: 'POST', url: '/sim/games/pg/balance', payload: { t: 'v1.a.b' } })).statusCode).toBe(401);
});

describe('configuration', () => {
  const config = (env: Record<string, string> = {}) => testConfig('/tmp/unused', env);

  test('reads the knobs from the environment', () => {
    const o = simulatorOptionsFromEnv(config(), {
      GAME_SIM_LATENCY_MS: '150',
      GAME_SIM_FAILURE_RATE: '0.1',
      GAME_SIM_TIMEOUT_RATE: '0.05',
      GAME_SIM_TIMEOUT_MODE: 'after-apply',
      GAME_SIM_SEED: '7',
      GAME_SIM_HOUSE_EDGE: '0.02',
      PUBLIC_URL: 'https://wallet.example/',
    });
    expect(o).toMatchObject({ latencyMs: 150, failureRate: 0.1, timeoutRate: 0.05, timeoutMode: 'after-apply', seed: 7, houseEdge: 0.02, baseUrl: 'https://wallet.example' });
    expect(simulatorOptionsFromEnv(config(), { NODE_ENV: 'test' }).latencyMs).toBe(0);
    expect(simulatorOptionsFromEnv(config(), { NODE_ENV: 'production' }).latencyMs).toBe(150);
  });

  test('refuses bad knobs with a clear message', () => {
    expect(() => simulatorOptionsFromEnv(config(), { GAME_SIM_FAILURE_RATE: '2' })).toThrow(ConfigError);
    expect(() => simulatorOptionsFromEnv(config(), { GAME_SIM_FAILURE_RATE: '0.7', GAME_SIM_TIMEOUT_RATE: '0.7' })).toThrow(ConfigError);
    expect(() => simulatorOptionsFromEnv(config(), { GAME_SIM_TIMEOUT_MODE: 'sometimes' })).toThrow(ConfigError);
    expect(() => simulatorOptionsFromEnv(config(), { GAME_SIM_LATENCY_MS: '-5' })).toThrow(ConfigError);
  });

  test('outside demo mode the provider must be chosen deliberately; unknown providers are refused', () => {
    const live = testConfig('/tmp/unused', { DEMO: 'off' });
    expect(() => createGameProvider(live, t.db.db, { env: {} })).toThrow(/GAME_PROVIDER is required/);
    expect(createGameProvider(live, t.db.db, { env: { GAME_PROVIDER: 'simulator' } })).toBeInstanceOf(GameSimulator);
    expect(() => createGameProvider(config(), t.db.db, { env: { GAME_PROVIDER: 'acme' } })).toThrow(ConfigError);
  });
});
