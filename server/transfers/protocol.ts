import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { GameProvider, TransferOutcome } from '../adapters/games/types';
import { nowIso } from '../db';
import { AppError, notFound, unprocessable } from '../errors';
import { accountCode, AccountMovedError, DuplicateEntryError, gameAccount, systemAccount, walletAccount, statementLine, statementStatus, moveMoney, MovementRefused, type MovementPart } from '../ledger';
import { currencyOf, gameTransitAccount, type AccountRef } from '../ledger/accounts';
import { prepared } from '../db/prepared';
import { closePendingPart, findGameAccount, findGameAndAccount, insertTransferPart, mirrorState, readTransfer, type GameAccountRow } from './repository';
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
export type TransferGuard = (q: Kysely<DB>) => Promise<void>;

/**
 * What a transfer's own movements also write when its request keeps an Idempotency-Key in them (the wallet route,
 * idempotentIn): `open` the key's claim, written with the opening movement (refused KEY_TAKEN when the key is taken:
 * nothing of the transfer is written), `close` the request's answer, written with the closing movement of transfer
 * `id` and its outcome. `committed` is told once the movement holding the parts committed. Either left out: nothing.
 */
export interface TransferTransactions {
  open?: { parts: () => MovementPart[]; committed: () => void };
  close?: { parts: (id: string, status: 'settled' | 'failed') => MovementPart[]; committed: (id: string, status: 'settled' | 'failed') => void };
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
 * Step 1 of the protocol, one movement (moveMoney: one statement on PostgreSQL, one transaction on SQLite). `check`
 * runs first, with the movement's reads: whatever must hold before the money moves (a throw refuses the transfer and
 * leaves nothing behind). It may answer the player's currency when it read it (the game-account read does: one
 * statement, and on PostgreSQL one round trip, less). Answers the transfer's id and the transit account it parked in.
 */
async function openTransfer(
  deps: TransferDeps,
  direction: TransferDirection,
  playerId: number,
  gameCode: string,
  amount: number,
  check?: (q: Kysely<DB>) => Promise<string | undefined>,
  open?: TransferTransactions['open'],
): Promise<{ id: string; currency: string; transit: AccountRef }> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw unprocessable('TRANSFER_MINIMUM');
  const at = now(deps);
  const id = newTransferId(Date.now());
  const transit = gameTransitAccount(playerId, gameCode);
  const { result: currency } = await moveMoney(deps.db, async (q) => {
    const known = check ? await check(q) : undefined;
    const currency = known ?? (await currencyOf(q, playerId));
    const source = direction === 'to_game' ? walletAccount(playerId) : gameAccount(playerId, gameCode);
    return {
      result: currency,
      parts: [
        ...(open?.parts() ?? []),
        insertTransferPart({
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
        }),
        statementLine({
          playerId,
          type: 'transfer',
          status: 'IN_PROGRESS',
          from: direction === 'to_game' ? 'WALLET' : gameCode,
          to: direction === 'to_game' ? gameCode : 'WALLET',
          amount,
          currency,
          refType: 'transfer',
          refId: id,
        }),
      ],
      entries: [
        {
          kind: direction === 'to_game' ? 'transfer_to_game' : 'transfer_from_game',
          reference: `transfer:${id}:open`,
          playerId,
          currency,
          postings: [
            { account: source, amount: -amount },
            { account: transit, amount },
          ],
        },
      ],
    };
  });
  open?.committed();
  return { id, currency, transit };
}

const NOT_PENDING = 'NOT_PENDING';

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
async function openTransitOf(db: Kysely<DB>, transferId: string): Promise<AccountRef> {
  const row = await openTransit.first(db, { reference: `transfer:${transferId}:open` });
  if (!row || !row.code.startsWith('game_transit:')) throw new Error(`transfer ${transferId} has no open entry in game_transit`);
  return systemAccount('game_transit', row.game_code ?? undefined);
}

/** What a closer knows of a transfer: all its closing movement needs (the request that opened it knows it all). */
export interface KnownTransfer {
  id: string;
  playerId: number;
  gameCode: string;
  direction: TransferDirection;
  amount: number;
  currency: string;
  /** The transit account its open entry parked the money in. */
  transit: AccountRef;
}

/** A transfer as its row and open entry say, or its final status when it is not pending (undefined: no such transfer). */
async function knownTransfer(db: Kysely<DB>, transferId: string): Promise<KnownTransfer | 'settled' | 'failed' | undefined> {
  const t = await readTransfer(db, transferId);
  if (!t) return undefined;
  if (t.status !== 'pending') return t.status;
  return { id: t.id, playerId: t.player_id, gameCode: t.game_code, direction: t.direction, amount: t.amount, currency: t.currency, transit: await openTransitOf(db, t.id) };
}

/**
 * Settles (succeeded) or reverses (failed) a pending transfer in one movement (one statement on PostgreSQL). Safe to
 * call more than once and from several places at the same time: only the first call on a pending row changes
 * anything (the row's move off pending is the movement's condition: a closer that finds it closed writes nothing);
 * every call returns the row's final status. `known`: what the caller's own openTransfer of this very transfer
 * knows (saves reading the row and its open entry back).
 */
