import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { GameProvider, TransferOutcome } from '../adapters/games/types';
import { nowIso } from '../db';
import { AppError, notFound, unprocessable } from '../errors';
import { postEntry, reverseEntry, lockAccounts, ensureAccounts, gameAccount, systemAccount, walletAccount, writeStatement, setStatementStatus } from '../ledger';
import { currencyOf, gameTransitAccount, type AccountRef } from '../ledger/accounts';
import { prepared } from '../db/prepared';
import type { RunTransaction } from '../db';
import { closePendingTransfer, findGameAccount, findGameAndAccount, insertTransfer, lockTransfer, type GameAccountRow } from './repository';
import type { ProviderCall } from '../lib/request-context';
import { newTransferId } from './ids';

/**
 * The transfer-wallet protocol (RULES.md "Game providers", docs/ledger.md):
 *   1. one transaction: the transfer row (pending), the entry that parks the money in game_transit, and the
 *      statement line (IN_PROGRESS);
 *   2. the provider call, outside any transaction, carrying our transferId;
 *   3. one transaction: settled -> the money moves on from game_transit; definitely failed -> the parking
 *      entry is reversed; unknown (timeout, lost connection, any other error) -> nothing, the row stays
 *      pending for the reconciler, which asks transferStatus(transferId) and settles or reverses.
 * Wallet -> game parks the wallet's money; game -> wallet parks the game mirror's and credits the wallet only
 * after the provider paid out.
 */
export interface TransferDeps {
  db: Kysely<DB>;
  provider: GameProvider;
  /** How long whoever is working on a pending transfer keeps the reconciler off it (ms). */
  claimMs: number;
  now?: () => Date;
  /** The request's logger when called for one (scoped in server/lib/request-context.ts), the process's otherwise. */
  log?: { warn(obj: object, msg: string): void };
  /** The request the provider's calls are made for (their X-Request-Id); none in background work. */
  call?: ProviderCall;
}

export type TransferDirection = 'to_game' | 'from_game';

export interface TransferResult {
  transferId: string;
  /** settled: done. pending: the provider's answer is not known yet; the reconciler will finish it. */
  status: 'settled' | 'pending';
}

const now = (d: TransferDeps) => (d.now ? d.now() : new Date());

/**
 * A rule the opening transaction checks before any money moves (the loss limit of issue 15): throwing refuses the
 * transfer and leaves nothing behind. No player row lock is taken for it: nothing a transfer writes changes what
 * the loss limit reads (the providers' bet feed), and FOR UPDATE on the player here deadlocks on PostgreSQL with
 * a transfer of the same player settling (it holds the ledger accounts and waits for the key share its journal
 * entry's player_id takes).
 */
export type TransferGuard = (trx: Transaction<DB>) => Promise<void>;

/**
 * How a transfer's own transactions run, when its request writes its Idempotency-Key in them (the wallet route,
 * idempotentIn): `open` runs the opening transaction (the key claimed with the money), `close` the closing one of
 * transfer `id` (the request's answer stored with the outcome `fn` returns). Either left out: a plain transaction.
 */
export interface TransferTransactions {
  open?: RunTransaction;
  close?: (id: string, fn: (trx: Transaction<DB>) => Promise<'settled' | 'failed'>) => Promise<'settled' | 'failed'>;
}

export async function requireGameAccount(db: Kysely<DB>, playerId: number, gameCode: string): Promise<GameAccountRow> {
  return (await requireGameAccountOf(db, playerId, gameCode)).account;
}

/** requireGameAccount, with the player's currency from the same read (undefined when there is no such player). */
async function requireGameAccountOf(db: Kysely<DB>, playerId: number, gameCode: string): Promise<{ account: GameAccountRow; currency?: string }> {
  const found = await findGameAndAccount(db, playerId, gameCode);
  if (!found || !found.active) throw notFound('NO_GAME');
  if (!found.account) throw unprocessable('SLOT_NO_ACCOUNT');
  return { account: found.account, currency: found.currency };
}

/**
 * Step 1 of the protocol. `check` runs first in the same transaction: whatever must hold before the money moves
 * (a throw refuses the transfer and leaves nothing behind). It may answer the player's currency when it read it in
 * that transaction (the game-account read does: one statement, and on PostgreSQL one round trip, less).
 */
