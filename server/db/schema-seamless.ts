import type { Generated } from 'kysely';

/** The seamless wallet (migration 202612020600_seamless_wallet, docs/seamless-wallet.md). */
export type SeamlessKind = 'bet' | 'win' | 'rollback';
/** OK: applied; ROLLED_BACK: a bet a rollback reversed; REFUSED: an error answer kept so a retry gets it again. */
export type SeamlessStatus = 'OK' | 'ROLLED_BACK' | 'REFUSED';

/** A game session token handed to the aggregator at launch. */
export interface SeamlessSessionsTable {
  token: string;
  player_id: number;
  game_code: string;
  aggregator: string;
  currency: string;
  /** The player's login session (sessions.id) it was opened in: bets count the session limit from it. */
  session_id: string | null;
  created_at: string;
  /** Bets need a token that has not expired; wins and rollbacks are taken after it. */
  expires_at: string;
}

/** One transaction_uuid of an aggregator, stored once, with the first answer given to it. */
export interface SeamlessTransactionsTable {
  id: Generated<number>;
  aggregator: string;
  transaction_uuid: string;
  kind: SeamlessKind;
  player_id: number;
  game_code: string;
  round_id: string;
  /** A rollback's target; null otherwise. */
  reference_transaction_uuid: string | null;
  /** Satang, >= 0. */
  amount: number;
  currency: string;
  status: SeamlessStatus;
  /** JSON of the first answer, without request_uuid. */
  answer: string;
  created_at: string;
  updated_at: string;
}

export interface SeamlessTables {
  seamless_sessions: SeamlessSessionsTable;
  seamless_transactions: SeamlessTransactionsTable;
}
