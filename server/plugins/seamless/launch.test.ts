import crypto from 'node:crypto';
import { buildLimitsTestApp, type LimitsPlayer, type LimitsTestApp } from '../../test/support/play-limits';
import { startHub88Fake, type Hub88Fake } from '../../test/support/fakes/hub88';
import { insertPlayer } from '../../test/support/ledger';
import type { GameUrlInput, SeamlessAggregator } from '../../adapters/aggregator';
import { seamlessSettings } from './settings';
import { seamlessUserId } from './users';

/**
 * GET /api/seamless/launch/:code (issue 42, docs/seamless-wallet.md "Launch and the simulator"): on both engines, over
 * app.inject against a real database, with the simulator as the aggregator (the default outside production).
 */
let t: LimitsTestApp;

/** A seamless game of our own, so the suite does not depend on the demo catalogue. */
const GAME = { code: 'lt_seam', aggregator_game_code: 'sim_launch_test' };

beforeAll(async () => {
  t = await buildLimitsTestApp();
  const base = { category: 'slot' as const, ft_wallet_slot: 1, logo: '/games/x.png', background: '/games/x.svg', has_web: 1, android: null, ios: null, login_with_password: 0, sort: 999 };
  await t.db.db
    .insertInto('games')
    .values([
      { ...base, ...GAME, name: 'Launch test', active: 1, wallet_mode: 'seamless', aggregator: 'hub88' },
      { ...base, code: 'lt_off', name: 'Inactive seamless', active: 0, wallet_mode: 'seamless', aggregator: 'hub88', aggregator_game_code: 'sim_off' },
      { ...base, code: 'lt_other', name: 'Another aggregator', active: 1, wallet_mode: 'seamless', aggregator: 'other88', aggregator_game_code: 'x_game' },
    ])
    .execute();
});
afterAll(() => t.close());
beforeEach(() => t.setNow(new Date()));
afterEach(() => jest.restoreAllMocks());

const launch = (p: LimitsPlayer, code = GAME.code, q = '') => t.req(p, 'GET', `/api/seamless/launch/${code}${q}`);
const sessionsOf = (playerId: number) => t.db.db.selectFrom('seamless_sessions').selectAll().where('player_id', '=', playerId).execute();
const jtiOf = (p: LimitsPlayer) => JSON.parse(Buffer.from(p.headers.authorization.split('.')[1], 'base64url').toString()).jti as string;
const aggregator = () => t.app.aggregator as SeamlessAggregator;

test('a logged-in player gets the game link; a session row holds the token, player, game, currency, login session and expiry', async () => {
  const p = await t.player();
  const res = await launch(p, GAME.code, '?lang=en');
  expect(res.statusCode).toBe(200);
  const { link } = res.json() as { link: string };
  expect(Object.keys(res.json())).toEqual(['link']);
  const url = new URL(link, 'http://x');
  expect(url.pathname).toBe('/sim/hub88/game');
  const token = url.searchParams.get('token')!;
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  expect(url.searchParams.get('game')).toBe(GAME.aggregator_game_code);
  expect(url.searchParams.get('lang')).toBe('en');
  expect(url.searchParams.get('currency')).toBe('THB');

  const rows = await sessionsOf(p.id);
  expect(rows).toHaveLength(1);
  const ttl = seamlessSettings(process.env).tokenTtlMs;
  expect(rows[0]).toMatchObject({
    token,
    player_id: p.id,
    game_code: GAME.code,
    aggregator: 'hub88',
    currency: 'THB',
    session_id: jtiOf(p),
    created_at: t.now().toISOString(),
    expires_at: new Date(t.now().getTime() + ttl).toISOString(),
  });
  expect(Number(rows[0].player_id)).toBe(p.id);

  // Every launch is a new game session with its own token.
  const again = await launch(p);
  expect(again.statusCode).toBe(200);
  expect(await sessionsOf(p.id)).toHaveLength(2);
});

