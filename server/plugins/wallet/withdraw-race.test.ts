import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { isPostgres } from '../../db/portable';
import { walletBalance } from '../../ledger';
import { creditWallet } from '../../ledger/journal';
import { buildWalletTestApp, depositTo, type WalletTestApp } from '../../test/support/ledger';

/**
 * Issue 43: a withdrawal reads the bonus gate before its movement, which posts only over the wallet version read
 * before the gate (withdrawals.ts walletStillAt). A bonus activated between the two (here: the gate itself credits the
 * wallet, as an activation does, and says the bonus is active from then on) is caught: the movement is refused, the
 * withdrawal planned again, and the gate's new answer refuses it. Nothing is withdrawn. Both engines.
 */
let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
});
afterAll(async () => {
  t.app.wallet.setBonusGate(async () => false);
  await t.close();
});

/** A credit through the handle the gate is given: the pool on PostgreSQL, the movement's transaction on SQLite. */
async function credit(db: Kysely<DB>, playerId: number, amount: number): Promise<void> {
  if (isPostgres(db)) await depositTo(db, playerId, amount);
  else await creditWallet(db as Transaction<DB>, { playerId, amount, from: 'bonus_budget', fromScope: 'RACE', kind: 'bonus', reference: `race:${playerId}:${Date.now()}` });
}

test('a bonus credited between the gate and the debit is seen: BONUS_CONDITION, nothing withdrawn', async () => {
  const p = await t.player({ balance: 500_00 });
  let activated = false;
  let calls = 0;
  t.app.wallet.setBonusGate(async (db, id) => {
    if (id !== p.id) return false;
    calls += 1;
    if (activated) return true;
    // The activation lands right after the gate's read: the wallet moves, the bonus is active from now on.
    activated = true;
    await credit(db, p.id, 100_00);
    return false;
  });
  const res = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: 200 } });
  expect([res.statusCode, res.json().message]).toEqual([422, 'BONUS_CONDITION']);
  expect(calls).toBe(2);
  // On PostgreSQL the credit committed on its own; on SQLite it was in the refused movement's transaction.
  expect(await walletBalance(t.db.db, p.id)).toBe(isPostgres(t.db.db) ? 600_00 : 500_00);
  expect(await t.db.db.selectFrom('withdrawals').select('id').where('player_id', '=', p.id).execute()).toEqual([]);
});

test('a wallet moved by anything between the read and the debit: planned again, withdrawn once', async () => {
  const p = await t.player({ balance: 500_00 });
  let moves = 0;
  t.app.wallet.setBonusGate(async (db, id) => {
    if (id === p.id && moves < 2) {
      moves += 1;
      await credit(db, p.id, 1_00);
    }
    return false;
  });
  const res = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: 200 } });
  expect([res.statusCode, res.json().status]).toEqual([200, 'IN_PROGRESS']);
  const rows = await t.db.db.selectFrom('withdrawals').select('amount').where('player_id', '=', p.id).execute();
  expect(rows.map((r) => Number(r.amount))).toEqual([200_00]);
  expect(await walletBalance(t.db.db, p.id)).toBe(isPostgres(t.db.db) ? 500_00 + 2_00 - 200_00 : 500_00 - 200_00);
});
