import type { ProviderCall } from '../../lib/request-context';
import type { CircuitBreaker } from '../http';

/**
 * A seamless-wallet game aggregator (issue 42, docs/seamless-wallet.md). The aggregator calls our Wallet API
 * (server/plugins/seamless) for every bet, win and rollback; we call it only to open a game (its Games API's game URL).
 * Hub88 is the first one; its simulator (server/simulators/hub88-sim) behaves like it.
 */
export interface GameUrlInput {
  /** Our user id as the aggregator knows it (seamlessUserId). */
  user: string;
  /** The game session token (seamless_sessions.token). */
  token: string;
  /** The aggregator's game_code (games.aggregator_game_code). */
  gameCode: string;
  currency: string;
  lang: 'th' | 'la' | 'en';
  platform: 'GPL_DESKTOP' | 'GPL_MOBILE';
  /** Where the game's lobby button goes back to. */
  lobbyUrl: string;
  ip: string;
  country: string;
}

export interface SeamlessAggregator {
  /** The `aggregator` column of our rows and games ('hub88'). */
  readonly name: string;
  readonly operatorId: number;
  /** True when the simulator plays the aggregator (demo, tests). */
  readonly simulated: boolean;
  /** Whether `signature` (X-Hub88-Signature, base64) is the aggregator's RSA-SHA256 signature of exactly `rawBody`. */
  verify(rawBody: string | Buffer, signature: string | undefined): boolean;
  /** Our RSA-SHA256 signature (base64) of an answer body, sent back in X-Hub88-Signature; made off the main thread. */
  sign(body: string | Buffer): Promise<string>;
  /**
   * The URL that opens the game for this session (Hub88: POST /operator/generic/v2/game/url). Throws the shared
   * client's errors (ProviderUnavailable, ProviderTimeoutError, ProviderCallError) or AggregatorError.
   */
  gameUrl(input: GameUrlInput, call?: ProviderCall): Promise<string>;
  /** The Games API client's circuit breaker (real adapters), for the operator's readiness detail. */
  readonly breaker?: CircuitBreaker;
}

/** A definite refusal of the aggregator's Games API (an HTTP 4xx, or an answer without a game URL). */
export class AggregatorError extends Error {
  constructor(
    /** AGGREGATOR_AUTH (our signature or operator id refused), AGGREGATOR_REFUSED (game, currency, country, request). */
    readonly reason: 'AGGREGATOR_AUTH' | 'AGGREGATOR_REFUSED',
    readonly status: number | null,
  ) {
    super(`aggregator refused the call: ${reason}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'AggregatorError';
  }
}
