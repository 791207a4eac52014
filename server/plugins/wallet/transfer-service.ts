import { AppError, badRequest, unprocessable } from '../../errors';
import { parseWireBaht, walletBalance } from '../../ledger';
import { requireGameAccount, transferFromGame, transferToGame, type TransferDeps, type TransferGuard, type TransferResult, type TransferTransactions } from '../../transfers/protocol';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { assertMayPlay, checkLossAllowed, loadLimits, type Limits } from '../play-limits';
import { findGame, freshActiveGames } from './repository';
import { isSeamless } from './service';

export const WALLET = 'WALLET';
/** Transfer minimum: 1 baht (spec §9). */
export const TRANSFER_MINIMUM_SATANG = 100;

/** Baht from the wire to satang: 400 INVALID_USER_INFO if not an amount with at most 2 decimals; a negative number is below the minimum. */
export function amountFromWire(v: unknown, minimum: number): number {
  if (typeof v === 'number' && v < 0) throw unprocessable('TRANSFER_MINIMUM');
  const satang = parseWireBaht(v);
  if (satang === null) throw badRequest('INVALID_USER_INFO');
  if (satang < minimum) throw unprocessable('TRANSFER_MINIMUM');
  return satang;
}

/** Who asks and when: the responsible-play checks (issue 15) of money moving into a game. */
export interface PlayContext {
  /** The request's session (its age against the session limit). */
  sessionId: string;
  now: Date;
  /** PLAY_MINUTE_MS: the length of one minute of the session limit. */
  minuteMs: number;
}

/**
 * The checks of money moving into a game, each run in the transaction the protocol gives it: restrictions and the
 * session limit (mayPlay, assertMayPlay), then, after the game account, the loss limit (guard, checkLossAllowed: the
 * worst case being that everything moved in is lost; docs/game-provider.md "Loss limits"). The player's limits are
 * read once per handle the checks are given, by the first check that runs with it (issue 13: play_limits was read
 * twice per transfer, a round trip each on PostgreSQL): the opening movement's transaction on SQLite, the pool's handle
 * on PostgreSQL, where moveMoney runs the checks before its one statement (issue 43). A game -> game transfer's
 * pre-check (a transaction of its own) and second leg are two reads.
 */
function playGuards(playerId: number, amount: number, play: PlayContext): { mayPlay: TransferGuard; guard: TransferGuard } {
  const read = new WeakMap<object, Promise<Limits>>();
  const limitsIn = (trx: Kysely<DB>) => {
    let limits = read.get(trx);
    if (!limits) {
      limits = loadLimits(trx, playerId, play.now);
      read.set(trx, limits);
    }
    return limits;
  };
  return {
    mayPlay: async (trx) => assertMayPlay(trx, playerId, play.sessionId, play.now, play.minuteMs, await limitsIn(trx)),
    guard: async (trx) => checkLossAllowed(trx, playerId, amount, play.now, await limitsIn(trx)),
  };
}

/**
 * Issue 42: a seamless game takes no transfer, in or out (422 SEAMLESS_GAME): the aggregator debits and credits the
 * wallet itself, and the game has no account to hold money. Refused before anything is written or the provider is
 * asked, without a statement more on the transfer's path (issue 13): `refuseKnownSeamless` from the games cache
 * while it is fresh (it is whenever wallets are being viewed), and `unlessSeamless` on the protocol's own refusal
 * SLOT_NO_ACCOUNT (activation refuses a seamless game, so none has an account), which reads the game only then.
 * Together they also refuse an account left at a game switched to seamless, while the cache is fresh.
 * An inactive or unknown game stays the protocol's NO_GAME.
 */
async function refuseKnownSeamless(db: TransferDeps['db'], codes: string[]): Promise<void> {
  const cached = codes.length ? freshActiveGames(db) : undefined;
  if (!cached) return;
  const games = await cached;
  if (codes.some((code) => games.some((g) => g.code === code && isSeamless(g)))) throw unprocessable('SEAMLESS_GAME');
}

