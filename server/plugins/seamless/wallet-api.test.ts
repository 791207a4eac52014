import { runAudit, walletBalance } from '../../ledger';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { balanceBody, betBody, seamlessPlayer, signedCall, SEAMLESS_GAME, units, winBody } from '../../test/support/seamless';

/** The Wallet API's happy path: a signed bet, its win, the balance, on SQLite and PostgreSQL (docs/seamless-wallet.md). */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

test('a signed bet debits the wallet, its win credits it, the balance follows, every answer signed', async () => {
  const p = await seamlessPlayer(t.app, { balance: 10_000 });
  const bal0 = await signedCall(t.app, '/user/balance', balanceBody(p));
  expect(bal0).toMatchObject({ statusCode: 200, signatureOk: true, body: { user: p.user, status: 'RS_OK', currency: 'THB', balance: units(10_000) } });

  const bet = betBody(p, 2_500);
  const b = await signedCall(t.app, '/transaction/bet', bet);
  expect(b.statusCode).toBe(200);
  expect(b.signatureOk).toBe(true);
  expect(b.body).toEqual({ user: p.user, status: 'RS_OK', request_uuid: bet.request_uuid, currency: 'THB', balance: units(7_500) });
  expect(await walletBalance(t.app.db, p.id)).toBe(7_500);

  const win = winBody(p, bet, 4_000);
  const w = await signedCall(t.app, '/transaction/win', win);
  expect(w.signatureOk).toBe(true);
  expect(w.body).toEqual({ user: p.user, status: 'RS_OK', request_uuid: win.request_uuid, currency: 'THB', balance: units(11_500) });
  expect(await walletBalance(t.app.db, p.id)).toBe(11_500);

  const bal1 = await signedCall(t.app, '/user/balance', balanceBody(p));
  expect(bal1.body).toMatchObject({ status: 'RS_OK', balance: units(11_500) });

  // The round: one row, closed, its stake and win; one statement line with the net.
  const round = await t.app.db.selectFrom('bet_rounds').selectAll().where('player_id', '=', p.id).execute();
  expect(round.map((r) => ({ game: r.game_code, bet: Number(r.bet), win: Number(r.win), open: Number(r.open) }))).toEqual([{ game: SEAMLESS_GAME, bet: 2_500, win: 4_000, open: 0 }]);
  const lines = await t.app.db.selectFrom('statements').selectAll().where('player_id', '=', p.id).where('ref_type', '=', 'seamless_round').execute();
  expect(lines.map((l) => ({ type: l.statement_type, status: l.status, from: l.from_account, to: l.to_account, amount: Number(l.amount) }))).toEqual([
    { type: 'transfer', status: 'SUCCESS', from: SEAMLESS_GAME, to: 'WALLET', amount: 1_500 },
  ]);
  // The player's statement shows the round as one line, in baht.
  const st = await t.app.inject({ method: 'POST', url: '/api/statement', headers: p.headers, payload: { page: 1, limit: 10 } });
  expect(st.statusCode).toBe(200);
  expect(st.json().statements.filter((l: { from: string; to: string }) => l.from === SEAMLESS_GAME || l.to === SEAMLESS_GAME)).toEqual([
    expect.objectContaining({ statementType: 'transfer', status: 'SUCCESS', from: SEAMLESS_GAME, to: 'WALLET', amount: 15 }),
  ]);
  expect((await runAudit(t.app.db)).violations).toEqual([]);
});

