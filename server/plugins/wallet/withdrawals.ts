import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { MovementStatus, WithdrawalsTable } from '../../db/schema-ledger';
import type { PayoutAdapter } from '../../adapters/payouts/types';
import { nowIso } from '../../db';
import { isPostgres } from '../../db/portable';
import { unprocessable } from '../../errors';
import { postEntry, reverseEntry, systemAccount, walletAccount, setStatementStatus, lockPlayer, moveMoney, MovementRefused, statementLine, type Movement, type MovementPart } from '../../ledger';
import { accountCode } from '../../ledger/accounts';
import { InsufficientFundsError } from '../../ledger/journal';
import { parseBaht } from '../../ledger/money';
import type { KeyWrites } from '../../ledger/idempotency';
import type { ProviderCall } from '../../lib/request-context';

/**
 * The seam for the bonus rules: true while the player has an active bonus whose turnover is not met, which
 * blocks withdrawals with BONUS_CONDITION. The bonus work installs its own check with app.wallet.setBonusGate.
 * It is called with the withdrawal's reads, through the `db` it is given (the movement's transaction on SQLite, the
 * pool on PostgreSQL, under the player's lock after a contended try): the withdrawal then posts only over the wallet
 * version read before it, so a change of what it reads must move the wallet (requestWithdrawal says why it does).
 * Issue 43: one statement, one round trip on PostgreSQL.
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
  return limitsOf(row?.value);
}

/** The limits of the stored setting's text (none, or broken: the defaults). */
function limitsOf(value: string | null | undefined): WithdrawLimits {
  let min = 100_00;
  let max = 50_000_00;
  if (value) {
    try {
      const v = JSON.parse(value) as { withdrawMin?: unknown; withdrawMax?: unknown };
      min = parseBaht(v.withdrawMin) ?? min;
      max = parseBaht(v.withdrawMax) ?? max;
    } catch {
      /* a broken setting keeps the defaults */
    }
  }
  return { min, max };
}

/**
 * Issue 43: what a withdrawal decides on, in ONE read (were two round trips on PostgreSQL): the 'withdraw' setting,
 * the player's currency and bank details with their hold, and the wallet's balance and version (the movement posts
 * only over that version: see requestWithdrawal).
 */
function withdrawalContext(db: Kysely<DB>, playerId: number) {
  return db
    .selectFrom('players as p')
    .leftJoin('ledger_accounts as w', (j) => j.on('w.code', '=', `wallet:${playerId}`))
    .select(['p.currency', 'p.bank_code', 'p.bank_account_no', 'p.bank_account_name', 'p.bank_hold_until', 'w.version as wallet_version'])
    .select((eb) => eb.selectFrom('settings').select('value').where('key', '=', 'withdraw').as('withdraw_setting'))
    .where('p.id', '=', playerId)
    .executeTakeFirstOrThrow();
}

/** The reason a withdrawal's movement is refused when the wallet moved since its read (then it is planned again). */
const WALLET_MOVED = 'WALLET_MOVED';

/**
 * A part of the withdrawal's movement that holds only while the wallet is still at the version the plan read: on
 * PostgreSQL it locks the entry's two accounts in id order (ledger_post's order; it then finds them locked already)
 * and, a locking read returning the latest version of what it locks, sees any movement that committed since the read.
 * SQLite runs the plan in the movement's transaction, where nothing can move the wallet in between.
 */
function walletStillAt(playerId: number, transitCode: string, version: number): MovementPart {
  const wallet = `wallet:${playerId}`;
  return {
    write: (q) => {
      const accounts = q.selectFrom('ledger_accounts').select(['id', 'code', 'version']).where('code', 'in', [wallet, transitCode]).orderBy('id');
      return q
        .selectFrom((isPostgres(q) ? accounts.forUpdate() : accounts).as('l'))
        .select('l.id')
        .where('l.code', '=', wallet)
        .where('l.version', '=', version);
    },
    mustChange: WALLET_MOVED,
  };
}

/** The withdrawal's row as it opens: IN_PROGRESS, to the bank account the context read. */
function withdrawalRow(
  id: string,
  playerId: number,
  amount: number,
  c: { currency: string; bank_code: string; bank_account_no: string; bank_account_name: string },
  at: string,
): WithdrawalsTable {
  return {
    id,
    player_id: playerId,
    amount,
    currency: c.currency,
    status: 'IN_PROGRESS',
    bank_code: c.bank_code,
    bank_account_no: c.bank_account_no,
    bank_account_name: c.bank_account_name,
    payout_requested_at: null,
    failure_reason: null,
    created_at: at,
    updated_at: at,
  };
}

/** What the route's Idempotency-Key adds to the withdrawal's movement (idempotentIn's KeyWrites). */
export type WithdrawalKey = Pick<KeyWrites, 'claimParts' | 'claimed'>;

