import type { Generated } from 'kysely';

/** Tables of the game-provider simulator (migration 202611250003_game_sim). Money in satang, times ISO text. */
export interface SimPlayersTable {
  id: Generated<number>;
  game_code: string;
  player_id: number;
  username: string;
  password: string;
  password_version: Generated<number>;
  balance: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface SimTransfersTable {
  game_code: string;
  transfer_id: string;
  kind: 'deposit' | 'withdraw';
  username: string;
  amount: number;
  status: 'settled' | 'failed';
  reason: string | null;
  balance_after: number | null;
  created_at: string;
}

export interface SimRoundCountersTable {
  game_code: string;
  last_seq: Generated<number>;
}

export interface SimRoundsTable {
  game_code: string;
  seq: number;
  username: string;
  bet: number;
  win: number;
  balance_after: number;
  symbols: string;
  created_at: string;
}

export interface GameSimTables {
  sim_players: SimPlayersTable;
  sim_transfers: SimTransfersTable;
  sim_round_counters: SimRoundCountersTable;
  sim_rounds: SimRoundsTable;
}