describe("Hub88's documented examples", () => {
  test('the bet, win and rollback bodies of the Wallet API page (our user, token and currency) answer the documented shape, signed', async () => {
    const p = await seamlessPlayer(t.app, { balance: 50_000 });
    // Hub88's example bet (its field values), with our user, token and currency. Its amount, 100500 units, is 1.005 of
    // the currency: not a whole satang, which cannot be booked (RS_ERROR_WRONG_TYPES, nothing written).
    const example = `{"user":"${p.user}","transaction_uuid":"16d2dcfe-b89e-11e7-854a-58404eea6d16","supplier_transaction_id":"41ecc3ad-b181-4235-bf9d-acf0a7ad9730","token":"${p.token}","supplier_user":"cg_45141","round_closed":false,"round":"rNEMwgzJAOZ6eR3V","reward_uuid":"a28f93f2-98c5-41f7-8fbb-967985acf8fe","request_uuid":"583c985f-fee6-4c0e-bbf5-308aad6265af","is_free":false,"is_aggregated":false,"game_code":"clt_dragonrising","currency":"THB","bet":"zero","amount":100500,"meta":{"selection":"home_team","odds":2.5}}`;
    const refused = await signedCall(t.app, '/transaction/bet', example);
    expect(refused).toMatchObject({ signatureOk: true, body: { user: p.user, status: 'RS_ERROR_WRONG_TYPES', request_uuid: '583c985f-fee6-4c0e-bbf5-308aad6265af' } });
    // The same bet of Hub88's amount example ("$3.56 is represented as 356000"): 356 satang.
    const betText = example.replace('"amount":100500', '"amount":356000');
    const b = await signedCall(t.app, '/transaction/bet', betText);
    expect(b.signatureOk).toBe(true);
    expect(Object.keys(b.body)).toEqual(['user', 'status', 'request_uuid', 'currency', 'balance']);
    expect(b.body).toEqual({ user: p.user, status: 'RS_OK', request_uuid: '583c985f-fee6-4c0e-bbf5-308aad6265af', currency: 'THB', balance: units(50_000 - 356) });

    const winText = `{"user":"${p.user}","transaction_uuid":"26d2dcfe-b89e-11e7-854a-58404eea6d16","supplier_transaction_id":"51ecc3ad-b181-4235-bf9d-acf0a7ad9730","token":"${p.token}","supplier_user":"cg_45141","round_closed":true,"round":"rNEMwgzJAOZ6eR3V","reward_uuid":null,"request_uuid":"683c985f-fee6-4c0e-bbf5-308aad6265af","reference_transaction_uuid":"16d2dcfe-b89e-11e7-854a-58404eea6d16","is_free":false,"is_aggregated":false,"game_code":"clt_dragonrising","currency":"THB","bet":"zero","amount":200000,"meta":{"selection":"home_team","odds":2.5}}`;
    const w = await signedCall(t.app, '/transaction/win', winText);
    expect(w.signatureOk).toBe(true);
    expect(w.body).toEqual({ user: p.user, status: 'RS_OK', request_uuid: '683c985f-fee6-4c0e-bbf5-308aad6265af', currency: 'THB', balance: units(50_000 - 356 + 200) });

    const rbText = `{"user":"${p.user}","transaction_uuid":"36d2dcfe-b89e-11e7-854a-58404eea6d16","supplier_transaction_id":"61ecc3ad-b181-4235-bf9d-acf0a7ad9730","token":"${p.token}","round_closed":true,"round":"rNEMwgzJAOZ6eR3V","request_uuid":"783c985f-fee6-4c0e-bbf5-308aad6265af","reference_transaction_uuid":"46d2dcfe-b89e-11e7-854a-58404eea6d16","game_code":"clt_dragonrising","meta":{}}`;
    const r = await signedCall(t.app, '/transaction/rollback', rbText);
    expect(r.signatureOk).toBe(true);
    // A rollback of a bet that never arrived: recorded, RS_OK, nothing moves.
    expect(r.body).toEqual({ user: p.user, status: 'RS_OK', request_uuid: '783c985f-fee6-4c0e-bbf5-308aad6265af', currency: 'THB', balance: units(49_844) });
  });

  test('/user/info and /user/balance answer the documented fields', async () => {
    const p = await seamlessPlayer(t.app, { balance: 12_345 });
    const info = await signedCall(t.app, '/user/info', `{"user":"${p.user}","request_uuid":"583c985f-fee6-4c0e-bbf5-308aad6265af"}`);
    expect(info.signatureOk).toBe(true);
    expect(info.body).toEqual({ user: p.user, status: 'RS_OK', request_uuid: '583c985f-fee6-4c0e-bbf5-308aad6265af', country: 'TH', registration_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const bal = await signedCall(t.app, '/user/balance', `{"user":"${p.user}","token":"${p.token}","request_uuid":"583c985f-fee6-4c0e-bbf5-308aad6265af","game_code":"clt_dragonrising"}`);
    expect(bal.body).toEqual({ user: p.user, status: 'RS_OK', request_uuid: '583c985f-fee6-4c0e-bbf5-308aad6265af', currency: 'THB', balance: 12_345_000 });
  });
});

describe('signatures and malformed bodies', () => {
  test('a missing, wrong or foreign signature is RS_ERROR_INVALID_SIGNATURE and writes nothing; the answer is still signed', async () => {
    const p = await seamlessPlayer(t.app, { balance: 5_000 });
    const bet = betBody(p, 1_000);
    for (const signature of [null, '', 'not base64!', Buffer.from('x'.repeat(256)).toString('base64')]) {
      const r = await signedCall(t.app, '/transaction/bet', bet, { signature });
      expect(r).toMatchObject({ statusCode: 200, signatureOk: true, body: { status: 'RS_ERROR_INVALID_SIGNATURE', request_uuid: bet.request_uuid } });
    }
    // Signed by another key (ours, the operator's, is not the aggregator's).
    const { signBody, keyFromPem } = await import('../../adapters/aggregator');
    const { SIM_OPERATOR_PRIVATE } = await import('../../adapters/aggregator/sim-keys');
    const text = JSON.stringify(bet);
    const foreign = await signedCall(t.app, '/transaction/bet', text, { signature: signBody(text, keyFromPem(SIM_OPERATOR_PRIVATE, 'private')) });
    expect(foreign.body.status).toBe('RS_ERROR_INVALID_SIGNATURE');
    expect(await walletBalance(t.app.db, p.id)).toBe(5_000);
    expect(await t.app.db.selectFrom('seamless_transactions').select('id').where('player_id', '=', p.id).execute()).toEqual([]);
  });

  test('the signature covers the exact bytes: spacing kept verifies, the same JSON re-serialized does not', async () => {
    const p = await seamlessPlayer(t.app, { balance: 5_000 });
    const bet = betBody(p, 1_000);
    const spaced = JSON.stringify(bet, null, 2);
    const ok = await signedCall(t.app, '/transaction/bet', spaced);
    expect(ok.body.status).toBe('RS_OK');
    const { signBody, keyFromPem } = await import('../../adapters/aggregator');
    const { SIM_AGGREGATOR_PRIVATE } = await import('../../adapters/aggregator/sim-keys');
    const other = betBody(p, 1_000);
    const compactSignature = signBody(JSON.stringify(other), keyFromPem(SIM_AGGREGATOR_PRIVATE, 'private'));
    const bad = await signedCall(t.app, '/transaction/bet', JSON.stringify(other, null, 2), { signature: compactSignature });
    expect(bad.body.status).toBe('RS_ERROR_INVALID_SIGNATURE');
    expect(await walletBalance(t.app.db, p.id)).toBe(4_000);
  });

  test('the body is read raw whatever its content type, or none', async () => {
    const p = await seamlessPlayer(t.app, { balance: 5_000 });
    for (const contentType of ['text/plain', 'application/octet-stream', 'application/json; charset=utf-8']) {
      const r = await signedCall(t.app, '/user/balance', balanceBody(p), { contentType });
      expect([contentType, r.body.status]).toEqual([contentType, 'RS_OK']);
    }
    const { prefix } = (await import('./settings')).seamlessSettings(process.env);
    const empty = await t.app.inject({ method: 'POST', url: `${prefix}/user/balance` });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ status: 'RS_ERROR_INVALID_SIGNATURE' });
    // Over the app's body limit (64 KiB): unread, a Hub88 answer all the same.
    const big = await signedCall(t.app, '/transaction/bet', { ...betBody(p, 100), meta: { pad: 'x'.repeat(70_000) } });
    expect(big).toMatchObject({ statusCode: 200, signatureOk: true, body: { status: 'RS_ERROR_WRONG_SYNTAX' } });
    expect(await walletBalance(t.app.db, p.id)).toBe(5_000);
  });

  test('a body that is not JSON is RS_ERROR_WRONG_SYNTAX, a missing field too, a field of the wrong type RS_ERROR_WRONG_TYPES', async () => {
    const p = await seamlessPlayer(t.app, { balance: 5_000 });
    expect((await signedCall(t.app, '/transaction/bet', '{"user":')).body).toEqual({ status: 'RS_ERROR_WRONG_SYNTAX' });
    expect((await signedCall(t.app, '/transaction/bet', '[1,2]')).body.status).toBe('RS_ERROR_WRONG_SYNTAX');
    const bet = betBody(p, 1_000);
    for (const field of ['user', 'transaction_uuid', 'token', 'round', 'request_uuid', 'game_code', 'currency', 'amount']) {
      const { [field]: _gone, ...rest } = bet;
      const r = await signedCall(t.app, '/transaction/bet', rest);
      expect([field, r.body.status, r.signatureOk]).toEqual([field, 'RS_ERROR_WRONG_SYNTAX', true]);
    }
    const wrong: [string, unknown][] = [
      ['amount', '100000'], ['amount', 1.5], ['amount', -1000], ['amount', 1500], ['amount', null], ['user', 42], ['round_closed', 'yes'],
      ['is_free', 1], ['meta', 'x'], ['transaction_uuid', 'x'.repeat(129)], ['round', 'r'.repeat(101)], ['token', null],
    ];
    for (const [field, value] of wrong) {
      const r = await signedCall(t.app, '/transaction/bet', { ...bet, [field]: value });
      expect([field, value, r.body.status]).toEqual([field, value, 'RS_ERROR_WRONG_TYPES']);
    }
    const win = winBody(p, bet, 100);
    const { reference_transaction_uuid: _ref, ...noRef } = win;
    expect((await signedCall(t.app, '/transaction/win', noRef)).body.status).toBe('RS_ERROR_WRONG_SYNTAX');
    expect((await signedCall(t.app, '/transaction/rollback', { user: p.user, request_uuid: 'x', transaction_uuid: 'y' })).body.status).toBe('RS_ERROR_WRONG_SYNTAX');
    expect((await signedCall(t.app, '/user/info', { user: p.user })).body.status).toBe('RS_ERROR_WRONG_SYNTAX');
    expect((await signedCall(t.app, '/user/balance', { user: p.user, request_uuid: 'x', token: 5 })).body.status).toBe('RS_ERROR_WRONG_TYPES');
    expect(await walletBalance(t.app.db, p.id)).toBe(5_000);
    expect(await t.app.db.selectFrom('seamless_transactions').select('id').where('player_id', '=', p.id).execute()).toEqual([]);
  });
});

describe('without an aggregator', () => {
  test('SEAMLESS_AGGREGATOR=off registers no Wallet API: its paths are 404', async () => {
    const before = process.env.SEAMLESS_AGGREGATOR;
    process.env.SEAMLESS_AGGREGATOR = 'off';
    let off: TestApp | undefined;
    try {
      off = await buildTestApp();
      const { prefix } = (await import('./settings')).seamlessSettings(process.env);
      for (const path of ['/user/info', '/user/balance', '/transaction/bet', '/transaction/win', '/transaction/rollback']) {
        const r = await off.app.inject({ method: 'POST', url: `${prefix}${path}`, payload: { user: 'u000001' } });
        expect([path, r.statusCode]).toEqual([path, 404]);
      }
    } finally {
      if (before === undefined) delete process.env.SEAMLESS_AGGREGATOR;
      else process.env.SEAMLESS_AGGREGATOR = before;
      await off?.close();
    }
  });
});
