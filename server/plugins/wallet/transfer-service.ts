import { badRequest, unprocessable } from '../../errors';
import { parseWireBaht, walletBalance } from '../../ledger';
import { requireGameAccount, transferFromGame, transferToGame, type TransferDeps, type TransferResult } from '../../transfers/protocol';

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

/**
 * POST /api/wallet/transfer. WALLET -> game and game -> WALLET follow the protocol; game -> game goes through
 * the wallet in two legs (game -> WALLET, then WALLET -> game). If the first leg is still pending the second is
 * not attempted (the answer is IN_PROGRESS: the money lands in the wallet); if the second leg fails the money
 * is in the wallet (TRANSFER_FAIL: "funds are returned to the wallet").
 */
export async function transferBetween(deps: TransferDeps, playerId: number, from: string, to: string, amount: number): Promise<TransferResult> {
  if (from === to) throw badRequest('INVALID_USER_INFO');
  if (from === WALLET) return transferToGame(deps, { playerId, gameCode: to, amount });
  if (to === WALLET) return transferFromGame(deps, { playerId, gameCode: from, amount });
  await requireGameAccount(deps.db, playerId, to); // both ends exist before any money moves
  const first = await transferFromGame(deps, { playerId, gameCode: from, amount });
  if (first.status !== 'settled') return first;
  return transferToGame(deps, { playerId, gameCode: to, amount });
}

/** POST /api/wallet/transferAll: the whole wallet into one game. */
export async function transferAll(deps: TransferDeps, playerId: number, to: string): Promise<TransferResult & { amount: number }> {
  if (to === WALLET) throw badRequest('INVALID_USER_INFO');
  const balance = await walletBalance(deps.db, playerId);
  if (balance <= 0) throw unprocessable('MONEY_NOT_ENOUGH');
  if (balance < TRANSFER_MINIMUM_SATANG) throw unprocessable('TRANSFER_MINIMUM');
  const r = await transferToGame(deps, { playerId, gameCode: to, amount: balance });
  return { ...r, amount: balance };
}