async function openTransfer(
  deps: TransferDeps,
  direction: TransferDirection,
  playerId: number,
  gameCode: string,
  amount: number,
  check?: (trx: Transaction<DB>) => Promise<string | undefined>,
  inTransaction: RunTransaction = (fn) => deps.db.transaction().execute(fn),
): Promise<string> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw unprocessable('TRANSFER_MINIMUM');
  const at = now(deps);
  const id = newTransferId(Date.now());
  await inTransaction(async (trx) => {
    const known = check ? await check(trx) : undefined;
    const currency = known ?? (await currencyOf(trx, playerId));
    await insertTransfer(trx, {
      id,
      player_id: playerId,
      game_code: gameCode,
      direction,
      amount,
      currency,
      status: 'pending',
      claimed_until: nowIso(new Date(at.getTime() + deps.claimMs)),
      attempts: 1,
      last_error: null,
      created_at: nowIso(at),
      updated_at: nowIso(at),
    });
    const source = direction === 'to_game' ? walletAccount(playerId) : gameAccount(playerId, gameCode);
    await postEntry(trx, {
      kind: direction === 'to_game' ? 'transfer_to_game' : 'transfer_from_game',
      reference: `transfer:${id}:open`,
      playerId,
      currency,
      postings: [
        { account: source, amount: -amount },
        { account: gameTransitAccount(playerId, gameCode), amount },
      ],
    });
    await writeStatement(trx, {
      playerId,
      type: 'transfer',
      status: 'IN_PROGRESS',
      from: direction === 'to_game' ? 'WALLET' : gameCode,
      to: direction === 'to_game' ? gameCode : 'WALLET',
      amount,
      currency,
      refType: 'transfer',
      refId: id,
    });
  });
  return id;
}

const openTransit = prepared((db, a: { reference: string }) =>
  db
    .selectFrom('journal_entries')
    .innerJoin('ledger_postings', 'ledger_postings.entry_id', 'journal_entries.id')
    .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_postings.account_id')
    .select(['ledger_accounts.code', 'ledger_accounts.game_code'])
    .where('journal_entries.reference', '=', a.reference)
    .where('ledger_accounts.kind', '=', 'system'),
);

/**
 * The game_transit account the transfer's open entry parked the money in: a transfer opened before transit was
 * spread per game and bucket (issue 13) closes against game_transit:{currency}, a newer one against its scoped row.
 */
async function openTransitOf(trx: Transaction<DB>, transferId: string): Promise<AccountRef> {
  const row = await openTransit.first(trx, { reference: `transfer:${transferId}:open` });
  if (!row || !row.code.startsWith('game_transit:')) throw new Error(`transfer ${transferId} has no open entry in game_transit`);
  return systemAccount('game_transit', row.game_code ?? undefined);
}

/**
 * Settles (succeeded) or reverses (failed) a pending transfer in one transaction. Safe to call more than
 * once and from several places at the same time: only the first call on a pending row changes anything;
 * every call returns the row's final status. `openedIn`: the transit account the caller's own openTransfer of
 * this very transfer parked the money in (saves reading it back from the open entry).
 */
export async function closeTransfer(
  deps: TransferDeps,
  transferId: string,
  succeeded: boolean,
  note?: string,
  openedIn?: AccountRef,
  inTransaction: TransferTransactions['close'] = (_id, fn) => deps.db.transaction().execute(fn),
): Promise<'settled' | 'failed'> {
  return inTransaction(transferId, async (trx) => {
    const status = succeeded ? 'settled' : 'failed';
    // One statement moves the row off pending and returns it (it was the read, then the update).
    const t = await closePendingTransfer(trx, { id: transferId, status, updatedAt: nowIso(now(deps)), note: note ? note.slice(0, 256) : undefined });
    if (!t) {
      const current = await lockTransfer(trx, transferId);
      if (!current) throw new Error(`no transfer ${transferId}`);
      if (current.status === 'pending') throw new Error(`transfer ${transferId} could not be closed`);
      return current.status;
    }
    if (succeeded) {
      const dest = t.direction === 'to_game' ? gameAccount(t.player_id, t.game_code) : walletAccount(t.player_id);
      await postEntry(trx, {
        kind: t.direction === 'to_game' ? 'transfer_to_game_settle' : 'transfer_from_game_settle',
        reference: `transfer:${t.id}:close`,
        playerId: t.player_id,
        currency: t.currency,
        postings: [
          { account: openedIn ?? (await openTransitOf(trx, t.id)), amount: -t.amount },
          { account: dest, amount: t.amount },
        ],
      });
    } else {
      await reverseEntry(trx, { originalReference: `transfer:${t.id}:open`, reference: `transfer:${t.id}:close`, kind: 'transfer_reversal', memo: note });
    }
    await setStatementStatus(trx, 'transfer', t.id, succeeded ? 'SUCCESS' : 'FAILED');
    return status;
  });
}

