import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import { debitWallet, ensureAccounts, gameBalances, lockAccounts, systemAccount, walletAccount, writeStatement, lockPlayer } from '../../ledger';
import { refreshGameBalance, transferFromGame } from '../../transfers/protocol';
import { pendingTransferTotal, type UserBonus } from './repository';
import type { BonusDeps } from './engine';

/**
 * Taking back what remains of a bonus that ended without its turnover (clear, or failure by the fail rule;
 * RULES.md "Bonuses and promotions", docs/bonus.md "Taking the bonus back"). The remaining bonus amount is taken from
 * the wallet and the games together: first from the wallet in the transaction that ends the bonus; what the wallet
 * cannot cover stays as the bonus row's `debt`, and `collectBonusDebt` pulls it from the games through the provider
 * (a game -> wallet transfer, then wallet -> budget). While any debt is open, withdrawals answer BONUS_DEBT, so
 * money parked at a game is no way out of wagering. A debt shrinks to what the player still holds on fresh figures:
 * bonus money lost at play is not asked for twice.
 */

type Db = Kysely<DB> | Transaction<DB>;

const toSide = (ub: Pick<UserBonus, 'kind'>) => (ub.kind === 'promotion' ? 'PROMOTION' : 'BONUS');

/**
 * In the transaction that ends the bonus (the player locked): moves min(bonus amount, wallet) from the wallet to
 * the bonus's budget (entry bonus:{id}:{suffix}). Returns what it took and what is left to take (the debt).
 */
export async function takeFromWallet(trx: Transaction<DB>, ub: UserBonus, suffix: 'clear' | 'fail'): Promise<{ taken: number; debt: number }> {
  const [budgetAcc, walletAcc] = await ensureAccounts(trx, [systemAccount('bonus_budget', ub.code), walletAccount(ub.player_id)], ub.currency);
  const locked = await lockAccounts(trx, [budgetAcc.id, walletAcc.id]);
  const taken = Math.max(0, Math.min(ub.amount, locked.get(walletAcc.id)!.balance));
  if (taken > 0) {
    await debitWallet(trx, { playerId: ub.player_id, amount: taken, to: 'bonus_budget', toScope: ub.code, kind: 'bonus_clear', reference: `bonus:${ub.id}:${suffix}` });
  }
  return { taken, debt: ub.amount - taken };
}

/** What the player still owes of ended bonuses (satang); withdrawals wait while it is above 0. */
export async function bonusDebtOf(db: Db, playerId: number): Promise<number> {
  const r = await db
    .selectFrom('user_bonuses')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('debt'), eb.val(0)).as('s'))
    .where('player_id', '=', playerId)
    .where('debt', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(r.s);
}

interface DebtRow {
  id: number;
  code: string;
  kind: UserBonus['kind'];
  currency: string;
  debt: number;
}

async function debtsOf(db: Db, playerId: number): Promise<DebtRow[]> {
  const rows = await db
    .selectFrom('user_bonuses')
    .select(['id', 'code', 'kind', 'currency', 'debt'])
    .where('player_id', '=', playerId)
    .where('debt', '>', 0)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), code: r.code, kind: r.kind, currency: r.currency, debt: Number(r.debt) }));
}

/**
 * One transaction under the player's lock: each open debt takes what the wallet holds (a `finish_bonus` line per
 * take, FAILED from WALLET, ref bonus_debt/{id}:{debt before}). With `writeOff` (the caller saw, on fresh figures,
 * that the games and transit hold nothing), what the wallet cannot cover is no longer owed: it was lost at play.
 * Returns the debt left.
 */
