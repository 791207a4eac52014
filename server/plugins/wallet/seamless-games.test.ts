import { buildWalletTestApp, depositTo, type WalletTestApp } from '../../test/support/ledger';
import { runAudit, walletBalance } from '../../ledger';
import { nowIso } from '../../db';
import { cachedActiveGames, forgetActiveGames } from './repository';

/**
 * Issue 42: a seamless game (games.wallet_mode 'seamless') in the wallet's routes. GET /api/wallet lists it with
 * `seamless: true` and never an account, a balance or a link; every transfer and game-account route refuses it with
 * 422 SEAMLESS_GAME before anything is written or the provider is asked (docs/seamless-wallet.md).
 */

let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
  await insertSeamlessGame('sm_dragon');
});
afterAll(() => t.close());
afterEach(async () => {
  jest.restoreAllMocks();
  const audit = await runAudit(t.db.db);
  expect(audit.violations).toEqual([]);
});

/** A seamless game row, as server/test/support/games-sim.ts writes the transfer ones. */
async function insertSeamlessGame(code: string, active = 1) {
  await t.db.db
    .insertInto('games')
    .values({
      code,
      name: `Seamless ${code}`,
      category: 'slot',
      login_with_password: 0,
      ft_wallet_slot: 1,
      logo: `/img/${code}.png`,
      background: `/img/${code}-bg.png`,
      has_web: 1,
      android: null,
      ios: null,
      active,
      sort: 0,
      wallet_mode: 'seamless',
      aggregator: 'hub88',
      aggregator_game_code: 'x',
    })
    .execute();
  forgetActiveGames(t.db.db);
}

type H = { authorization: string };
const get = (url: string, headers?: H) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: object, headers: H) => t.app.inject({ method: 'POST', url, payload, headers });
type Slot = { code: string; seamless: boolean; isActive: boolean; amount: number; web: string | null };
const slots = async (headers: H): Promise<Slot[]> => (await get('/api/wallet', headers)).json().slots;
const transfersOf = (playerId: number) => t.db.db.selectFrom('game_transfers').select('id').where('player_id', '=', playerId).execute();

