import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { gameBalances, runAudit, walletBalance } from '../../ledger';
import { testEngine } from '../../test/support/helper';

let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
});
afterAll(() => t.close());

test('200 simultaneous transfers from a wallet that covers 50: exactly 50 settle, 150 MONEY_NOT_ENOUGH, wallet 0', async () => {
  const p = await t.player({ balance: 50 * 10_00, games: ['pg'] });
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: 200 }, () =>
      t.app.inject({ method: 'POST', url: '/api/wallet/transfer', payload: { from: 'WALLET', to: 'pg', amount: 10 }, headers: p.headers }),
    ),
  );
  const ms = Date.now() - started;
  const ok = answers.filter((a) => a.statusCode === 200);
  const refused = answers.filter((a) => a.statusCode === 422 && a.json().message === 'MONEY_NOT_ENOUGH');
  expect(ok).toHaveLength(50);
  expect(refused).toHaveLength(150);
  expect(await walletBalance(t.db.db, p.id)).toBe(0);
  expect((await gameBalances(t.db.db, p.id)).get('pg')).toBe(50 * 10_00);
  expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(50 * 10_00);
  const settled = await t.db.db.selectFrom('game_transfers').select('status').where('player_id', '=', p.id).execute();
  expect(settled).toHaveLength(50); // a refused transfer leaves no row: its transaction rolled back
  expect(settled.every((s) => s.status === 'settled')).toBe(true);
  expect((await runAudit(t.db.db)).violations).toEqual([]);
  console.log(`[${testEngine()}] 200 concurrent transfers: ${ms} ms`);
}, 60_000);