/** Applies a provider's answer; returns undefined when the answer is unknown (the transfer stays pending). */
async function settleWith(
  deps: TransferDeps,
  transferId: string,
  call: () => Promise<TransferOutcome>,
  openedIn?: AccountRef,
  close?: TransferTransactions['close'],
): Promise<'settled' | 'failed' | undefined> {
  let outcome: TransferOutcome;
  try {
    outcome = await call();
  } catch (e) {
    // ProviderTimeoutError, a lost connection or anything unexpected: the outcome is unknown, never guess.
    const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    deps.log?.warn({ transferId, err: msg }, 'transfer outcome unknown; left pending for reconciliation');
    await deps.db.updateTable('game_transfers').set({ last_error: msg.slice(0, 256) }).where('id', '=', transferId).where('status', '=', 'pending').execute();
    return undefined;
  }
  return closeTransfer(deps, transferId, outcome.status === 'settled', outcome.status === 'failed' ? outcome.reason : undefined, openedIn, close);
}

/** Sends the provider the transfer's own call again (same transferId: the provider applies it at most once). */
export function resendTransfer(deps: TransferDeps, t: { id: string; direction: TransferDirection; game_code: string; amount: number }, username: string) {
  return settleWith(deps, t.id, () =>
    t.direction === 'to_game'
      ? deps.provider.deposit(t.game_code, username, t.id, t.amount, deps.call)
      : deps.provider.withdraw(t.game_code, username, t.id, t.amount, deps.call),
  );
}

function finish(transferId: string, status: 'settled' | 'failed' | undefined): TransferResult {
  if (status === 'failed') throw new AppError(422, 'TRANSFER_FAIL');
  return { transferId, status: status ?? 'pending' };
}

/**
 * Wallet -> game. MONEY_NOT_ENOUGH when the wallet does not cover it; TRANSFER_FAIL (money back in the wallet) on a
 * definite failure. The opening transaction runs `mayPlay`, then requires the game account (NO_GAME,
 * SLOT_NO_ACCOUNT), then `guard`, all in the transaction that moves the money: on SQLite the writer runs one
 * transaction at a time, so a time-out or an exclusion committed just before cannot slip between check and move; and
 * the checks are not a read transaction each on the read-only connection (issue 13: 2.1-2.3 instead of 3.7 page reads
 * per transfer under the bench's load, 2026-11-28).
 */
export async function transferToGame(
  deps: TransferDeps,
  input: { playerId: number; gameCode: string; amount: number; mayPlay?: TransferGuard; guard?: TransferGuard; transactions?: TransferTransactions },
): Promise<TransferResult> {
  let acct: GameAccountRow | undefined;
  const id = await openTransfer(
    deps,
    'to_game',
    input.playerId,
    input.gameCode,
    input.amount,
    async (trx) => {
      if (input.mayPlay) await input.mayPlay(trx);
      const found = await requireGameAccountOf(trx, input.playerId, input.gameCode);
      acct = found.account;
      if (input.guard) await input.guard(trx);
      return found.currency;
    },
    input.transactions?.open,
  );
  if (!acct) throw new Error('the opening transaction did not read the game account');
  const { username } = acct;
  const status = await settleWith(deps, id, () => deps.provider.deposit(input.gameCode, username, id, input.amount, deps.call), gameTransitAccount(input.playerId, input.gameCode), input.transactions?.close);
  return finish(id, status);
}

