import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { BonusKind, UserBonusStatus } from '../../db/schema-bonus';
import { nowIso } from '../../db';
import { conflict, notFound, unprocessable } from '../../errors';
import {
  creditWallet,
  ensureAccounts,
  gameBalances,
  lockAccounts,
  systemAccount,
  walletAccount,
  walletBalance,
  writeStatement, lockPlayer,
} from '../../ledger';
import { currencyOf } from '../../ledger/accounts';
import { refreshGameBalance, type TransferDeps } from '../../transfers/protocol';
import { pollBetFeeds, type FeedDeps, type FeedReport } from '../../jobs/poller';
import { bonusAmount, failThreshold, isOpen, normalizeCode, turnoverTarget } from './definitions';
import {
  clearCheckMark,
  countReceived,
  endUserBonus,
  findActiveBonus,
  findDefinition,
  insertUserBonus,
  listBonusesToCheck,
  pendingTransferTotal,
  turnoverOf,
  type UserBonus,
} from './repository';
import { readBonusRules } from './settings';
import { bonusDebtOf, collectBonusDebt, collectOpenDebts, takeFromWallet } from './takeback';
import { qualifyWaitingEarnings } from '../invite/qualify';
import { windowStart } from './zone';

/**
 * The bonus engine (RULES.md "Bonuses and promotions", docs/bonus.md): activation, clear, and finishing a bonus
 * by turnover (SUCCESS) or by losses (FAILED). Every baht moves through the ledger: the credit comes from
 * bonus_budget:{code}, clear returns to it; a finish moves nothing. Each step is one transaction that locks the
 * player's row first (PostgreSQL; SQLite serializes transactions), so concurrent requests for one player queue.
 */
export interface BonusDeps {
  db: Kysely<DB>;
  now: () => Date;
  /** The wallet's transfer deps: the engine refreshes game mirrors from the provider before judging a failure. */
  transferDeps: TransferDeps;
  log?: { warn(obj: object, msg: string): void };
}

const statementLink = (kind: BonusKind, code: string) => ({ type: kind === 'promotion' ? ('promotion' as const) : ('bonus' as const), description: code });

/**
 * Activates a bonus (kind bonus) or a promotion code (kind promotion) for the player, in one transaction:
 * one active bonus at a time (BONUS_ALREADY_ACTIVE), the receive limit (BONUS_MAX_CLAIMED) or once per player
 * (PROMOTION_RECEIVED), the minimum wallet (BONUS_REMAINING), the budget (BONUS_FULL); then the credit from the
 * budget, the user bonus row with its start amount, target and fail threshold, and the `bonus` statement line.
 */
export async function activate(deps: BonusDeps, playerId: number, rawCode: string, kind: BonusKind): Promise<UserBonus> {
  const missing = () => (kind === 'promotion' ? notFound('NO_PROMOTION') : notFound('NO_DATA'));
  const code = normalizeCode(rawCode);
  if (!code) throw missing();
  const def = await findDefinition(deps.db, code);
  const now = deps.now();
  if (!def || def.kind !== kind || !isOpen(def, nowIso(now))) throw missing();
  const rules = await readBonusRules(deps.db);
  const minimum = Math.round(rules.minimum * 100);

  return deps.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    if (await findActiveBonus(trx, playerId)) throw unprocessable('BONUS_ALREADY_ACTIVE');
    if (kind === 'promotion') {
      if ((await countReceived(trx, playerId, code, null)) > 0) throw conflict('PROMOTION_RECEIVED');
    } else if ((await countReceived(trx, playerId, code, windowStart(def.type, now, rules.timeZone))) >= Number(def.max_received)) {
      throw unprocessable('BONUS_MAX_CLAIMED');
    }
    const currency = await currencyOf(trx, playerId);
    // Lock the budget and the wallet (in id order, as postEntry does) before reading them: the bonus is computed
    // from the balance it is added to, and the budget check holds until the credit is written.
    const [budgetAcc, walletAcc] = await ensureAccounts(trx, [systemAccount('bonus_budget', code), walletAccount(playerId)], currency);
    const locked = await lockAccounts(trx, [budgetAcc.id, walletAcc.id]);
    const wallet = locked.get(walletAcc.id)!.balance;
    const amount = bonusAmount(wallet, Number(def.percent_bp), Number(def.cap));
    if (wallet < minimum || amount <= 0) throw unprocessable('BONUS_REMAINING');
    if (def.budget !== null) {
      const spent = -locked.get(budgetAcc.id)!.balance; // what the budget paid out, net of clears
      if (spent + amount > Number(def.budget)) throw unprocessable('BONUS_FULL');
    }
    const startAmount = wallet + amount;
    const at = nowIso(now);
    const row = {
      player_id: playerId,
      code,
      kind,
      status: 'ACTIVE' as UserBonusStatus,
      active_player_id: playerId,
      once_key: kind === 'promotion' ? `${code}:${playerId}` : null,
      currency,
      amount,
      start_amount: startAmount,
      target: turnoverTarget(startAmount, Number(def.turnover_x100)),
      percent_fail_bp: Number(def.percent_fail_bp),
      fail_at: failThreshold(startAmount, Number(def.percent_fail_bp)),
      needs_check: 0,
      cleared_amount: null,
      created_at: at,
      ended_at: null,
      updated_at: at,
    };
    const id = await insertUserBonus(trx, row);
    await creditWallet(trx, { playerId, amount, from: 'bonus_budget', fromScope: code, kind, reference: `bonus:${id}:credit` });
    await writeStatement(trx, {
      playerId,
      type: 'bonus',
      status: 'SUCCESS',
      from: kind === 'promotion' ? 'PROMOTION' : 'BONUS',
      to: 'WALLET',
      amount,
      currency,
      refType: 'bonus',
      refId: String(id),
      linked: statementLink(kind, code),
    });
    return { ...row, id, debt: 0 };
  });
}

