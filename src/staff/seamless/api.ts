/**
 * The seamless wallet's back-office routes (issue 42, docs/seamless-wallet.md "Back office"): a player's rounds
 * (every role) and the reconciliation report (payments and admin). Amounts in baht (kip), 2 decimals.
 */
import { staffApi } from '../staffApi';

export type RoundState = 'open' | 'closed' | 'rolled_back' | 'refused';

export interface SeamlessTransaction {
  uuid: string;
  kind: 'bet' | 'win' | 'rollback';
  amount: number;
  /** REFUSED: answered with an error, no money moved. */
  status: 'OK' | 'ROLLED_BACK' | 'REFUSED';
  /** A rollback's target transaction id. */
  reference: string | null;
  createdAt: string;
}

export interface SeamlessRound {
  gameCode: string;
  gameName: string;
  aggregator: string;
  roundId: string;
  currency: string;
  status: RoundState;
  bets: number;
  wins: number;
  rollbacks: number;
  /** The player's result: wins + rollbacks - bets. */
  net: number;
  firstAt: string;
  lastAt: string;
  transactions: SeamlessTransaction[];
}

export interface SeamlessRoundsPage {
  rounds: SeamlessRound[];
  /** The cursor of the next (older) page; null at the first round. */
  next: string | null;
}

export interface SeamlessReportRow {
  day: string;
  gameCode: string;
  gameName: string;
  currency: string;
  rounds: number;
  bets: { count: number; amount: number };
  wins: { count: number; amount: number };
  rollbacks: { count: number; amount: number };
  /** The house result: bets - wins - rollbacks. */
  net: number;
  /** The day's movement of the game's seamless_house accounts in the ledger. */
  ledger: number;
  difference: number;
  mismatch: boolean;
}

export interface SeamlessReport {
  from: string;
  to: string;
  rows: SeamlessReportRow[];
  mismatches: number;
}

export interface ReportRange {
  from: string;
  to: string;
}

export const seamlessApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    /** Newest first, a page at a time; each older page continues from the `next` of the one before. */
    seamlessRounds: build.infiniteQuery<SeamlessRoundsPage, number, string | null>({
      query: ({ queryArg, pageParam }) =>
        `/api/staff/players/${encodeURIComponent(String(queryArg))}/seamless-rounds${pageParam === null ? '' : `?cursor=${encodeURIComponent(pageParam)}`}`,
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.next ?? undefined,
      },
    }),
    /** 400 INVALID_DATE, INVALID_RANGE, RANGE_TOO_LONG for days the server cannot report on. */
    seamlessReport: build.query<SeamlessReport, ReportRange>({
      query: ({ from, to }) => `/api/staff/seamless/report?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    }),
  }),
});

export const { useSeamlessRoundsInfiniteQuery, useSeamlessReportQuery } = seamlessApi;
