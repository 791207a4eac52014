import type { Generated } from 'kysely';

/** Tables of bonuses, promotion codes, the wagering engine and refunds (migration 202611260010_bonuses, docs/bonus.md). */

export type BonusKind = 'bonus' | 'promotion';
export type BonusType = 'limit' | 'day' | 'week';
export type UserBonusStatus = 'ACTIVE' | 'SUCCESS' | 'FAILED' | 'CLEARED';

/**
 * A bonus or a promotion code the operator defined (`npm run operator -- bonus|promotion add <file>`).
 * Percentages are basis points (10% = 1000), money satang, the turnover multiple hundredths (3x = 300);
 * texts are JSON `{th, la, en}`, banners JSON `[{image, html: {th, la, en}}]`.
 */
export interface BonusDefinitionsTable {
  /** Upper case, A-Z 0-9 _ -, 1-32 characters; also the scope of its budget account bonus_budget:{code}:{cur}. */
  code: string;
  kind: BonusKind;
  /** Receive-limit window: limit (ever), day, week (calendar, operator's time zone). Promotions: limit. */
  type: BonusType;
  max_received: number;
  name: string;
  /** The bonus modal's notice (may hold %percentFail%); a promotion's description. */
  notice: string;
  banners: string;
  percent_bp: number;
  cap: number;
  turnover_x100: number;
  percent_fail_bp: number;
  /** Total the budget may pay out, net of amounts cleared back; null: no limit. */
  budget: number | null;
  valid_from: string | null;
  valid_to: string | null;
  active: number;
  sort: number;
  created_at: string;
  updated_at: string;
}

/** One bonus a player received: its terms frozen at activation, and how it ended. */
export interface UserBonusesTable {
  id: Generated<number>;
  player_id: number;
  code: string;
  kind: BonusKind;
  status: UserBonusStatus;
  /** The player's id while ACTIVE, else null: unique, so a player never holds two active bonuses. */
  active_player_id: number | null;
  /** `{code}:{playerId}` for a promotion, else null: unique, so a promotion is received once per player. */
  once_key: string | null;
  currency: string;
  /** Satang credited from the budget. */
  amount: number;
  /** Wallet balance after the credit (balance + bonus). */
  start_amount: number;
  /** Turnover that finishes the bonus (start_amount x multiple). */
  target: number;
  percent_fail_bp: number;
  /** Total balance at or below which the bonus fails (start_amount x percentFail%). */
  fail_at: number;
  /** Bumped each time new rounds are attributed while ACTIVE; the engine re-evaluates until it is back to 0. */
  needs_check: number;
  /** Satang taken back by clear or failure (collected debt included), else null. */
  cleared_amount: number | null;
  /** Satang of a cleared or failed bonus not taken back yet (it was at a game): withdrawals wait (BONUS_DEBT). */
  debt: Generated<number>;
  created_at: string;
  ended_at: string | null;
  updated_at: string;
}

/** The position in each game's bet feed; written in the same transaction as the rounds it covers. */
export interface BetFeedCursorsTable { game_code: string; cursor: string | null; updated_at: string }

/** A round from a provider's bet feed, stored once per (game, round id). */
export interface BetRoundsTable {
  id: Generated<number>;
  game_code: string;
  round_id: string;
  username: string;
  /** Our player behind the provider username (game_accounts), null when none. */
  player_id: number | null;
  bet: number;
  win: number;
  played_at: string;
  /** The bonus that was active when the round was played. */
  user_bonus_id: number | null;
  /** The refund that counted this round's net result, null until one does. */
  refund_id: number | null;
  created_at: string;
  /** 1 while a seamless round has its bet and not its closing win (refunds leave it for later); 0 otherwise. */
  open: Generated<number>;
}

/** A refund of losses a player received. */
export interface RefundsTable {
  id: Generated<number>;
  player_id: number;
  currency: string;
  amount: number;
  net_loss: number;
  percent_bp: number;
  bonus_failed: number;
  created_at: string;
}

/**
 * A reward of a deposit that waits for the player to wager it (migration 202612010100_wagered_rewards): wheel coins
 * (purpose coins) or an invite earning (purpose invite). Rounds played at or after deposited_at add their bets to the
 * oldest open row of each purpose; turnover beyond every open row is not kept for later deposits.
 */
export interface DepositTurnoverTable {
  id: Generated<number>;
  player_id: number;
  purpose: 'coins' | 'invite';
  /** deposit:{refId}, unique per purpose. */
  deposit_ref: string;
  deposited_at: string;
  /** Satang of turnover that meets it (deposit x multiple). */
  required: number;
  wagered: Generated<number>;
  /** Coins granted when met (purpose coins). */
  coins: Generated<number>;
  met_at: string | null;
  created_at: string;
}

export interface BonusTables {
  bonus_definitions: BonusDefinitionsTable;
  user_bonuses: UserBonusesTable;
  bet_feed_cursors: BetFeedCursorsTable;
  bet_rounds: BetRoundsTable;
  refunds: RefundsTable;
  deposit_turnover: DepositTurnoverTable;
}