async function unlessSeamless<T>(db: TransferDeps['db'], codes: string[], move: () => Promise<T>): Promise<T> {
  try {
    return await move();
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'SLOT_NO_ACCOUNT') throw e;
    for (const code of codes) {
      const game = await findGame(db, code);
      if (game && Number(game.active) && isSeamless(game)) throw unprocessable('SEAMLESS_GAME');
    }
    throw e;
  }
}

/**
 * POST /api/wallet/transfer. WALLET -> game and game -> WALLET follow the protocol; game -> game goes through
 * the wallet in two legs (game -> WALLET, then WALLET -> game). If the first leg is still pending the second is
 * not attempted (the answer is IN_PROGRESS: the money lands in the wallet); if the second leg fails the money
 * is in the wallet (TRANSFER_FAIL: "funds are returned to the wallet").
 * Money moving into a game is play: refused during a time-out or exclusion or past the session limit
 * (assertMayPlay), and beyond a loss limit (LOSS_LIMIT). Game -> wallet is never limited.
 * `transactions`: the request's Idempotency-Key written in the transfer's own transactions (routes.ts): claimed in
 * the first opening one, the answer stored in the last closing one (the first leg of game -> game closes plainly).
 */
export async function transferBetween(
  deps: TransferDeps,
  playerId: number,
  from: string,
  to: string,
  amount: number,
  play: PlayContext,
  transactions?: TransferTransactions,
): Promise<TransferResult> {
  if (from === to) throw badRequest('INVALID_USER_INFO');
  const games = [from, to].filter((code) => code !== WALLET);
  await refuseKnownSeamless(deps.db, games);
  return unlessSeamless(deps.db, games, () => transferOf(deps, playerId, from, to, amount, play, transactions));
}

async function transferOf(deps: TransferDeps, playerId: number, from: string, to: string, amount: number, play: PlayContext, transactions?: TransferTransactions): Promise<TransferResult> {
  if (to === WALLET) return transferFromGame(deps, { playerId, gameCode: from, amount, transactions });
  const { mayPlay, guard } = playGuards(playerId, amount, play);
  // Wallet -> game: every check in the transfer's opening transaction.
  if (from === WALLET) return transferToGame(deps, { playerId, gameCode: to, amount, mayPlay, guard, transactions });
  // Game -> game: refused before the first leg when the second would be (nothing moves); checked again in the
  // second leg's transaction, where a refusal leaves the money in the wallet.
  await deps.db.transaction().execute(async (trx) => {
    await mayPlay(trx);
    await requireGameAccount(trx, playerId, to); // both ends exist before any money moves
    await guard(trx);
  });
  const first = await transferFromGame(deps, { playerId, gameCode: from, amount, transactions: transactions && { open: transactions.open } });
  if (first.status !== 'settled') return first;
  return transferToGame(deps, { playerId, gameCode: to, amount, mayPlay, guard, transactions });
}

/** POST /api/wallet/transferAll: the whole wallet into one game (a play route: the loss limit applies too). */
export async function transferAll(deps: TransferDeps, playerId: number, to: string, play: PlayContext, transactions?: (amount: number) => TransferTransactions): Promise<TransferResult & { amount: number }> {
  if (to === WALLET) throw badRequest('INVALID_USER_INFO');
  await refuseKnownSeamless(deps.db, [to]);
  const balance = await walletBalance(deps.db, playerId);
  if (balance <= 0) throw unprocessable('MONEY_NOT_ENOUGH');
  if (balance < TRANSFER_MINIMUM_SATANG) throw unprocessable('TRANSFER_MINIMUM');
  const r = await unlessSeamless(deps.db, [to], () =>
    transferToGame(deps, { playerId, gameCode: to, amount: balance, guard: playGuards(playerId, balance, play).guard, transactions: transactions?.(balance) }),
  );
  return { ...r, amount: balance };
}
