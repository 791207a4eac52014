import type { ProviderCall } from '../../lib/request-context';

/**
 * The game-provider adapter (transfer wallet, RULES.md "Game providers"). Every amount is integer
 * minor units (satang). A transfer carries our transferId so that a retry is never applied twice and
 * a timeout can be resolved later with transferStatus(transferId).
 */
export interface GamePlayer {
  /** The player's username at the provider. */
  username: string;
  password: string;
  /** One provider carries an extra event object with form state (spec §2, game account modal). */
  event?: Record<string, unknown> | null;
}

export type TransferOutcome =
  /** The provider applied the transfer. */
  | { status: 'settled' }
  /** The provider definitely did not apply it (e.g. insufficient game balance, rejected). */
  | { status: 'failed'; reason: string };

export type TransferStatus = 'settled' | 'failed' | 'unknown';

/** Thrown by an adapter when the outcome is not known (timeout, connection lost): leave the transfer pending. */
export class ProviderTimeoutError extends Error {
  constructor(message = 'provider timeout') {
    super(message);
    this.name = 'ProviderTimeoutError';
  }
}

export interface BetFeedRow {
  /** The provider's own id for the round; the feed is read from a cursor, so rows are never counted twice. */
  roundId: string;
  username: string;
  /** Amount staked (turnover), satang. */
  bet: number;
  /** Amount paid back, satang (win/loss = win - bet). */
  win: number;
  at: string; // ISO-8601
}

/**
 * Every method's last argument, `call`, names the request the call is made for (none in background work): a real
 * adapter sends `outboundHeaders(call)` with its HTTP request (docs/operations.md "Request ids").
 */
export interface GameProvider {
  createPlayer(gameCode: string, playerId: number, call?: ProviderCall): Promise<GamePlayer>;
  /** Wallet -> game. */
  deposit(gameCode: string, username: string, transferId: string, amount: number, call?: ProviderCall): Promise<TransferOutcome>;
  /** Game -> wallet. */
  withdraw(gameCode: string, username: string, transferId: string, amount: number, call?: ProviderCall): Promise<TransferOutcome>;
  /** The player's balance at the provider, satang. */
  balance(gameCode: string, username: string, call?: ProviderCall): Promise<number>;
  transferStatus(gameCode: string, transferId: string, call?: ProviderCall): Promise<TransferStatus>;
  /** A URL that opens the game logged in (auto-login). */
  launchUrl(gameCode: string, username: string, password?: string, call?: ProviderCall): Promise<string>;
  resetPassword(gameCode: string, username: string, call?: ProviderCall): Promise<string>;
  /** Rounds after the cursor (exclusive), oldest first, and the new cursor. */
  betFeed(gameCode: string, cursor: string | null, call?: ProviderCall): Promise<{ rows: BetFeedRow[]; cursor: string | null }>;
}
