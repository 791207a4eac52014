import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { awaitTurnover, insertTurnover, requiredTurnover } from '../../wagering/deposit-turnover';

/**
 * Wheel coins a deposit earns (docs/invite-wheel.md "Coins"): granted once the player has wagered the deposit
 * `turnover` x (the deposit rules' coinTurnover [1]; 0 grants them with the deposit), by rounds played after it
 * (server/wagering/deposit-turnover.ts), so a deposit -> withdraw churn with no play earns none (issue 39 row 11).
 * Called in the deposit's transaction.
 */
export async function grantDepositCoins(
  trx: Transaction<DB>,
  d: { playerId: number; depositRef: string; amount: number; coins: number; turnover: number; now: Date },
): Promise<void> {
  if (d.coins <= 0) return;
  const required = requiredTurnover(d.amount, d.turnover);
  if (!(await awaitTurnover(trx, { playerId: d.playerId, purpose: 'coins', depositRef: d.depositRef, required, coins: d.coins, now: d.now }))) return;
  await trx.updateTable('players').set((eb) => ({ coin: eb('coin', '+', d.coins) })).where('id', '=', d.playerId).execute();
}

/**
 * grantDepositCoins as a write of the deposit's movement (issue 43: with the credit, in its one statement on
 * PostgreSQL): the turnover row the coins wait on, or the coins at once when none is required; null when none are earned.
 */
export function depositCoinsWrite(d: { playerId: number; depositRef: string; amount: number; coins: number; turnover: number; now: Date }) {
  if (d.coins <= 0) return null;
  const required = requiredTurnover(d.amount, d.turnover);
  if (required > 0) return (q: Kysely<DB>) => insertTurnover(q, { playerId: d.playerId, purpose: 'coins', depositRef: d.depositRef, required, coins: d.coins, now: d.now });
  return (q: Kysely<DB>) => q.updateTable('players').set((eb) => ({ coin: eb('coin', '+', d.coins) })).where('id', '=', d.playerId);
}