async function settleFromWallet(db: Kysely<DB>, playerId: number, writeOff: boolean, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    // Transfers take no player lock: money that left for a game since the caller looked is still the player's.
    if (writeOff && ((await pendingTransferTotal(trx, playerId)) > 0 || [...(await gameBalances(trx, playerId)).values()].some((b) => b > 0))) writeOff = false;
    let left = 0;
    for (const d of await debtsOf(trx, playerId)) {
      const [budgetAcc, walletAcc] = await ensureAccounts(trx, [systemAccount('bonus_budget', d.code), walletAccount(playerId)], d.currency);
      const locked = await lockAccounts(trx, [budgetAcc.id, walletAcc.id]);
      const take = Math.min(d.debt, locked.get(walletAcc.id)!.balance);
      if (take > 0) {
        await debitWallet(trx, { playerId, amount: take, to: 'bonus_budget', toScope: d.code, kind: 'bonus_clear', reference: `bonus:${d.id}:collect:${d.debt}` });
        await writeStatement(trx, {
          playerId,
          type: 'finish_bonus',
          status: 'FAILED',
          from: 'WALLET',
          to: toSide(d),
          amount: take,
          currency: d.currency,
          refType: 'bonus_debt',
          refId: `${d.id}:${d.debt}`,
          linked: { type: d.kind === 'promotion' ? 'promotion' : 'bonus', description: d.code },
        });
      }
      const rest = writeOff ? 0 : d.debt - take;
      await trx
        .updateTable('user_bonuses')
        .set((eb) => ({ debt: rest, cleared_amount: eb(eb.fn.coalesce('cleared_amount', eb.val(0)), '+', take), updated_at: nowIso(now) }))
        .where('id', '=', d.id)
        .where('debt', '=', d.debt)
        .execute();
      left += rest;
    }
    return left;
  });
}

/**
 * Collects the player's open bonus debt: from the wallet; then from each game, refreshed from the provider and
 * pulled back with a game -> wallet transfer for at most what is owed; then from the wallet again. When every
 * provider answered, nothing is in transit and the games are empty, the rest is written off. A provider that does
 * not answer (or a transfer left pending) keeps the debt for the next try (the wagering pass tries every pass).
 * Returns the debt left (satang).
 */
export async function collectBonusDebt(deps: BonusDeps, playerId: number): Promise<number> {
  const now = deps.now();
  let left = await settleFromWallet(deps.db, playerId, false, now);
  if (left <= 0) return 0;
  const accounts = await deps.db
    .selectFrom('game_accounts')
    .innerJoin('games', 'games.code', 'game_accounts.game_code')
    .select(['game_accounts.game_code', 'game_accounts.username', 'games.active'])
    .where('game_accounts.player_id', '=', playerId)
    .orderBy('game_accounts.game_code')
    .execute();
  let fresh = true;
  for (const a of accounts) {
    if (left <= 0) break;
    const outcome = await refreshGameBalance(deps.transferDeps, playerId, a.game_code, a.username);
    if (outcome === 'skipped' || outcome === 'unavailable') {
      fresh = false;
      continue;
    }
    const mirror = (await gameBalances(deps.db, playerId)).get(a.game_code) ?? 0;
    if (mirror <= 0) continue;
    if (!Number(a.active)) {
      fresh = false; // money at a switched-off game: the player cannot move it either; kept owed until it is back
      continue;
    }
    try {
      const r = await transferFromGame(deps.transferDeps, { playerId, gameCode: a.game_code, amount: Math.min(left, mirror) });
      if (r.status !== 'settled') fresh = false;
    } catch (e) {
      fresh = false;
      deps.log?.warn({ playerId, gameCode: a.game_code, err: e instanceof Error ? e.message : String(e) }, 'bonus debt not pulled from the game this time');
    }
    left = await settleFromWallet(deps.db, playerId, false, now);
  }
  if (left <= 0) return 0;
  if (!fresh || (await pendingTransferTotal(deps.db, playerId)) > 0) return left;
  const games = [...(await gameBalances(deps.db, playerId)).values()].reduce((s, b) => s + b, 0);
  if (games > 0) return left;
  return settleFromWallet(deps.db, playerId, true, now);
}

/** The wagering pass's part: every player with an open debt, a page at a time. Returns how many are still owing. */
export async function collectOpenDebts(deps: BonusDeps, limit = 100): Promise<number> {
  const rows = await deps.db.selectFrom('user_bonuses').select('player_id').distinct().where('debt', '>', 0).orderBy('player_id').limit(limit).execute();
  let owing = 0;
  for (const r of rows) {
    try {
      if ((await collectBonusDebt(deps, Number(r.player_id))) > 0) owing++;
    } catch (e) {
      owing++;
      deps.log?.warn({ playerId: Number(r.player_id), err: e instanceof Error ? e.message : String(e) }, 'bonus debt not collected this pass');
    }
  }
  return owing;
}
