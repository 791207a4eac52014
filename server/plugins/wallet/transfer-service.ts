import { badRequest, unprocessable } from '../../errors';
import { parseWireBaht, walletBalance } from '../../ledger';
import { requireGameAccount, transferFromGame, transferToGame, type TransferDeps, type TransferGuard, type TransferResult } from '../../transfers/protocol';
import { assertMayPlay, checkLossAllowed } from '../play-limits/enforce';

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

/** Restrictions and the session limit (assertMayPlay), read in the transfer's opening transaction. */
const mayPlayGuard =
  (playerId: number, play: PlayContext): TransferGuard =>
  (trx) =>
    assertMayPlay(trx, playerId, play.sessionId, play.now, play.minuteMs);

/**
 * The loss limit (docs/game-provider.md "Loss limits"): checked in the transfer's opening transaction, before any
 * money moves, the worst case being that everything moved in is lost.
 */
const lossGuard =
  (playerId: number, amount: number, play: PlayContext): TransferGuard =>
  (trx) =>
    checkLossAllowed(trx, playerId, amount, play.now);

/**
 * POST /api/wallet/transfer. WALLET -> game and game -> WALLET follow the protocol; game -> game goes through
 * the wallet in two legs (game -> WALLET, then WALLET -> game). If the first leg is still pending the second is
 * not attempted (the answer is IN_PROGRESS: the money lands in the wallet); if the second leg fails the money
 * is in the wallet (TRANSFER_FAIL: "funds are returned to the wallet").
 * Money moving into a game is play: refused during a time-out or exclusion or past the session limit
 * (assertMayPlay), and beyond a loss limit (LOSS_LIMIT). Game -> wallet is never limited.
 */
export async function transferBetween(deps: TransferDeps, playerId: number, from: string, to: string, amount: number, play: PlayContext): Promise<TransferResult> {
  if (from === to) throw badRequest('INVALID_USER_INFO');
  if (to === WALLET) return transferFromGame(deps, { playerId, gameCode: from, amount });
  const mayPlay = mayPlayGuard(playerId, play);
  const guard = lossGuard(playerId, amount, play);
  // Wallet -> game: every check in the transfer's opening transaction.
  if (from === WALLET) return transferToGame(deps, { playerId, gameCode: to, amount, mayPlay, guard });
  // Game -> game: refused before the first leg when the second would be (nothing moves); checked again in the
  // second leg's transaction, where a refusal leaves the money in the wallet.
  await deps.db.transaction().execute(async (trx) => {
    await mayPlay(trx);
    await requireGameAccount(trx, playerId, to); // both ends exist before any money moves
    await guard(trx);
  });
  const first = await transferFromGame(deps, { playerId, gameCode: from, amount });
  if (first.status !== 'settled') return first;
  return transferToGame(deps, { playerId, gameCode: to, amount, mayPlay, guard });
}

/** POST /api/wallet/transferAll: the whole wallet into one game (a play route: the loss limit applies too). */
export async function transferAll(deps: TransferDeps, playerId: number, to: string, play: PlayContext): Promise<TransferResult & { amount: number }> {
  if (to === WALLET) throw badRequest('INVALID_USER_INFO');
  const balance = await walletBalance(deps.db, playerId);
  if (balance <= 0) throw unprocessable('MONEY_NOT_ENOUGH');
  if (balance < TRANSFER_MINIMUM_SATANG) throw unprocessable('TRANSFER_MINIMUM');
  const r = await transferToGame(deps, { playerId, gameCode: to, amount: balance, guard: lossGuard(playerId, balance, play) });
  return { ...r, amount: balance };
}