/**
 * Clear (GET /api/bonus/clear): ends the active bonus and takes back what remains of its amount, from the wallet
 * and the games together (takeback.ts): min(bonus, wallet) in this transaction, the rest recorded as the bonus's
 * debt and then pulled from the games through the provider; a `finish_bonus` line (FAILED: the bonus did not
 * complete) shows what the wallet gave at once. NO_DATA when no bonus is active. `debt`: what is still owed after
 * the pull (withdrawals wait for it: BONUS_DEBT).
 */
export async function clearBonus(deps: BonusDeps, playerId: number): Promise<{ taken: number; debt: number }> {
  const now = deps.now();
  const { ub, taken, debt } = await deps.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    const ub = await findActiveBonus(trx, playerId);
    if (!ub) throw notFound('NO_DATA');
    const { taken, debt } = await takeFromWallet(trx, ub, 'clear');
    if (!(await endUserBonus(trx, ub.id, 'CLEARED', now, taken, debt))) throw notFound('NO_DATA');
    await writeStatement(trx, {
      playerId,
      type: 'finish_bonus',
      status: 'FAILED',
      from: 'WALLET',
      to: ub.kind === 'promotion' ? 'PROMOTION' : 'BONUS',
      amount: taken,
      currency: ub.currency,
      refType: 'bonus_end',
      refId: String(ub.id),
      linked: statementLink(ub.kind, ub.code),
    });
    return { ub, taken, debt };
  });
  return { taken, debt: debt > 0 ? await collectAfterEnd(deps, ub) : 0 };
}

/** Pulls an ended bonus's debt right away; a failure here is logged and left to the wagering pass. */
async function collectAfterEnd(deps: BonusDeps, ub: UserBonus): Promise<number> {
  try {
    return await collectBonusDebt(deps, ub.player_id);
  } catch (e) {
    deps.log?.warn({ userBonusId: ub.id, err: e instanceof Error ? e.message : String(e) }, 'bonus debt not collected yet');
    return bonusDebtOf(deps.db, ub.player_id);
  }
}

/**
 * Ends an active bonus as SUCCESS (turnover reached) or FAILED (balance fell to the threshold). On SUCCESS nothing
 * moves: the bonus money is the player's. On FAILED what remains of the bonus amount is taken back like a clear's
 * (from the wallet now, the rest as a debt pulled from the games), so failing is no way out of wagering either.
 * Returns false when the bonus was no longer active (cleared meanwhile).
 */
export async function finishBonus(deps: BonusDeps, ub: UserBonus, status: 'SUCCESS' | 'FAILED'): Promise<boolean> {
  const now = deps.now();
  const ended = await deps.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, ub.player_id);
    // Under the player's lock a clear cannot end it meanwhile: still active here means this call ends it.
    if ((await findActiveBonus(trx, ub.player_id))?.id !== ub.id) return false;
    const back = status === 'FAILED' ? await takeFromWallet(trx, ub, 'fail') : null;
    if (!(await endUserBonus(trx, ub.id, status, now, back?.taken ?? null, back?.debt ?? 0))) return false;
    await writeStatement(trx, {
      playerId: ub.player_id,
      type: 'finish_bonus',
      status,
      from: ub.kind === 'promotion' ? 'PROMOTION' : 'BONUS',
      to: 'WALLET',
      amount: ub.amount,
      currency: ub.currency,
      refType: 'bonus_end',
      refId: String(ub.id),
      linked: statementLink(ub.kind, ub.code),
    });
    if (back?.taken) {
      await writeStatement(trx, {
        playerId: ub.player_id,
        type: 'finish_bonus',
        status: 'FAILED',
        from: 'WALLET',
        to: ub.kind === 'promotion' ? 'PROMOTION' : 'BONUS',
        amount: back.taken,
        currency: ub.currency,
        refType: 'bonus_fail',
        refId: String(ub.id),
        linked: statementLink(ub.kind, ub.code),
      });
    }
    return back ? { debt: back.debt } : true;
  });
  if (ended === false) return false;
  if (ended !== true && ended.debt > 0) await collectAfterEnd(deps, ub);
  return true;
}

