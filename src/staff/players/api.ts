/** The player lookup's staff routes (docs/staff.md "Back office: players and the audit log"). */
import { call } from '../staffApi';

export type PlayerStatus = 'active' | 'inactive' | 'gone';

/** One line of the player's statement, exactly as POST /api/statement shows it to the player. */
export interface StatementLine {
  _id: string;
  statementType: 'deposit' | 'bonus' | 'finish_bonus' | 'withdraw' | 'transfer';
  status: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';
  from: string;
  to: string;
  /** Baht (or kip), 2 decimals. */
  amount: number;
  createdAt: string;
  reference?: string;
  note?: string;
}

export interface PlayerView {
  id: number;
  phone: string;
  name: string;
  status: PlayerStatus;
  /** THB or LAK. */
  currency: string;
  wallet: number;
  games: { code: string; name: string; balance: number }[];
  coin: number;
  createdAt: string;
  bank: { code: string; accountNo: string; accountName: string };
}

export interface PlayerLookup {
  player: PlayerView;
  movements: StatementLine[];
}

export const playersApi = {
  lookup: (phone: string) => call<PlayerLookup>('GET', `/api/staff/players?phone=${encodeURIComponent(phone)}`),
  setStatus: (id: number, status: 'active' | 'inactive', reason: string) =>
    call<{ id: number; status: PlayerStatus }>('POST', `/api/staff/players/${encodeURIComponent(String(id))}/status`, { status, reason }),
};