test('the aggregator is asked with our user id, its game code, the currency, language, platform, lobby, address and country', async () => {
  const p = await t.player();
  const spy = jest.spyOn(aggregator(), 'gameUrl');
  expect((await launch(p, GAME.code, '?lang=la&platform=mobile')).statusCode).toBe(200);
  const [input] = spy.mock.calls[0] as [GameUrlInput];
  const [row] = await sessionsOf(p.id);
  expect(input).toEqual({
    user: seamlessUserId(p.id),
    token: row.token,
    gameCode: GAME.aggregator_game_code,
    currency: 'THB',
    lang: 'la',
    platform: 'GPL_MOBILE',
    lobbyUrl: '/user/home',
    ip: '127.0.0.1',
    country: 'TH',
  });
  // Defaults: the market's language (th) on a desktop.
  await launch(p);
  expect(spy.mock.calls[1][0]).toMatchObject({ lang: 'th', platform: 'GPL_DESKTOP' });
});

test('a kip player: the session and the game URL are in LAK, the country LA', async () => {
  const id = await insertPlayer(t.db.db, { currency: 'LAK' });
  const p = { id, headers: { authorization: `Bearer ${await t.app.tokens.issue(id)}` } };
  const spy = jest.spyOn(aggregator(), 'gameUrl');
  expect((await launch(p)).statusCode).toBe(200);
  expect(spy.mock.calls[0][0]).toMatchObject({ currency: 'LAK', country: 'LA' });
  expect((await sessionsOf(id))[0].currency).toBe('LAK');
});

test('404 NO_GAME for an unknown game, an inactive one, a transfer game and another aggregator\'s game; nothing written', async () => {
  const p = await t.player();
  for (const code of ['nosuchgame', 'lt_off', 'pg', 'lt_other']) {
    const res = await launch(p, code);
    expect([code, res.statusCode, res.json()]).toEqual([code, 404, { message: 'NO_GAME' }]);
  }
  expect(await sessionsOf(p.id)).toEqual([]);
});

test('a bad code or query is refused by the schema; no token is refused with 401', async () => {
  const p = await t.player();
  expect((await launch(p, 'BAD%20CODE')).statusCode).toBe(400);
  expect((await launch(p, GAME.code, '?lang=fr')).statusCode).toBe(400);
  expect((await launch(p, GAME.code, '?platform=tv')).statusCode).toBe(400);
  const anonymous = await t.app.inject({ method: 'GET', url: `/api/seamless/launch/${GAME.code}` });
  expect(anonymous.statusCode).toBe(401);
  expect(await sessionsOf(p.id)).toEqual([]);
});

test('a play route: a self-excluded player gets 403 SELF_EXCLUDED and no token; a timed-out one PLAY_TIMEOUT', async () => {
  const excluded = await t.player();
  expect((await t.req(excluded, 'POST', '/api/limits/restriction', { kind: 'EXCLUSION', period: '6m', confirm: true })).statusCode).toBe(200);
  const res = await launch(excluded);
  expect([res.statusCode, res.json()]).toEqual([403, { message: 'SELF_EXCLUDED' }]);
  expect(await sessionsOf(excluded.id)).toEqual([]);

  const resting = await t.player();
  expect((await t.req(resting, 'POST', '/api/limits/restriction', { kind: 'TIMEOUT', period: '24h', confirm: true })).statusCode).toBe(200);
  expect((await launch(resting)).json()).toEqual({ message: 'PLAY_TIMEOUT' });
  expect(t.app.routeCatalogue.find((r) => r.url === '/api/seamless/launch/:code')).toMatchObject({ method: 'GET', protected: true, play: true });
});

test('the aggregator failing: 502 GAME_ACTIVATION_FAIL (503 when its circuit is open) and the token is deleted again', async () => {
  const p = await t.player();
  jest.spyOn(aggregator(), 'gameUrl').mockRejectedValueOnce(Object.assign(new Error('boom'), { name: 'ProviderCallError' }));
  const res = await launch(p);
  expect([res.statusCode, res.json()]).toEqual([502, { message: 'GAME_ACTIVATION_FAIL' }]);
  expect(await sessionsOf(p.id)).toEqual([]);

  jest.spyOn(aggregator(), 'gameUrl').mockRejectedValueOnce(Object.assign(new Error('open'), { name: 'ProviderUnavailable' }));
  expect((await launch(p)).statusCode).toBe(503);
  expect(await sessionsOf(p.id)).toEqual([]);

  // The row existed while the aggregator was asked (it may call our Wallet API with the token before it answers).
  let during: unknown[] = [];
  jest.spyOn(aggregator(), 'gameUrl').mockImplementationOnce(async (input) => {
    during = await t.db.db.selectFrom('seamless_sessions').select('token').where('token', '=', input.token).execute();
    return 'https://games.example/x';
  });
  expect((await launch(p)).json()).toEqual({ link: 'https://games.example/x' });
  expect(during).toHaveLength(1);
});

