import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { MovementStatus } from '../../db/schema-ledger';
import type { PayoutAdapter } from '../../adapters/payouts/types';
import { nowIso } from '../../db';
import { isPostgres } from '../../db/portable';
import { unprocessable } from '../../errors';
import { postEntry, reverseEntry, systemAccount, walletAccount, writeStatement, setStatementStatus, lockPlayer } from '../../ledger';
import { parseBaht } from '../../ledger/money';
import type { RunTransaction } from '../../db';
import type { ProviderCall } from '../../lib/request-context';

/**
 * The seam for the bonus rules: true while the player has an active bonus whose turnover is not met, which
 * blocks withdrawals with BONUS_CONDITION. The bonus work installs its own check with app.wallet.setBonusGate.
 * It is called inside the withdrawal's transaction, under the player's lock: read through the `db` it is given.
 */
export type BonusGate = (db: Kysely<DB>, playerId: number) => Promise<boolean>;
export const noBonusGate: BonusGate = async () => false;

export interface WithdrawDeps {
  db: Kysely<DB>;
  payouts: PayoutAdapter;
  bonusGate: BonusGate;
  /** The request's logger when called for one (scoped in server/lib/request-context.ts), the process's otherwise. */
  log?: { warn(obj: object, msg: string): void };
  /** The request the payout call is made for (its X-Request-Id); none in background work. */
  call?: ProviderCall;
}

export interface WithdrawLimits {
  /** Satang. */
  min: number;
  max: number;
}

/** The 'withdraw' setting ({withdrawMin, withdrawMax} in baht), defaults 100 and 50,000. */
export async function withdrawLimits(db: Kysely<DB>): Promise<WithdrawLimits> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'withdraw').executeTakeFirst();
  let min = 100_00;
  let max = 50_000_00;
  if (row) {
    try {
      const v = JSON.parse(row.value) as { withdrawMin?: unknown; withdrawMax?: unknown };
      min = parseBaht(v.withdrawMin) ?? min;
      max = parseBaht(v.withdrawMax) ?? max;
    } catch {
      /* a broken setting keeps the defaults */
    }
  }
  return { min, max };
}

/**
 * Requests a withdrawal of `amount` satang to the player's registered bank account: bounds
 * (TRANSFER_MINIMUM below withdrawMin, INVALID_USER_INFO above withdrawMax), the hold after a bank change
 * (BANK_CHANGE_COOLDOWN), the bonus gate (BONUS_CONDITION),
 * then in one transaction the withdrawal row (IN_PROGRESS), the entry wallet -> payouts_in_transit
 * (MONEY_NOT_ENOUGH) and the statement line; then the payout adapter is asked to pay.
 */
