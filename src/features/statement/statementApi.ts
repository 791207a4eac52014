import { api } from '../../core/api';
import type { Locale } from '../../lib/locale';

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
  /** The short reference a player reads, `D-2612-4821` (issue 40); older servers leave it out (lineRef derives it). */
  ref?: string;
  /** Why a deposit waits for staff (issue 40): AMOUNT_MISMATCH, QR_EXPIRED, ..., DEPOSIT_LIMIT, SLIP_NOT_MATCH. */
  reason?: string;
} & Partial<Record<LinkedKind, { description: string }>>;

/** The statement's type filter (POST /api/statement `type`): `bonus` covers a bonus and its end. */
export const STATEMENT_FILTERS = ['deposit', 'withdraw', 'transfer', 'bonus'] as const;
export type StatementFilter = (typeof STATEMENT_FILTERS)[number];

/** GET /api/lookup/banks?lang=: the banks' names in Thai and English, and `name` in the language asked for. */
interface BankName {
  code: string;
  nameTH: string;
  nameEN: string;
  name?: string;
}

/** GET /api/bonus: the bonuses with their names per language (only what the statement reads of them). */
interface BonusName {
  code: string;
  name: { th: string; la: string; en: string };
}

export interface StatementPage {
  total: number;
  statements: StatementEntry[];
}

/** Spec §9: the statement shows 10 a page. */
export const STATEMENT_PAGE_SIZE = 10;

export const statementApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStatements: build.query<StatementPage, { page: number; limit?: number; type?: StatementFilter }>({
      query: ({ page, limit = STATEMENT_PAGE_SIZE, type }) => ({ url: '/api/statement', method: 'POST', body: { page, limit, ...(type ? { type } : {}) } }),
      providesTags: ['Statement'],
      // Spec §8: load failures of statements hide the loader silently.
      extraOptions: { silent: true },
    }),
    /** Names for the statement's bank codes (issue 40); a failure leaves the codes, quietly. */
    getStatementBankNames: build.query<BankName[], Locale>({
      query: (lang) => `/api/lookup/banks?lang=${lang}`,
      providesTags: ['Lookup'],
      extraOptions: { silent: true },
    }),
    /** Names for the statement's bonus codes (issue 40); a failure leaves the codes, quietly. */
    getStatementBonusNames: build.query<{ bonuses: BonusName[] }, void>({
      query: () => '/api/bonus',
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetStatementsQuery, useGetStatementBankNamesQuery, useGetStatementBonusNamesQuery } = statementApi;
