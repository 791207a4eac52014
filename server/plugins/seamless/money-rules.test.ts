import { runAudit, walletBalance } from '../../ledger';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import {
  AGGREGATOR_GAME,
  balanceBody,
  betBody,
  ensureSeamlessGame,
  rollbackBody,
  seamlessPlayer,
  signedCall,
  SEAMLESS_GAME,
  units,
  winBody,
  type SeamlessPlayer,
} from '../../test/support/seamless';

/**
 * The Wallet API's money rules on both engines (docs/seamless-wallet.md "Statuses", "Retries", "Rollbacks"): every
 * status a money call answers, idempotent retries of each call, duplicates, and the rollback rules.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  expect((await runAudit(t.app.db)).violations).toEqual([]);
  await t.close();
});

const call = async (path: string, body: Record<string, unknown>) => {
  const r = await signedCall(t.app, path, body);
  expect(r.statusCode).toBe(200);
  expect(r.signatureOk).toBe(true);
  return r.body;
};
const bet = (body: Record<string, unknown>) => call('/transaction/bet', body);
const win = (body: Record<string, unknown>) => call('/transaction/win', body);
const rollback = (body: Record<string, unknown>) => call('/transaction/rollback', body);
const rows = (p: SeamlessPlayer) =>
  t.app.db.selectFrom('seamless_transactions').select(['transaction_uuid', 'kind', 'status', 'amount']).where('player_id', '=', p.id).orderBy('id').execute();
const entries = (p: SeamlessPlayer) => t.app.db.selectFrom('journal_entries').select(['kind', 'reference']).where('player_id', '=', p.id).where('kind', 'like', 'seamless%').orderBy('id').execute();
const line = async (p: SeamlessPlayer) =>
  (await t.app.db.selectFrom('statements').select(['status', 'from_account', 'to_account', 'amount']).where('player_id', '=', p.id).where('ref_type', '=', 'seamless_round').execute()).map(
    (l) => ({ status: l.status, from: l.from_account, to: l.to_account, amount: Number(l.amount) }),
  );

describe('bets', () => {
  test('a retry answers the first answer with its own request_uuid and moves nothing again', async () => {
    const p = await seamlessPlayer(t.app, { balance: 10_000 });
    const b = betBody(p, 3_000);
    const first = await bet(b);
    expect(first).toMatchObject({ status: 'RS_OK', balance: units(7_000) });
    // Money moves in between: the retry still answers the first answer's balance.
    await bet(betBody(p, 1_000));
    const retry = await bet({ ...b, request_uuid: 'retry-1' });
    expect(retry).toEqual({ ...first, request_uuid: 'retry-1' });
    expect(await walletBalance(t.app.db, p.id)).toBe(6_000);
    expect((await entries(p)).length).toBe(2);
  });

  test('the same transaction_uuid with another amount, round, currency, game or user is RS_ERROR_DUPLICATE_TRANSACTION', async () => {
    const p = await seamlessPlayer(t.app, { balance: 10_000 });
    const other = await seamlessPlayer(t.app, { balance: 10_000 });
    const b = betBody(p, 1_000);
    await bet(b);
    await ensureSeamlessGame(t.app.db, { code: 'hub88_other', aggregatorGame: 'clt_other' });
    for (const change of [{ amount: units(2_000) }, { round: 'another' }, { currency: 'LAK' }, { game_code: 'clt_other' }]) {
      expect([change, (await bet({ ...b, ...change })).status]).toEqual([change, 'RS_ERROR_DUPLICATE_TRANSACTION']);
    }
    expect((await bet({ ...b, user: other.user, token: other.token })).status).toBe('RS_ERROR_DUPLICATE_TRANSACTION');
    // A win or a rollback may not reuse a bet's uuid either.
    expect((await win({ ...winBody(p, b, 100), transaction_uuid: b.transaction_uuid })).status).toBe('RS_ERROR_DUPLICATE_TRANSACTION');
    expect((await rollback({ ...rollbackBody(p, b), transaction_uuid: b.transaction_uuid })).status).toBe('RS_ERROR_DUPLICATE_TRANSACTION');
    expect(await walletBalance(t.app.db, p.id)).toBe(9_000);
    expect(await walletBalance(t.app.db, other.id)).toBe(10_000);
  });

  test('not enough money: RS_ERROR_NOT_ENOUGH_MONEY with the balance, stored: a retry after a deposit is refused the same', async () => {
    const p = await seamlessPlayer(t.app, { balance: 500 });
    const b = betBody(p, 501);
    expect(await bet(b)).toEqual({ user: p.user, status: 'RS_ERROR_NOT_ENOUGH_MONEY', request_uuid: b.request_uuid, currency: 'THB', balance: units(500) });
    const { depositTo } = await import('../../test/support/ledger');
    await depositTo(t.app.db, p.id, 1_000);
    expect(await bet({ ...b, request_uuid: 'again' })).toMatchObject({ status: 'RS_ERROR_NOT_ENOUGH_MONEY', request_uuid: 'again', balance: units(500) });
    expect(await walletBalance(t.app.db, p.id)).toBe(1_500);
    expect(await rows(p)).toEqual([{ transaction_uuid: b.transaction_uuid, kind: 'bet', status: 'REFUSED', amount: expect.anything() }]);
    // The whole balance is a valid bet.
    expect(await bet(betBody(p, 1_500))).toMatchObject({ status: 'RS_OK', balance: 0 });
  });

  test('tokens: unknown or of another user RS_ERROR_INVALID_TOKEN, expired RS_ERROR_TOKEN_EXPIRED; an unknown user too', async () => {
    const p = await seamlessPlayer(t.app, { balance: 5_000 });
    const other = await seamlessPlayer(t.app, { balance: 5_000 });
    expect((await bet(betBody(p, 100, { token: 'f'.repeat(64) }))).status).toBe('RS_ERROR_INVALID_TOKEN');
    expect(await bet(betBody(p, 100, { token: other.token }))).toMatchObject({ status: 'RS_ERROR_INVALID_TOKEN', balance: units(5_000) });
    expect((await bet(betBody(p, 100, { user: 'u999999999' }))).status).toBe('RS_ERROR_INVALID_TOKEN');
    expect((await bet(betBody(p, 100, { user: 'john12345' }))).status).toBe('RS_ERROR_INVALID_TOKEN');
    // One spelling of a user id: u000042, never u0000042 (our rounds are keyed by it).
    expect((await bet(betBody(p, 100, { user: `u0${p.user.slice(1)}` }))).status).toBe('RS_ERROR_INVALID_TOKEN');
    const expired = await seamlessPlayer(t.app, { balance: 5_000, expiresInMs: -1 });
    expect(await bet(betBody(expired, 100))).toMatchObject({ status: 'RS_ERROR_TOKEN_EXPIRED', balance: units(5_000) });
    expect((await call('/user/balance', balanceBody(expired))).status).toBe('RS_ERROR_TOKEN_EXPIRED');
    expect((await call('/user/balance', balanceBody(p, { token: other.token }))).status).toBe('RS_ERROR_INVALID_TOKEN');
    expect((await call('/user/info', { user: 'u999999999', request_uuid: 'x' })).status).toBe('RS_ERROR_UNKNOWN');
    for (const x of [p, other, expired]) expect(await walletBalance(t.app.db, x.id)).toBe(5_000);
  });

  test('the currency must be the wallet currency (RS_ERROR_WRONG_CURRENCY), the game a seamless game of the aggregator (RS_ERROR_INVALID_GAME)', async () => {
    const p = await seamlessPlayer(t.app, { balance: 5_000 });
    expect(await bet(betBody(p, 100, { currency: 'LAK' }))).toMatchObject({ status: 'RS_ERROR_WRONG_CURRENCY', currency: 'THB', balance: units(5_000) });
    expect((await bet(betBody(p, 100, { currency: 'EURO' }))).status).toBe('RS_ERROR_WRONG_CURRENCY');
    expect((await bet(betBody(p, 100, { game_code: 'clt_unknown' }))).status).toBe('RS_ERROR_INVALID_GAME');
    // A transfer game (no aggregator) is not one, nor an inactive seamless game.
    await t.app.db.updateTable('games').set({ aggregator_game_code: 'pg_transfer' }).where('code', '=', 'pg').execute();
    expect((await bet(betBody(p, 100, { game_code: 'pg_transfer' }))).status).toBe('RS_ERROR_INVALID_GAME');
    await ensureSeamlessGame(t.app.db, { code: 'hub88_off', aggregatorGame: 'clt_off', active: false });
    expect((await bet(betBody(p, 100, { game_code: 'clt_off' }))).status).toBe('RS_ERROR_INVALID_GAME');
    expect(await walletBalance(t.app.db, p.id)).toBe(5_000);
  });

  test('a free bet takes nothing from the wallet; its win is paid', async () => {
    const p = await seamlessPlayer(t.app, { balance: 100 });
    const b = betBody(p, 5_000, { is_free: true, reward_uuid: 'a28f93f2-98c5-41f7-8fbb-967985acf8fe' });
    expect(await bet(b)).toMatchObject({ status: 'RS_OK', balance: units(100) });
    expect(await win(winBody(p, b, 2_000))).toMatchObject({ status: 'RS_OK', balance: units(2_100) });
    expect(await line(p)).toEqual([{ status: 'SUCCESS', from: SEAMLESS_GAME, to: 'WALLET', amount: 2_000 }]);
  });
});

describe('wins', () => {
  test('a win after the token expired is paid; its retry answers the first answer', async () => {
    const p = await seamlessPlayer(t.app, { balance: 1_000 });
    const b = betBody(p, 1_000);
    await bet(b);
    await t.app.db.updateTable('seamless_sessions').set({ expires_at: new Date(0).toISOString() }).where('token', '=', p.token).execute();
    const w = winBody(p, b, 3_000);
    const first = await win(w);
    expect(first).toMatchObject({ status: 'RS_OK', balance: units(3_000) });
    expect(await win({ ...w, request_uuid: 'again' })).toEqual({ ...first, request_uuid: 'again' });
    expect(await walletBalance(t.app.db, p.id)).toBe(3_000);
  });

  test('a win must reference a standing bet of the same user and round: RS_ERROR_TRANSACTION_DOES_NOT_EXIST otherwise, not stored', async () => {
    const p = await seamlessPlayer(t.app, { balance: 5_000 });
    const other = await seamlessPlayer(t.app, { balance: 5_000 });
    const b = betBody(p, 1_000);
    await bet(b);
    const missing = winBody(p, { ...b, transaction_uuid: 'never-sent' }, 100);
    expect(await win(missing)).toMatchObject({ status: 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', balance: units(4_000) });
    expect((await win(winBody(p, b, 100, { round: 'another-round' }))).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    expect((await win(winBody(other, b, 100))).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    const w = winBody(p, b, 500);
    expect((await win({ ...w, reference_transaction_uuid: w.transaction_uuid })).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    // Not stored: the bet arriving later makes the win's retry pay.
    const late = betBody(p, 200);
    const lateWin = winBody(p, late, 700);
    expect((await win(lateWin)).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    await bet(late);
    expect(await win(lateWin)).toMatchObject({ status: 'RS_OK', balance: units(5_000 - 1_000 - 200 + 700) });
    expect((await win(winBody(p, b, 100, { currency: 'LAK' }))).status).toBe('RS_ERROR_WRONG_CURRENCY');
    expect((await win(winBody(p, b, 100, { game_code: 'clt_unknown' }))).status).toBe('RS_ERROR_INVALID_GAME');
    expect(await walletBalance(t.app.db, other.id)).toBe(5_000);
  });

  test('a round of several bets and wins: summed, open until the closing win, one statement line', async () => {
    const p = await seamlessPlayer(t.app, { balance: 10_000 });
    const b1 = betBody(p, 1_000);
    const b2 = betBody(p, 2_000, { round: b1.round });
    await bet(b1);
    await bet(b2);
    expect(await line(p)).toEqual([{ status: 'IN_PROGRESS', from: 'WALLET', to: SEAMLESS_GAME, amount: 3_000 }]);
    await win(winBody(p, b1, 500, { round_closed: false }));
    const open = await t.app.db.selectFrom('bet_rounds').select(['bet', 'win', 'open']).where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect([Number(open.bet), Number(open.win), Number(open.open)]).toEqual([3_000, 500, 1]);
    expect(await line(p)).toEqual([{ status: 'IN_PROGRESS', from: 'WALLET', to: SEAMLESS_GAME, amount: 3_000 }]);
    await win(winBody(p, b2, 0));
    expect(await line(p)).toEqual([{ status: 'SUCCESS', from: 'WALLET', to: SEAMLESS_GAME, amount: 2_500 }]);
    expect(await walletBalance(t.app.db, p.id)).toBe(7_500);
    // A bet closing its own round (round_closed: true, nothing to win) is a loss at once.
    await bet(betBody(p, 100, { round_closed: true }));
    expect((await line(p)).filter((l) => l.amount === 100)).toEqual([{ status: 'SUCCESS', from: 'WALLET', to: SEAMLESS_GAME, amount: 100 }]);
  });

  test("two players' bets in one round (a live table) are two rounds of ours", async () => {
    const p = await seamlessPlayer(t.app, { balance: 1_000 });
    const q = await seamlessPlayer(t.app, { balance: 1_000 });
    const shared = 'table-7-spin-42';
    const bp = betBody(p, 300, { round: shared });
    const bq = betBody(q, 400, { round: shared });
    await bet(bp);
    await bet(bq);
    await win(winBody(p, bp, 900));
    await win(winBody(q, bq, 0));
    expect(await line(p)).toEqual([{ status: 'SUCCESS', from: SEAMLESS_GAME, to: 'WALLET', amount: 600 }]);
    expect(await line(q)).toEqual([{ status: 'SUCCESS', from: 'WALLET', to: SEAMLESS_GAME, amount: 400 }]);
  });
});

describe('rollbacks', () => {
  test('a rollback reverses the bet (even with the token expired); its retry answers the first answer; a second rollback of the bet is RS_ERROR_TRANSACTION_ROLLED_BACK', async () => {
    const p = await seamlessPlayer(t.app, { balance: 2_000 });
    const b = betBody(p, 1_500);
    await bet(b);
    await t.app.db.updateTable('seamless_sessions').set({ expires_at: new Date(0).toISOString() }).where('token', '=', p.token).execute();
    const r = rollbackBody(p, b);
    const first = await rollback(r);
    expect(first).toEqual({ user: p.user, status: 'RS_OK', request_uuid: r.request_uuid, currency: 'THB', balance: units(2_000) });
    expect(await rollback({ ...r, request_uuid: 'again' })).toEqual({ ...first, request_uuid: 'again' });
    expect(await rollback(rollbackBody(p, b))).toMatchObject({ status: 'RS_ERROR_TRANSACTION_ROLLED_BACK', balance: units(2_000) });
    expect(await walletBalance(t.app.db, p.id)).toBe(2_000);
    expect((await entries(p)).map((e) => e.kind)).toEqual(['seamless_bet', 'seamless_rollback']);
    expect(await line(p)).toEqual([{ status: 'FAILED', from: 'WALLET', to: SEAMLESS_GAME, amount: 1_500 }]);
    const round = await t.app.db.selectFrom('bet_rounds').select(['bet', 'open']).where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect([Number(round.bet), Number(round.open)]).toEqual([0, 0]);
    // The bet's retry still answers its first answer; a win of the rolled-back bet does not exist.
    expect((await bet({ ...b, request_uuid: 'late-retry' })).status).toBe('RS_OK');
    expect((await win(winBody(p, b, 5_000))).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    expect(await walletBalance(t.app.db, p.id)).toBe(2_000);
  });

  test('a rollback of a bet that never arrived is recorded (RS_OK): the late bet is refused RS_ERROR_TRANSACTION_ROLLED_BACK, and so is its retry', async () => {
    const p = await seamlessPlayer(t.app, { balance: 2_000 });
    const b = betBody(p, 1_000);
    expect(await rollback(rollbackBody(p, b))).toMatchObject({ status: 'RS_OK', balance: units(2_000) });
    expect(await bet(b)).toMatchObject({ status: 'RS_ERROR_TRANSACTION_ROLLED_BACK', balance: units(2_000) });
    expect((await bet({ ...b, request_uuid: 'again' })).status).toBe('RS_ERROR_TRANSACTION_ROLLED_BACK');
    expect(await walletBalance(t.app.db, p.id)).toBe(2_000);
    expect(await entries(p)).toEqual([]);
    expect(await line(p)).toEqual([]);
  });

  test('a rollback of a win (or of a rollback) is refused RS_ERROR_TRANSACTION_DOES_NOT_EXIST and moves nothing', async () => {
    const p = await seamlessPlayer(t.app, { balance: 2_000 });
    const b = betBody(p, 1_000);
    await bet(b);
    const w = winBody(p, b, 4_000);
    await win(w);
    expect(await rollback(rollbackBody(p, w))).toMatchObject({ status: 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', balance: units(5_000) });
    const tomb = rollbackBody(p, { transaction_uuid: 'nothing', round: 'x' });
    await rollback(tomb);
    expect((await rollback(rollbackBody(p, tomb))).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    // Another user's bet is not this user's to roll back.
    const q = await seamlessPlayer(t.app, { balance: 2_000 });
    expect((await rollback(rollbackBody(q, b))).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    expect(await walletBalance(t.app.db, p.id)).toBe(5_000);
    expect(await walletBalance(t.app.db, q.id)).toBe(2_000);
  });

  test('a rollback of a refused bet gives nothing back and answers RS_OK; one bet of two rolled back leaves the round open with the other stake', async () => {
    const p = await seamlessPlayer(t.app, { balance: 1_000 });
    const refused = betBody(p, 5_000);
    expect((await bet(refused)).status).toBe('RS_ERROR_NOT_ENOUGH_MONEY');
    expect(await rollback(rollbackBody(p, refused))).toMatchObject({ status: 'RS_OK', balance: units(1_000) });
    const b1 = betBody(p, 300);
    const b2 = betBody(p, 200, { round: b1.round });
    await bet(b1);
    await bet(b2);
    await rollback(rollbackBody(p, b2));
    expect(await line(p)).toEqual([{ status: 'IN_PROGRESS', from: 'WALLET', to: SEAMLESS_GAME, amount: 300 }]);
    expect(await walletBalance(t.app.db, p.id)).toBe(700);
    await win(winBody(p, b1, 1_000));
    expect(await line(p)).toEqual([{ status: 'SUCCESS', from: SEAMLESS_GAME, to: 'WALLET', amount: 700 }]);
  });
});

test('every money status answers with the balance in Hub88 units and the wallet currency; the game code of the examples is ours', async () => {
  const p = await seamlessPlayer(t.app, { balance: 1_234 });
  expect(await call('/user/balance', balanceBody(p))).toEqual({ user: p.user, status: 'RS_OK', request_uuid: expect.any(String), currency: 'THB', balance: 1_234_000 });
  const g = await t.app.db.selectFrom('games').select(['code', 'wallet_mode']).where('aggregator_game_code', '=', AGGREGATOR_GAME).execute();
  expect(g).toEqual([{ code: SEAMLESS_GAME, wallet_mode: 'seamless' }]);
});