/**
 * The player's total balance on fresh figures: every active game's mirror is brought to the provider's balance
 * first (posting the win or loss, as the wallet's refresh does), then wallet + mirrors + money in transit.
 * Null when a provider did not answer or a transfer was in flight: judge again next pass.
 */
export async function freshTotalBalance(deps: BonusDeps, playerId: number): Promise<number | null> {
  const accounts = await deps.db
    .selectFrom('game_accounts')
    .innerJoin('games', 'games.code', 'game_accounts.game_code')
    .select(['game_accounts.game_code', 'game_accounts.username'])
    .where('game_accounts.player_id', '=', playerId)
    .where('games.active', '=', 1)
    .execute();
  const outcomes = await Promise.all(accounts.map((a) => refreshGameBalance(deps.transferDeps, playerId, a.game_code, a.username)));
  if (outcomes.some((o) => o === 'skipped' || o === 'unavailable')) return null;
  const games = [...(await gameBalances(deps.db, playerId)).values()].reduce((a, b) => a + b, 0);
  return (await walletBalance(deps.db, playerId)) + games + (await pendingTransferTotal(deps.db, playerId));
}

export interface EvaluationReport {
  success: number;
  failed: number;
  /** Left for the next pass: no fresh balance this time. */
  deferred: number;
}

/** Judges every active bonus that received rounds: turnover first (SUCCESS), then the fail threshold (FAILED). */
export async function evaluateBonuses(deps: BonusDeps, pageSize = 200): Promise<EvaluationReport> {
  const report: EvaluationReport = { success: 0, failed: 0, deferred: 0 };
  // Every marked bonus, a page at a time (one deferred for a silent provider never hides the ones after it).
  let afterId = 0;
  for (;;) {
    const page = await listBonusesToCheck(deps.db, afterId, pageSize);
    if (!page.length) return report;
    for (const ub of page) await evaluateOne(deps, ub, report);
    afterId = page[page.length - 1].id;
  }
}

/** Judges one bonus; an error is logged and the bonus stays marked for the next pass. */
async function evaluateOne(deps: BonusDeps, ub: UserBonus, report: EvaluationReport): Promise<void> {
  try {
    if ((await turnoverOf(deps.db, ub.id)) >= ub.target) {
      if (await finishBonus(deps, ub, 'SUCCESS')) report.success++;
      return;
    }
    const total = await freshTotalBalance(deps, ub.player_id);
    if (total === null) {
      report.deferred++;
      return;
    }
    if (total <= ub.fail_at) {
      if (await finishBonus(deps, ub, 'FAILED')) report.failed++;
      return;
    }
    await clearCheckMark(deps.db, ub.id, ub.needs_check);
  } catch (e) {
    report.deferred++;
    deps.log?.warn({ userBonusId: ub.id, err: e instanceof Error ? e.message : String(e) }, 'bonus not evaluated this pass');
  }
}

export interface WageringReport extends FeedReport, EvaluationReport {
  /** Players who still owe part of an ended bonus after this pass tried to collect it. */
  owing: number;
}

/**
 * The wagering job, one function: read every bet feed, then judge the bonuses that received rounds, then collect
 * the bonus debts still open (a provider that was down at a clear), then qualify the invite earnings whose first
 * deposits were wagered.
 */
export async function runWageringPass(deps: BonusDeps & { provider: FeedDeps['provider'] }): Promise<WageringReport> {
  const feed = await pollBetFeeds({ db: deps.db, provider: deps.provider, now: deps.now, log: deps.log });
  const evaluation = await evaluateBonuses(deps);
  const owing = await collectOpenDebts(deps);
  // Invite earnings whose deposits these rounds wagered become receivable (so the home figure shows them).
  await qualifyWaitingEarnings(deps.db, deps.now());
  return { ...feed, ...evaluation, owing };
}