export async function closeTransfer(
  deps: TransferDeps,
  transferId: string,
  succeeded: boolean,
  note?: string,
  known?: KnownTransfer,
  close?: TransferTransactions['close'],
): Promise<'settled' | 'failed'> {
  const t = known ?? (await knownTransfer(deps.db, transferId));
  if (t === undefined) throw new Error(`no transfer ${transferId}`);
  if (typeof t === 'string') return t;
  const status = succeeded ? 'settled' : 'failed';
  const source = t.direction === 'to_game' ? walletAccount(t.playerId) : gameAccount(t.playerId, t.gameCode);
  const dest = t.direction === 'to_game' ? gameAccount(t.playerId, t.gameCode) : walletAccount(t.playerId);
  const reference = `transfer:${t.id}:close`;
  try {
    await moveMoney(deps.db, () => ({
      parts: [
        closePendingPart({ id: t.id, status, updatedAt: nowIso(now(deps)), note: note ? note.slice(0, 256) : undefined }),
        statementStatus('transfer', t.id, succeeded ? 'SUCCESS' : 'FAILED'),
        ...(close?.parts(t.id, status) ?? []),
      ],
      entries: [
        succeeded
          ? {
              kind: t.direction === 'to_game' ? 'transfer_to_game_settle' : 'transfer_from_game_settle',
              reference,
              playerId: t.playerId,
              currency: t.currency,
              postings: [
                { account: t.transit, amount: -t.amount },
                { account: dest, amount: t.amount },
              ],
            }
          : {
              // The open entry's negation (what reverseEntry would post), pointing at it.
              kind: 'transfer_reversal',
              reference,
              playerId: t.playerId,
              currency: t.currency,
              memo: note,
              reversesReference: `transfer:${t.id}:open`,
              postings: [
                { account: source, amount: t.amount },
                { account: t.transit, amount: -t.amount },
              ],
            },
      ],
    }));
  } catch (e) {
    if (!(e instanceof MovementRefused) || e.reason !== NOT_PENDING) throw e;
    // Someone closed it first: its status is the answer.
    const current = await readTransfer(deps.db, t.id);
    if (!current) throw new Error(`no transfer ${t.id}`);
    if (current.status === 'pending') throw new Error(`transfer ${t.id} could not be closed`);
    return current.status;
  }
  close?.committed(t.id, status);
  return status;
}

/** Applies a provider's answer; returns undefined when the answer is unknown (the transfer stays pending). */
async function settleWith(
  deps: TransferDeps,
  transferId: string,
  call: () => Promise<TransferOutcome>,
  known?: KnownTransfer,
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
  return closeTransfer(deps, transferId, outcome.status === 'settled', outcome.status === 'failed' ? outcome.reason : undefined, known, close);
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
  const { id, currency, transit } = await openTransfer(
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
  const known: KnownTransfer = { id, playerId: input.playerId, gameCode: input.gameCode, direction: 'to_game', amount: input.amount, currency, transit };
  const status = await settleWith(deps, id, () => deps.provider.deposit(input.gameCode, username, id, input.amount, deps.call), known, input.transactions?.close);
  return finish(id, status);
}

/**
 * Game -> wallet. The mirror is refreshed from the provider first (the player may have won), then its money is
 * parked; the provider pays out; only then is the wallet credited. TRANSFER_FAIL puts the money back in the
 * game mirror (the provider refused, e.g. the player lost it meanwhile).
 */
export async function transferFromGame(deps: TransferDeps, input: { playerId: number; gameCode: string; amount: number; transactions?: TransferTransactions }): Promise<TransferResult> {
  const { account: acct, currency: knownCurrency } = await requireGameAccountOf(deps.db, input.playerId, input.gameCode);
  await refreshGameBalance(deps, input.playerId, input.gameCode, acct.username);
  // The currency came with the game account (a player's currency never changes): the opening movement reads nothing.
  const { id, currency, transit } = await openTransfer(deps, 'from_game', input.playerId, input.gameCode, input.amount, async () => knownCurrency, input.transactions?.open);
  const known: KnownTransfer = { id, playerId: input.playerId, gameCode: input.gameCode, direction: 'from_game', amount: input.amount, currency, transit };
  const status = await settleWith(deps, id, () => deps.provider.withdraw(input.gameCode, acct.username, id, input.amount, deps.call), known, input.transactions?.close);
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
  // One movement: on PostgreSQL one read (currency, mirror, busy) and, when the balance moved, one statement that
  // posts it only if the mirror is still at the version read (AccountMovedError otherwise: a transfer settled
  // meanwhile, and the next refresh catches up). On SQLite all of it is one transaction, as before.
  try {
    const { result } = await moveMoney(deps.db, async (q) => {
      const state = await mirrorState(q, playerId, accountCode(gameAccount(playerId, gameCode), 'THB'), gameCode, since);
      if (!state) throw new Error(`no player ${playerId}`);
      const none = { parts: [], entries: [] };
      if (state.busy) return { ...none, result: state.busy === 'pending' ? ('skipped' as const) : ('just-closed' as const) };
      const mirror = state.mirror ?? { id: 0, balance: 0, version: 0 };
      const delta = providerBalance - mirror.balance;
      if (delta === 0) return { ...none, result: 'unchanged' as const };
      // A mirror not there yet is created by the entry; its reference then takes the version alone.
      const reference = state.mirror ? `game_result:${mirror.id}:${mirror.version}` : `game_result:${playerId}:${gameCode}:0`;
      return {
        result: 'updated' as const,
        parts: [],
        entries: [
          {
            kind: 'game_result',
            reference,
            playerId,
            currency: state.currency,
            memo: `${gameCode} balance ${providerBalance}`,
            postings: [
              { account: gameAccount(playerId, gameCode), amount: delta, expectVersion: mirror.version },
              { account: systemAccount('provider_float', gameCode), amount: -delta },
            ],
          },
        ],
      };
    });
    return result;
  } catch (e) {
    if (e instanceof AccountMovedError || e instanceof DuplicateEntryError) return 'skipped';
    throw e;
  }
}