export async function requestWithdrawal(
  deps: WithdrawDeps,
  playerId: number,
  amount: number,
  /** Runs the transaction that moves the money: the route's, with its Idempotency-Key claimed in it (idempotentIn). */
  inTransaction: RunTransaction = (fn) => deps.db.transaction().execute(fn),
): Promise<{ withdrawalId: string; status: MovementStatus }> {
  const limits = await withdrawLimits(deps.db);
  if (amount < limits.min) throw unprocessable('TRANSFER_MINIMUM');
  if (amount > limits.max) throw unprocessable('INVALID_USER_INFO');
  const player = await deps.db
    .selectFrom('players')
    .select(['currency', 'bank_code', 'bank_account_no', 'bank_account_name', 'bank_hold_until'])
    .where('id', '=', playerId)
    .executeTakeFirstOrThrow();
  // A changed bank account is paid only after its hold (issue 39 row 6, docs/accounts.md "Bank details"): read in
  // the same row as the account it pays, so a payout never goes to an account whose hold it did not see.
  if (player.bank_hold_until !== null && player.bank_hold_until > nowIso()) throw unprocessable('BANK_CHANGE_COOLDOWN');
  const id = crypto.randomUUID();
  await inTransaction(async (trx) => {
    // Under the player's lock, like a bonus activation: a withdrawal and an activation sent at the same instant
    // are serialized, so none passes the gate while the other makes a bonus active.
    await lockPlayer(trx, playerId);
    if (await deps.bonusGate(trx, playerId)) throw unprocessable('BONUS_CONDITION');
    const now = nowIso();
    await trx
      .insertInto('withdrawals')
      .values({
        id,
        player_id: playerId,
        amount,
        currency: player.currency,
        status: 'IN_PROGRESS',
        bank_code: player.bank_code,
        bank_account_no: player.bank_account_no,
        bank_account_name: player.bank_account_name,
        payout_requested_at: null,
        failure_reason: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await postEntry(trx, {
      kind: 'withdrawal',
      reference: `withdrawal:${id}:open`,
      playerId,
      postings: [
        { account: walletAccount(playerId), amount: -amount },
        { account: systemAccount('payouts_in_transit'), amount },
      ],
    });
    await writeStatement(trx, {
      playerId,
      type: 'withdraw',
      status: 'IN_PROGRESS',
      from: 'WALLET',
      to: player.bank_code,
      amount,
      currency: player.currency,
      refType: 'withdrawal',
      refId: id,
    });
  });
  await sendPayout(deps, id);
  const row = await deps.db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return { withdrawalId: id, status: row.status };
}

/** Hands an open withdrawal to the payout adapter (again: the id makes it idempotent at the gateway). */
export async function sendPayout(deps: WithdrawDeps, id: string): Promise<void> {
  const w = await deps.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
  if (!w || w.status !== 'IN_PROGRESS') return;
  try {
    const ack = await deps.payouts.requestPayout({
      withdrawalId: w.id,
      amount: Number(w.amount),
      currency: w.currency,
      bankCode: w.bank_code,
      bankAccountNo: w.bank_account_no,
      bankAccountName: w.bank_account_name,
    }, deps.call);
    if (ack.status === 'rejected') {
      await settlePayout(deps.db, id, false, ack.reason);
      return;
    }
    await deps.db.updateTable('withdrawals').set({ payout_requested_at: nowIso(), updated_at: nowIso() }).where('id', '=', id).where('payout_requested_at', 'is', null).execute();
  } catch (e) {
    // Unknown: the gateway may or may not have it; the reconciler asks again with the same id.
    deps.log?.warn({ withdrawalId: id, err: String(e) }, 'payout request unanswered; will retry');
  }
}

export interface SettleResult {
  /** false: unknown id, or already settled (then status is the earlier outcome). */
  applied: boolean;
  status: MovementStatus | null;
}

/**
 * The payout's result (the gateway webhook or the simulator): success moves the money from payouts_in_transit
 * to payouts_paid; failure reverses the withdrawal entry, so the money is back in the wallet. One transaction
 * with the statement line; only the first call for a withdrawal changes anything.
 */
/** Work done in settlePayout's own transaction when that call settles the payout. */
export type SettleHook = (trx: Transaction<DB>, status: MovementStatus) => Promise<void>;

export async function settlePayout(
  db: Kysely<DB>,
  withdrawalId: string,
  succeeded: boolean,
  reason?: string,
  /** Runs in the settling transaction when this call settles it (a staff action's audit row). */
  alsoInTrx?: SettleHook,
): Promise<SettleResult> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('withdrawals').selectAll().where('id', '=', withdrawalId);
    if (isPostgres(trx)) q = q.forUpdate();
    const w = await q.executeTakeFirst();
    if (!w) return { applied: false, status: null };
    if (w.status !== 'IN_PROGRESS') return { applied: false, status: w.status };
    const status: MovementStatus = succeeded ? 'SUCCESS' : 'FAILED';
    await trx
      .updateTable('withdrawals')
      .set({ status, failure_reason: succeeded ? null : (reason ?? 'FAILED').slice(0, 256), updated_at: nowIso() })
      .where('id', '=', withdrawalId)
      .execute();
    const playerId = Number(w.player_id);
    if (succeeded) {
      await postEntry(trx, {
        kind: 'withdrawal_paid',
        reference: `withdrawal:${w.id}:close`,
        playerId,
        postings: [
          { account: systemAccount('payouts_in_transit'), amount: -Number(w.amount) },
          { account: systemAccount('payouts_paid'), amount: Number(w.amount) },
        ],
      });
    } else {
      await reverseEntry(trx, { originalReference: `withdrawal:${w.id}:open`, reference: `withdrawal:${w.id}:close`, kind: 'withdrawal_reversal', memo: reason });
    }
    await setStatementStatus(trx, 'withdrawal', w.id, status);
    if (alsoInTrx) await alsoInTrx(trx, status);
    return { applied: true, status };
  });
}

/** Withdrawals whose payout request never got an answer (e.g. a crash right after the debit): ask again. */
export async function resendUnsentPayouts(deps: WithdrawDeps, olderThanMs: number): Promise<number> {
  const cutoff = nowIso(new Date(Date.now() - olderThanMs));
  const rows = await deps.db
    .selectFrom('withdrawals')
    .select('id')
    .where('status', '=', 'IN_PROGRESS')
    .where('payout_requested_at', 'is', null)
    .where('created_at', '<=', cutoff)
    .limit(100)
    .execute();
  for (const r of rows) await sendPayout(deps, r.id);
  return rows.length;
}