/**
 * Game -> wallet. The mirror is refreshed from the provider first (the player may have won), then its money is
 * parked; the provider pays out; only then is the wallet credited. TRANSFER_FAIL puts the money back in the
 * game mirror (the provider refused, e.g. the player lost it meanwhile).
 */
export async function transferFromGame(deps: TransferDeps, input: { playerId: number; gameCode: string; amount: number; transactions?: TransferTransactions }): Promise<TransferResult> {
  const acct = await requireGameAccount(deps.db, input.playerId, input.gameCode);
  await refreshGameBalance(deps, input.playerId, input.gameCode, acct.username);
  const id = await openTransfer(deps, 'from_game', input.playerId, input.gameCode, input.amount, undefined, input.transactions?.open);
  const status = await settleWith(deps, id, () => deps.provider.withdraw(input.gameCode, acct.username, id, input.amount, deps.call), gameTransitAccount(input.playerId, input.gameCode), input.transactions?.close);
  return finish(id, status);
}

export type RefreshOutcome = 'updated' | 'unchanged' | 'skipped' | 'unavailable';

/**
 * Brings the player's game mirror to the provider's balance with a journal entry against that provider's float,
 * so the books explain every win and loss. Skipped while a transfer for that game is pending or has just
 * changed (the provider's figure may or may not include it); the next refresh catches up.
 */
export async function refreshGameBalance(deps: TransferDeps, playerId: number, gameCode: string, username?: string): Promise<RefreshOutcome> {
  const user = username ?? (await findGameAccount(deps.db, playerId, gameCode))?.username;
  if (!user) return 'unavailable';
  const first = await refreshOnce(deps, playerId, gameCode, user);
  if (first !== 'just-closed') return first;
  // A transfer of this game closed in the millisecond the provider was asked (or after): the figure may or may not
  // hold it. Its provider call returned before it closed, so a figure asked for once the clock has moved past that
  // millisecond does. Without this a game -> wallet transfer right after a wallet -> game one (one click after the
  // other, or a test) found the win unbooked and refused the amount as MONEY_NOT_ENOUGH.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const second = await refreshOnce(deps, playerId, gameCode, user);
  return second === 'just-closed' ? 'skipped' : second;
}

async function refreshOnce(deps: TransferDeps, playerId: number, gameCode: string, user: string): Promise<RefreshOutcome | 'just-closed'> {
  const asked = now(deps);
  let providerBalance: number;
  try {
    providerBalance = await deps.provider.balance(gameCode, user, deps.call);
  } catch (e) {
    deps.log?.warn({ playerId, gameCode, err: String(e) }, 'game balance unavailable');
    return 'unavailable';
  }
  if (!Number.isSafeInteger(providerBalance) || providerBalance < 0) return 'unavailable';
  // A transfer closed at or after this instant may or may not be in the provider's figure; one closed before it
  // is (its provider call returned before we asked). Assumes one clock, or NTP-synced servers: a skewed clock
  // at worst books a win/loss a refresh early, which the next refresh corrects.
  const since = nowIso(asked);
  return deps.db.transaction().execute(async (trx) => {
    const currency = await currencyOf(trx, playerId);
    const [mirror] = await ensureAccounts(trx, [gameAccount(playerId, gameCode)], currency);
    const locked = (await lockAccounts(trx, [mirror.id])).get(mirror.id)!;
    const busy = await trx
      .selectFrom('game_transfers')
      .select('status')
      .where('player_id', '=', playerId)
      .where('game_code', '=', gameCode)
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb('updated_at', '>=', since)]))
      .orderBy(sql`case when status = 'pending' then 0 else 1 end`)
      .limit(1)
      .executeTakeFirst();
    if (busy) return busy.status === 'pending' ? 'skipped' : 'just-closed';
    const delta = providerBalance - locked.balance;
    if (delta === 0) return 'unchanged';
    await postEntry(trx, {
      kind: 'game_result',
      reference: `game_result:${locked.id}:${locked.version}`,
      playerId,
      memo: `${gameCode} balance ${providerBalance}`,
      postings: [
        { account: gameAccount(playerId, gameCode), amount: delta },
        { account: systemAccount('provider_float', gameCode), amount: -delta },
      ],
    });
    return 'updated';
  });
}