describe('GET /api/wallet with a seamless game', () => {
  test('every slot says whether it is seamless; the seamless one has no account, nothing in it and no link', async () => {
    const p = await t.player({ balance: 5_000, games: ['pg'] });
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 10 }, p.headers);
    const list = await slots(p.headers);
    expect(list.every((s) => typeof s.seamless === 'boolean')).toBe(true);
    expect(list.find((s) => s.code === 'sm_dragon')).toMatchObject({ seamless: true, isActive: false, amount: 0, web: null, category: 'slot', name: 'Seamless sm_dragon' });
    expect(list.find((s) => s.code === 'pg')).toMatchObject({ seamless: false, isActive: true, amount: 10, web: expect.stringMatching(/^\/api\/autoLogin\/pg\//) });
    // The flag is the game's wallet_mode, for every game (the seed may hold a seamless demo slot too).
    const modes = await t.db.db.selectFrom('games').select(['code', 'wallet_mode']).where('active', '=', 1).execute();
    expect(Object.fromEntries(list.map((s) => [s.code, s.seamless]))).toEqual(Object.fromEntries(modes.map((g) => [g.code, g.wallet_mode === 'seamless'])));
    expect(list.filter((s) => s.seamless).every((s) => !s.isActive && s.amount === 0 && s.web === null)).toBe(true);
    // The refresh answers the same view.
    const refreshed = (await get('/api/wallet/refresh/slot', p.headers)).json().slots as Slot[];
    expect(refreshed.find((s) => s.code === 'sm_dragon')).toMatchObject({ seamless: true, isActive: false, amount: 0, web: null });
  });

  test('an account left from when the game was a transfer game is not shown, nor asked for its balance', async () => {
    const p = await t.player();
    const now = nowIso();
    await t.db.db
      .insertInto('game_accounts')
      .values({ player_id: p.id, game_code: 'sm_dragon', username: `old${p.id}`, password: 'x', event: null, created_at: now, updated_at: now })
      .execute();
    const balance = jest.spyOn(t.sim, 'balance');
    expect((await slots(p.headers)).find((s) => s.code === 'sm_dragon')).toMatchObject({ seamless: true, isActive: false, amount: 0, web: null });
    const res = await get('/api/wallet/refresh/slot', p.headers);
    expect(res.statusCode).toBe(200);
    expect(balance.mock.calls.filter(([game]) => game === 'sm_dragon')).toEqual([]);
    // Nor does it take a transfer (the games cache is fresh: the wallet view above read it).
    await depositTo(t.db.db, p.id, 1_000);
    await cachedActiveGames(t.db.db);
    const deposit = jest.spyOn(t.sim, 'deposit');
    const refused = await post('/api/wallet/transfer', { from: 'WALLET', to: 'sm_dragon', amount: 5 }, p.headers);
    expect([refused.statusCode, refused.json()]).toEqual([422, { message: 'SEAMLESS_GAME' }]);
    expect(deposit).not.toHaveBeenCalled();
    expect(await walletBalance(t.db.db, p.id)).toBe(1_000);
  });
});

describe('the wallet routes refuse a seamless game with 422 SEAMLESS_GAME', () => {
  test('transfers to, from and through it move nothing and open no transfer', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 20 }, p.headers);
    const before = (await transfersOf(p.id)).length;
    const deposit = jest.spyOn(t.sim, 'deposit');
    const withdraw = jest.spyOn(t.sim, 'withdraw');
    const cases: [string, object][] = [
      ['/api/wallet/transfer', { from: 'WALLET', to: 'sm_dragon', amount: 5 }],
      ['/api/wallet/transfer', { from: 'sm_dragon', to: 'WALLET', amount: 5 }],
      ['/api/wallet/transfer', { from: 'pg', to: 'sm_dragon', amount: 5 }],
      ['/api/wallet/transfer', { from: 'sm_dragon', to: 'pg', amount: 5 }],
      ['/api/wallet/transferAll', { to: 'sm_dragon' }],
    ];
    // Refused from the games cache while it is fresh, and on the protocol's refusal when it is not (no read more).
    for (const cache of ['fresh', 'cold'] as const) {
      for (const [url, body] of cases) {
        if (cache === 'cold') forgetActiveGames(t.db.db);
        else await cachedActiveGames(t.db.db);
        const res = await post(url, body, p.headers);
        expect([cache, url, JSON.stringify(body), res.statusCode, res.json()]).toEqual([cache, url, JSON.stringify(body), 422, { message: 'SEAMLESS_GAME' }]);
      }
    }
    expect(deposit).not.toHaveBeenCalled();
    expect(withdraw).not.toHaveBeenCalled();
    expect(await walletBalance(t.db.db, p.id)).toBe(8_000);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(2_000);
    expect((await transfersOf(p.id)).length).toBe(before);
  });

  test('with an Idempotency-Key the refusal is the answer, and a retry gets it again', async () => {
    const p = await t.player({ balance: 10_000 });
    const headers = { ...p.headers, 'idempotency-key': `seamless-${p.id}` };
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', payload: { from: 'WALLET', to: 'sm_dragon', amount: 5 }, headers });
      expect([res.statusCode, res.json()]).toEqual([422, { message: 'SEAMLESS_GAME' }]);
    }
    expect(await walletBalance(t.db.db, p.id)).toBe(10_000);
  });

  test('a seamless game added after the games were cached is refused too', async () => {
    const p = await t.player({ balance: 10_000 });
    await slots(p.headers); // the games cache now holds the list without it
    await t.db.db
      .insertInto('games')
      .values({
        code: 'sm_late', name: 'Late', category: 'slot', login_with_password: 0, ft_wallet_slot: 1, logo: '/l.png', background: '/b.png', has_web: 1,
        android: null, ios: null, active: 1, sort: 0, wallet_mode: 'seamless', aggregator: 'hub88', aggregator_game_code: 'x',
      })
      .execute();
    const res = await post('/api/wallet/transfer', { from: 'WALLET', to: 'sm_late', amount: 5 }, p.headers);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'SEAMLESS_GAME' }]);
    expect(await walletBalance(t.db.db, p.id)).toBe(10_000);
  });

  test('an inactive seamless game is NO_GAME, as any inactive game', async () => {
    await insertSeamlessGame('sm_off', 0);
    const p = await t.player({ balance: 10_000 });
    const res = await post('/api/wallet/transfer', { from: 'WALLET', to: 'sm_off', amount: 5 }, p.headers);
    expect([res.statusCode, res.json()]).toEqual([404, { message: 'NO_GAME' }]);
    expect((await get('/api/wallet/activate/sm_off', p.headers)).json()).toEqual({ message: 'NO_GAME' });
  });

  test('the game-account routes: activate, account, reset password and auto-login; no account is opened', async () => {
    const p = await t.player({ balance: 10_000 });
    const asked = ['createPlayer', 'resetPassword', 'launchUrl'].map((m) => jest.spyOn(t.sim, m as 'createPlayer'));
    for (const url of [
      '/api/wallet/activate/sm_dragon',
      '/api/wallet/account/sm_dragon',
      '/api/wallet/resetpassword/sm_dragon',
      `/api/autoLogin/sm_dragon/pw${p.id}`,
      `/api/autoLogin/sm_dragon/pw${p.id}/secret`,
    ]) {
      const res = await get(url, p.headers);
      expect([url, res.statusCode, res.json()]).toEqual([url, 422, { message: 'SEAMLESS_GAME' }]);
    }
    for (const spy of asked) expect(spy).not.toHaveBeenCalled();
    const accounts = await t.db.db.selectFrom('game_accounts').select('game_code').where('player_id', '=', p.id).execute();
    expect(accounts).toEqual([]);
    expect((await slots(p.headers)).find((s) => s.code === 'sm_dragon')).toMatchObject({ isActive: false, seamless: true });
  });
});
