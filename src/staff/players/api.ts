/** The player lookup's staff routes (docs/staff.md "Back office: players and the audit log"). */
import { staffApi } from '../staffApi';

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

export const playersApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    /** 404 NO_DATA for a phone no player has, 400 INVALID_USER_INFO for one no player could have. */
    lookupPlayer: build.query<PlayerLookup, string>({ query: (phone) => `/api/staff/players?phone=${encodeURIComponent(phone)}` }),
    /** Written to the audit log with the reason; 409 PLAYER_GONE once the player closed the account. */
    setPlayerStatus: build.mutation<{ id: number; status: PlayerStatus }, { id: number; status: 'active' | 'inactive'; reason: string }>({
      query: ({ id, status, reason }) => ({ url: `/api/staff/players/${encodeURIComponent(String(id))}/status`, method: 'POST', body: { status, reason } }),
    }),
  }),
});

export const { useSetPlayerStatusMutation } = playersApi;
