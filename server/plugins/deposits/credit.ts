import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { creditWallet, writeStatement, lockPlayer } from '../../ledger';
import type { DepositRules } from './domain/rules';
import { parseBaht } from '../../ledger/money';
import { recordInviteEarning } from '../invite';
import { grantDepositCoins } from '../wheel';
import { depositWithinLimits, holdDeposit } from '../play-limits';
import type { DepositHoldSource } from '../../db/schema-play';
import { recordReview } from './review-record';
import { nowIso } from '../../db';

export interface DepositCredit {
  playerId: number;
  /** Satang, > 0. */
  amount: number;
  currency: string;
  /** Where the money came from as the statement shows it: KBANK, WW, E2P, the slip's bank, TRUEMONEY. */
  source: string;
  /** Unique per deposit: qr:{qrcodeId}, slip:{transRef}, gift:{voucherId}. */
  refId: string;
  /** An existing statement line (a held deposit's) that becomes this deposit's line instead of a new one. */
  line?: { refType: string; refId: string };
}

/**
 * Puts a confirmed deposit into the wallet, inside the caller's transaction: one journal entry
 * deposits_in_transit -> wallet (reference deposit:{refId}, so a deposit is credited once even if
 * everything else failed to stop it), the statement line (deposit, SUCCESS), the wheel coins a
 * qualifying deposit earns, and, for an invited player's first deposit, what it earns the inviter
 * (docs/invite-wheel.md). All or nothing with the caller's own status change.
 */
export async function creditDeposit(trx: Transaction<DB>, rules: DepositRules, d: DepositCredit): Promise<{ coins: number }> {
  await creditWallet(trx, {
    playerId: d.playerId,
    amount: d.amount,
    kind: 'deposit',
    reference: `deposit:${d.refId}`,
    from: 'deposits_in_transit',
    memo: d.source,
  });
  if (d.line) {
    // A held deposit staff approved: its IN_PROGRESS line becomes this deposit's line.
    await trx
      .updateTable('statements')
      .set({ status: 'SUCCESS', ref_type: 'deposit', ref_id: d.refId, updated_at: nowIso() })
      .where('ref_type', '=', d.line.refType)
      .where('ref_id', '=', d.line.refId)
      .execute();
  } else {
    await writeStatement(trx, {
      playerId: d.playerId,
      type: 'deposit',
      status: 'SUCCESS',
      from: d.source,
      to: 'WALLET',
      amount: d.amount,
      currency: d.currency,
      refType: 'deposit',
      refId: d.refId,
    });
  }
  const coins = coinsFor(rules, d.amount);
  // Granted once the deposit is wagered coinTurnover x (a deposit -> withdraw churn earns none; issue 39 row 11).
  if (coins > 0) await grantDepositCoins(trx, { playerId: d.playerId, depositRef: `deposit:${d.refId}`, amount: d.amount, coins, turnover: rules.coinTurnover, now: new Date() });
  await recordInviteEarning(trx, { playerId: d.playerId, amount: d.amount, currency: d.currency, refId: d.refId }, new Date());
  return { coins };
}

/** What became of a confirmed deposit: credited, or held because it would pass a deposit limit. */
export type CreditOutcome = { held: false; coins: number } | { held: true; reviewId: string | null };

/**
 * A confirmed deposit under the player's deposit limits (issue 15, docs/deposits.md "Holds"): inside the
 * caller's transaction, under the player's row lock, credited (creditDeposit) when it fits every limit, else
 * held: nothing credited, a deposit_holds row and an IN_PROGRESS statement line for staff (holdDeposit). The
 * caller records which on its own row (QR REVIEW, slip IN_PROGRESS, gift IN_PROGRESS with reason DEPOSIT_LIMIT).
 * Call it after anything that still counts this deposit as reserved has stopped counting it.
 */
export async function creditOrHold(
  trx: Transaction<DB>,
  rules: DepositRules,
  d: DepositCredit,
  hold: { source: DepositHoldSource; refId: string; now: Date },
): Promise<CreditOutcome> {
  await lockPlayer(trx, d.playerId);
  if (!(await depositWithinLimits(trx, d.playerId, d.amount, hold.now))) {
    const holdId = await holdDeposit(trx, { playerId: d.playerId, source: hold.source, refId: hold.refId, amount: d.amount, currency: d.currency, now: hold.now, from: d.source });
    // For staff (docs/staff.md "Back office"): reference as the player knows it (qrcodeId, slip ref, voucher id).
    const reviewId = await recordReview(trx, { kind: 'DEPOSIT_LIMIT', source: hold.source, reference: d.refId.replace(/^[a-z]+:/, ''), subjectId: holdId, playerId: d.playerId, amount: d.amount, currency: d.currency, now: hold.now });
    return { held: true, reviewId };
  }
  return { held: false, ...(await creditDeposit(trx, rules, d)) };
}

/** RULES.md: each deposit of at least coinThreshold baht earns coinsPerDeposit wheel coins. */
export function coinsFor(rules: DepositRules, amountSatang: number): number {
  const threshold = parseBaht(rules.coinThreshold);
  if (threshold === null || rules.coinsPerDeposit <= 0) return 0;
  return amountSatang >= threshold ? Math.floor(rules.coinsPerDeposit) : 0;
}
