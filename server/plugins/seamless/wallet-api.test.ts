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
  expect((await runAudit(t.app.db)).violations).toEqual([]);
});