/**
 * Requests a withdrawal of `amount` satang to the player's registered bank account: bounds
 * (TRANSFER_MINIMUM below withdrawMin, INVALID_USER_INFO above withdrawMax), the hold after a bank change
 * (BANK_CHANGE_COOLDOWN), the bonus gate (BONUS_CONDITION),
 * then in one movement the withdrawal row (IN_PROGRESS), the entry wallet -> payouts_in_transit
 * (MONEY_NOT_ENOUGH), the statement line and the Idempotency-Key's claim; then the payout adapter is asked to pay.
 *
 * Issue 43, 5 round trips on PostgreSQL with the session check (were 18; 6 with an Idempotency-Key, were 20): the
 * read above, the bonus gate, the movement (one statement), the payout's mark with its status. The bonus gate was
 * read under the player's lock, so that a bonus activated at the same instant is seen; the movement holds without
 * it: it posts only over the wallet version read before the gate (walletStillAt), and every change that makes the
 * gate refuse moves the wallet (an activation credits the bonus to it; a clear takes what it can from it; a debt left
 * with an empty wallet leaves nothing to withdraw). A wallet moved in between (any movement) plans it again; after
 * three such tries it runs under the player's lock, as before.
 */
export async function requestWithdrawal(deps: WithdrawDeps, playerId: number, amount: number, key?: WithdrawalKey): Promise<{ withdrawalId: string; status: MovementStatus }> {
  const id = crypto.randomUUID();
  let player: Awaited<ReturnType<typeof withdrawalContext>> | undefined;
  const plan = (locked: boolean) => async (q: Kysely<DB>): Promise<Movement> => {
    const c = await withdrawalContext(q, playerId);
    const limits = limitsOf(c.withdraw_setting);
    if (amount < limits.min) throw unprocessable('TRANSFER_MINIMUM');
    if (amount > limits.max) throw unprocessable('INVALID_USER_INFO');
    // A changed bank account is paid only after its hold (issue 39 row 6, docs/accounts.md "Bank details"): read in
    // the same row as the account it pays, so a payout never goes to an account whose hold it did not see.
    if (c.bank_hold_until !== null && c.bank_hold_until > nowIso()) throw unprocessable('BANK_CHANGE_COOLDOWN');
    if (await deps.bonusGate(q, playerId)) throw unprocessable('BONUS_CONDITION');
    if (c.wallet_version === null) throw new InsufficientFundsError(`wallet:${playerId}`);
    player = c;
    const transit = systemAccount('payouts_in_transit');
    const now = nowIso();
    return {
      parts: [
        ...(key?.claimParts() ?? []),
        ...(locked ? [] : [walletStillAt(playerId, accountCode(transit, c.currency), Number(c.wallet_version))]),
        { write: (w) => w.insertInto('withdrawals').values(withdrawalRow(id, playerId, amount, c, now)) },
        statementLine({ playerId, type: 'withdraw', status: 'IN_PROGRESS', from: 'WALLET', to: c.bank_code, amount, currency: c.currency, refType: 'withdrawal', refId: id }),
      ],
      entries: [
        {
          kind: 'withdrawal',
          reference: `withdrawal:${id}:open`,
          playerId,
          currency: c.currency,
          postings: [
            { account: walletAccount(playerId), amount: -amount },
            { account: transit, amount },
          ],
        },
      ],
    };
  };
  await moveWithdrawal(deps.db, playerId, plan);
  key?.claimed();
  const c = player!;
  const known: WithdrawalsTable = withdrawalRow(id, playerId, amount, c, '');

  const status = (await sendPayout(deps, id, known)) ?? (await deps.db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  return { withdrawalId: id, status };
}

/** The movement of `plan`: up to three tries over the wallet's version, then under the player's lock (PostgreSQL). */
async function moveWithdrawal(db: Kysely<DB>, playerId: number, plan: (locked: boolean) => (q: Kysely<DB>) => Promise<Movement>): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await moveMoney(db, plan(false));
      return;
    } catch (e) {
      if (!(e instanceof MovementRefused) || e.reason !== WALLET_MOVED) throw e;
    }
  }
  // Under the player's lock the gate's answer holds until the commit (an activation takes that lock too).
  await db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    await moveMoney(trx, plan(true));
  });
}

/**
 * Hands an open withdrawal to the payout adapter (again: the id makes it idempotent at the gateway). `known`: the
 * row the caller just wrote (saves reading it back). Answers the withdrawal's status after it when it knows it.
 */
export async function sendPayout(deps: WithdrawDeps, id: string, known?: WithdrawalsTable): Promise<MovementStatus | undefined> {
  const w = known ?? (await deps.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst());
  if (!w || w.status !== 'IN_PROGRESS') return w?.status;
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
      return (await settlePayout(deps.db, id, false, ack.reason)).status ?? undefined;
    }
    // The mark and the status after it (a result may have come in while the adapter was asked): one statement.
    const marked = await deps.db
      .updateTable('withdrawals')
      .set({ payout_requested_at: nowIso(), updated_at: nowIso() })
      .where('id', '=', id)
      .where('payout_requested_at', 'is', null)
      .returning('status')
      .executeTakeFirst();
    return marked?.status;
  } catch (e) {
    // Unknown: the gateway may or may not have it; the reconciler asks again with the same id.
    deps.log?.warn({ withdrawalId: id, err: String(e) }, 'payout request unanswered; will retry');
    return undefined;
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