/** The seamless plugin reads its aggregator from process.env at build: an app built under other settings. */
async function buildWithEnv(env: Record<string, string>): Promise<LimitsTestApp> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await buildLimitsTestApp();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('SEAMLESS_AGGREGATOR=off', () => {
  let off: LimitsTestApp;
  beforeAll(async () => {
    off = await buildWithEnv({ SEAMLESS_AGGREGATOR: 'off' });
  });
  afterAll(() => off.close());

  test('503 SEAMLESS_OFF, nothing written', async () => {
    expect(off.app.aggregator).toBeNull();
    const p = await off.player();
    const res = await off.req(p, 'GET', '/api/seamless/launch/pg');
    expect([res.statusCode, res.json()]).toEqual([503, { message: 'SEAMLESS_OFF' }]);
    expect(await off.db.db.selectFrom('seamless_sessions').selectAll().execute()).toEqual([]);
  });
});

describe('SEAMLESS_AGGREGATOR=hub88, against the Games API contract fake', () => {
  let h: LimitsTestApp;
  let fake: Hub88Fake;
  beforeAll(async () => {
    const ours = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const theirs = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    fake = await startHub88Fake({ operatorPublicKey: ours.publicKey.export({ type: 'spki', format: 'pem' }).toString(), operatorId: 77 });
    h = await buildWithEnv({
      SEAMLESS_AGGREGATOR: 'hub88',
      HUB88_OPERATOR_ID: '77',
      HUB88_BASE_URL: fake.url,
      HUB88_PUBLIC_KEY: theirs.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      SEAMLESS_PRIVATE_KEY: ours.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      HUB88_TIMEOUT_MS: '300',
    });
    await h.db.db
      .insertInto('games')
      .values({ code: 'lt_h88', name: 'Dragon', category: 'slot', ft_wallet_slot: 1, logo: '/games/x.png', background: '/games/x.svg', has_web: 1, android: null, ios: null, login_with_password: 0, active: 1, sort: 1, wallet_mode: 'seamless', aggregator: 'hub88', aggregator_game_code: 'clt_dragonrising' })
      .execute();
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  test("the link is Hub88's game URL for our signed call with the new token and an absolute lobby URL", async () => {
    const p = await h.player();
    const res = await h.req(p, 'GET', '/api/seamless/launch/lt_h88?lang=en');
    expect(res.statusCode).toBe(200);
    const [row] = await h.db.db.selectFrom('seamless_sessions').selectAll().where('player_id', '=', p.id).execute();
    expect(res.json()).toEqual({ link: fake.launched.get(row.token) });
    expect(fake.requests[0].body).toMatchObject({ user: seamlessUserId(p.id), token: row.token, operator_id: 77, game_code: 'clt_dragonrising', currency: 'THB', lang: 'en', country: 'TH', lobby_url: 'http://localhost:80/user/home' });
  });

  test('Hub88 refusing (404) or down: 502 GAME_ACTIVATION_FAIL and no token left', async () => {
    const p = await h.player();
    fake.games.delete('clt_dragonrising');
    try {
      const res = await h.req(p, 'GET', '/api/seamless/launch/lt_h88');
      expect([res.statusCode, res.json()]).toEqual([502, { message: 'GAME_ACTIVATION_FAIL' }]);
    } finally {
      fake.games.add('clt_dragonrising');
    }
    fake.mode = 'down';
    expect((await h.req(p, 'GET', '/api/seamless/launch/lt_h88')).statusCode).toBe(502);
    expect(await h.db.db.selectFrom('seamless_sessions').selectAll().where('player_id', '=', p.id).execute()).toEqual([]);
  });
});
