import { runAudit, walletBalance } from '../../ledger';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { betBody, rollbackBody, seamlessPlayer, signedCall, units, winBody } from '../../test/support/seamless';

/**
 * The Wallet API under concurrent calls of one player (docs/seamless-wallet.md "Concurrency"): the player's lock
 * serializes them on PostgreSQL as SQLite's single writer does, and the unique keys (transaction_uuid, the journal
 * reference) answer a concurrent duplicate with the first answer.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => {
  await t.close();
});

/** The money the calls may only move between them: the wallets and the seamless house accounts. */
async function walletsAndHouse(): Promise<number> {
  const rows = await t.app.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where((eb) => eb.or([eb('kind', '=', 'wallet'), eb('code', 'like', 'seamless_house:%')]))
    .execute();
  return rows.reduce((s, r) => s + Number(r.balance), 0);
}

test('50 parallel bets from one player with a balance for 10: exactly 10 succeed, the balance ends at 0, no money is created', async () => {
  const p = await seamlessPlayer(t.app, { balance: 10 * 700 });
  const total = await walletsAndHouse();
  const answers = await Promise.all(Array.from({ length: 50 }, () => signedCall(t.app, '/transaction/bet', betBody(p, 700))));
  const statuses = answers.map((a) => a.body.status);
  expect(statuses.filter((s) => s === 'RS_OK')).toHaveLength(10);
  expect(statuses.filter((s) => s === 'RS_ERROR_NOT_ENOUGH_MONEY')).toHaveLength(40);
  expect(answers.every((a) => a.statusCode === 200 && a.signatureOk)).toBe(true);
  // Each success answered the balance it left; together they walk the wallet down to 0.
  expect(answers.filter((a) => a.body.status === 'RS_OK').map((a) => a.body.balance).sort((x, y) => Number(x) - Number(y))).toEqual(Array.from({ length: 10 }, (_, i) => units(i * 700)));
  expect(await walletBalance(t.app.db, p.id)).toBe(0);
  expect(await walletsAndHouse()).toBe(total);
  const stored = await t.app.db.selectFrom('seamless_transactions').select('status').where('player_id', '=', p.id).execute();
  expect(stored.filter((s) => s.status === 'OK')).toHaveLength(10);
  expect(stored.filter((s) => s.status === 'REFUSED')).toHaveLength(40);
  expect((await runAudit(t.app.db)).violations).toEqual([]);
});

test('20 concurrent copies of one bet, then of its win, then of its rollback: each applied once, every copy answered the same', async () => {
  const p = await seamlessPlayer(t.app, { balance: 10_000 });
  const bet = betBody(p, 1_000);
  const bets = await Promise.all(Array.from({ length: 20 }, (_, i) => signedCall(t.app, '/transaction/bet', { ...bet, request_uuid: `b-${i}` })));
  expect(new Set(bets.map((a) => JSON.stringify({ ...a.body, request_uuid: undefined })))).toEqual(new Set([JSON.stringify({ user: p.user, status: 'RS_OK', currency: 'THB', balance: units(9_000) })]));
  expect(bets.map((a) => a.body.request_uuid)).toEqual(Array.from({ length: 20 }, (_, i) => `b-${i}`));
  const win = winBody(p, bet, 2_500, { round_closed: false });
  const wins = await Promise.all(Array.from({ length: 20 }, () => signedCall(t.app, '/transaction/win', win)));
  expect(new Set(wins.map((a) => a.body.balance))).toEqual(new Set([units(11_500)]));
  const rb = rollbackBody(p, bet);
  const rbs = await Promise.all(Array.from({ length: 20 }, () => signedCall(t.app, '/transaction/rollback', rb)));
  expect(new Set(rbs.map((a) => `${a.body.status}:${a.body.balance}`))).toEqual(new Set([`RS_OK:${units(12_500)}`]));
  expect(await walletBalance(t.app.db, p.id)).toBe(12_500);
  const kinds = await t.app.db.selectFrom('journal_entries').select('kind').where('player_id', '=', p.id).where('kind', 'like', 'seamless%').orderBy('id').execute();
  expect(kinds.map((k) => k.kind)).toEqual(['seamless_bet', 'seamless_win', 'seamless_rollback']);
  expect((await runAudit(t.app.db)).violations).toEqual([]);
});

test('players betting in parallel on one game do not block or disturb each other', async () => {
  const players = await Promise.all(Array.from({ length: 10 }, () => seamlessPlayer(t.app, { balance: 5_000 })));
  const total = await walletsAndHouse();
  const rounds = players.flatMap((p) => Array.from({ length: 5 }, () => ({ p, bet: betBody(p, 500) })));
  const placed = await Promise.all(rounds.map((r) => signedCall(t.app, '/transaction/bet', r.bet)));
  expect(placed.every((a) => a.body.status === 'RS_OK')).toBe(true);
  const paid = await Promise.all(rounds.map((r, i) => signedCall(t.app, '/transaction/win', winBody(r.p, r.bet, i % 2 ? 1_000 : 0))));
  expect(paid.every((a) => a.body.status === 'RS_OK')).toBe(true);
  for (const p of players) expect(await walletBalance(t.app.db, p.id)).toBeGreaterThanOrEqual(2_500);
  expect(await walletsAndHouse()).toBe(total);
  expect((await runAudit(t.app.db)).violations).toEqual([]);
});
