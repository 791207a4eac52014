import type { Generated } from 'kysely';

/** Tables of the ledger, wallet, transfers, withdrawals and statements (migration 202611250004_ledger). */

export interface LedgerAccountsTable {
  id: Generated<number>;
  code: string;
  kind: 'wallet' | 'game' | 'system';
  player_id: number | null;
  game_code: string | null;
  currency: string;
  balance: number;
  version: number;
  allow_negative: number;
  created_at: string;
  updated_at: string;
}

export interface JournalEntriesTable {
  id: Generated<number>;
  reference: string;
  kind: string;
  player_id: number | null;
  currency: string;
  reverses_entry_id: number | null;
  memo: string | null;
  created_at: string;
}

export interface LedgerPostingsTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  amount: number;
  balance_before: number;
  balance_after: number;
  account_version: number;
  created_at: string;
}

export interface GameAccountsTable {
  player_id: number;
  game_code: string;
  username: string;
  /** Sealed with GAME_SECRET_KEY (`v1:...`, server/lib/secret-box.ts), never the readable password. */
  password: string;
  /** The provider's event object as JSON, sealed like password (it repeats the password), or null. */
  event: string | null;
  created_at: string;
  updated_at: string;
}

export type TransferDirection = 'to_game' | 'from_game';
export type TransferRowStatus = 'pending' | 'settled' | 'failed';

export interface GameTransfersTable {
  id: string;
  player_id: number;
  game_code: string;
  direction: TransferDirection;
  amount: number;
  currency: string;
  status: TransferRowStatus;
  claimed_until: string | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export type MovementStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';

export interface WithdrawalsTable {
  id: string;
  player_id: number;
  amount: number;
  currency: string;
  status: MovementStatus;
  bank_code: string;
  bank_account_no: string;
  bank_account_name: string;
  payout_requested_at: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface StatementsTable {
  id: Generated<number>;
  player_id: number;
  statement_type: 'deposit' | 'bonus' | 'finish_bonus' | 'withdraw' | 'transfer';
  status: MovementStatus;
  from_account: string;
  to_account: string;
  amount: number;
  currency: string;
  ref_type: string;
  ref_id: string;
  linked_type: 'bonus' | 'promotion' | 'invite' | 'refund' | 'luckydraw' | null;
  linked_description: string | null;
  /** Why staff rejected a deposit (issue 14, migration 202611261720), shown to the player; null otherwise. */
  note: string | null;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyKeysTable {
  player_id: number;
  idem_key: string;
  request_hash: string;
  state: 'processing' | 'done';
  status_code: number | null;
  response_body: string | null;
  created_at: string;
  updated_at: string;
}

export interface LedgerTables {
  ledger_accounts: LedgerAccountsTable;
  journal_entries: JournalEntriesTable;
  ledger_postings: LedgerPostingsTable;
  game_accounts: GameAccountsTable;
  game_transfers: GameTransfersTable;
  withdrawals: WithdrawalsTable;
  statements: StatementsTable;
  idempotency_keys: IdempotencyKeysTable;
}
