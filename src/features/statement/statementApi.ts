import { api } from '../../app/api';

/** Spec §3 statement entry types; the server may add others, which show as plain entries. */
export type StatementType = 'deposit' | 'bonus' | 'finish_bonus' | 'withdraw' | 'transfer';

/** Spec §4 statement status: in progress is the default. */
export type StatementStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';

/** The items a statement line may be about; the server sends at most one, with its description. */
export const LINKED_KINDS = ['bonus', 'promotion', 'invite', 'refund', 'luckydraw'] as const;
export type LinkedKind = (typeof LINKED_KINDS)[number];

/** One line of POST /api/statement (chat-contract "Statement"); amount in baht, createdAt ISO 8601. */
export type StatementEntry = {
  _id: string;
  statementType: StatementType | string;
  status: StatementStatus | string;
  /** WALLET, a bank code, a game code, BONUS... */
  from: string;
  to: string;
  amount: number;
  createdAt: string;
  /** The movement's own id (transferId, withdrawalId...): the receipt's reference; older servers leave it out. */
  reference?: string;
  /** Why staff rejected this deposit (issue 14); only on such lines. */
  note?: string;
} & Partial<Record<LinkedKind, { description: string }>>;

export interface StatementPage {
  total: number;
  statements: StatementEntry[];
}

/** Spec §9: the statement shows 10 a page. */
export const STATEMENT_PAGE_SIZE = 10;

export const statementApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStatements: build.query<StatementPage, { page: number; limit?: number }>({
      query: ({ page, limit = STATEMENT_PAGE_SIZE }) => ({ url: '/api/statement', method: 'POST', body: { page, limit } }),
      providesTags: ['Statement'],
      // Spec §8: load failures of statements hide the loader silently.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetStatementsQuery } = statementApi;
