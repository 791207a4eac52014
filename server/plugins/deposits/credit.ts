import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { lockPlayer, statementLine, systemAccount, walletAccount, type MovementPart } from '../../ledger';
import { LedgerError } from '../../ledger/accounts';
import type { EntryInput } from '../../ledger/journal';
import { moveInTransaction as moveInLedger } from '../../ledger/movement';
import type { DepositRules } from './domain/rules';
import { parseBaht } from '../../ledger/money';
import { recordInviteEarning } from '../invite';
import { depositCoinsWrite } from '../wheel';
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

/** What a caller of creditDeposit / creditOrHold already knows or also writes with the credit (issue 43). */
export interface CreditExtras {
  /** The caller's own rows written with the credit, in its movement (the QR's PAID, the payment event). */
  parts?: MovementPart[];
  /** The player's inviter as the caller read it under the player's lock; null: none (no invite earning to record). */
  inviterId?: number | null;
  /** The caller holds the player's lock already (lockQrWithPlayer): creditOrHold does not take it again. */
  playerLocked?: boolean;
}

/**
 * A movement in the caller's transaction: on PostgreSQL one statement (moveMoney: the parts as data-modifying CTEs,
 * each entry a ledger_post call); on SQLite the parts then postEntry, one statement each (function calls there, not
 * round trips).
 */
async function moveInTransaction(trx: Transaction<DB>, parts: MovementPart[], entries: (EntryInput & { currency: string })[]): Promise<void> {
  // The ledger's moveInTransaction (issue 43's lead): one statement on PostgreSQL, parts then postEntry on SQLite.
  await moveInLedger(trx, { parts, entries });
}

/**
 * Puts a confirmed deposit into the wallet, inside the caller's transaction: one journal entry
 * deposits_in_transit -> wallet (reference deposit:{refId}, so a deposit is credited once even if
 * everything else failed to stop it), the statement line (deposit, SUCCESS), the wheel coins a
 * qualifying deposit earns, and, for an invited player's first deposit, what it earns the inviter
 * (docs/invite-wheel.md). All or nothing with the caller's own status change.
 * Issue 43: the entry, the statement line, the coins' turnover row and the caller's `extras.parts` are one movement (one statement and one
 * round trip on PostgreSQL; they were six: the player's currency, the accounts' lock, the entry, the balances, the
 * postings, the line); the entry's currency is the deposit's (the player's: ledger_post refuses another).
 */
export async function creditDeposit(trx: Transaction<DB>, rules: DepositRules, d: DepositCredit, extras: CreditExtras = {}): Promise<{ coins: number }> {
  if (!Number.isSafeInteger(d.amount) || d.amount <= 0) throw new LedgerError('a credit needs a positive amount');
  // A held deposit staff approved: its IN_PROGRESS line becomes this deposit's line. Else a new line.
  const line: MovementPart = d.line
    ? lineOfHold(d.line, d.refId)
    : statementLine({ playerId: d.playerId, type: 'deposit', status: 'SUCCESS', from: d.source, to: 'WALLET', amount: d.amount, currency: d.currency, refType: 'deposit', refId: d.refId });
  const coins = coinsFor(rules, d.amount);
  // Granted once the deposit is wagered coinTurnover x (a deposit -> withdraw churn earns none; issue 39 row 11).
  const coinsWrite = depositCoinsWrite({ playerId: d.playerId, depositRef: `deposit:${d.refId}`, amount: d.amount, coins, turnover: rules.coinTurnover, now: new Date() });
  const parts = [line, ...(coinsWrite ? [{ write: coinsWrite }] : []), ...(extras.parts ?? [])];
  await moveInTransaction(trx, parts, [
    {
      kind: 'deposit',
      reference: `deposit:${d.refId}`,
      playerId: d.playerId,
      currency: d.currency,
      memo: d.source,
      postings: [
        { account: systemAccount('deposits_in_transit'), amount: -d.amount },
        { account: walletAccount(d.playerId), amount: d.amount },
      ],
    },
  ]);
  // No inviter (the caller read it): nothing to earn, and recordInviteEarning's read of it is saved.
  if (extras.inviterId !== null) await recordInviteEarning(trx, { playerId: d.playerId, amount: d.amount, currency: d.currency, refId: d.refId }, new Date());
  return { coins };
}

/** A held deposit's IN_PROGRESS line turned into the deposit's own, SUCCESS. */
function lineOfHold(held: { refType: string; refId: string }, refId: string): MovementPart {
  const at = nowIso();
  return {
    write: (q) => q.updateTable('statements').set({ status: 'SUCCESS', ref_type: 'deposit', ref_id: refId, updated_at: at }).where('ref_type', '=', held.refType).where('ref_id', '=', held.refId),
  };
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
  extras: CreditExtras = {},
): Promise<CreditOutcome> {
  if (!extras.playerLocked) await lockPlayer(trx, d.playerId);
  if (!(await depositWithinLimits(trx, d.playerId, d.amount, hold.now))) {
    const holdId = await holdDeposit(trx, { playerId: d.playerId, source: hold.source, refId: hold.refId, amount: d.amount, currency: d.currency, now: hold.now, from: d.source });
    // For staff (docs/staff.md "Back office"): reference as the player knows it (qrcodeId, slip ref, voucher id).
    const reviewId = await recordReview(trx, { kind: 'DEPOSIT_LIMIT', source: hold.source, reference: d.refId.replace(/^[a-z]+:/, ''), subjectId: holdId, playerId: d.playerId, amount: d.amount, currency: d.currency, now: hold.now });
    return { held: true, reviewId };
  }
  return { held: false, ...(await creditDeposit(trx, rules, d, extras)) };
}

/** RULES.md: each deposit of at least coinThreshold baht earns coinsPerDeposit wheel coins. */
export function coinsFor(rules: DepositRules, amountSatang: number): number {
  const threshold = parseBaht(rules.coinThreshold);
  if (threshold === null || rules.coinsPerDeposit <= 0) return 0;
  return amountSatang >= threshold ? Math.floor(rules.coinsPerDeposit) : 0;
}
