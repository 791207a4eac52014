import { playLimitsApi, type LimitKind, type LimitsAnswer, type RestrictionKind } from '../../core/playLimits';
import { TAKE_RESTRICTION_ENDPOINT } from './restrictionFlow';

/** One line of the audit trail (GET /api/limits/history): newest first, 10 a page. */
export interface LimitsHistoryItem {
  id: number;
  action: string;
  detail: Record<string, unknown>;
  createdAt: string;
}

export interface LimitsHistoryPage {
  items: LimitsHistoryItem[];
  page: number;
  totalPages: number;
}

/**
 * The limits page's calls (issue 15). GET /api/limits itself is app-wide (app/playLimits.ts: the home page and
 * the layout read it too); it is re-exported here as `getLimits`. Every change invalidates 'Limits': the limits
 * and the audit trail reload (the answer's GET shape is not needed then). The page shows refusals itself
 * (translated, next to the form that was sent), so the mutations are silent.
 */
export const limitsApi = playLimitsApi.injectEndpoints({
  endpoints: (build) => ({
    setLimit: build.mutation<LimitsAnswer, { kind: LimitKind; value: number | null }>({
      query: (body) => ({ url: '/api/limits', method: 'PUT', body }),
      invalidatesTags: ['Limits'],
      extraOptions: { silent: true },
    }),
    setReality: build.mutation<LimitsAnswer, { minutes: number }>({
      query: (body) => ({ url: '/api/limits/reality', method: 'PUT', body }),
      invalidatesTags: ['Limits'],
      extraOptions: { silent: true },
    }),
    [TAKE_RESTRICTION_ENDPOINT]: build.mutation<LimitsAnswer, { kind: RestrictionKind; period: string }>({
      query: ({ kind, period }) => ({ url: '/api/limits/restriction', method: 'POST', body: { kind, period, confirm: true } }),
      // Every screen that offers play reads the restriction from GET /api/limits: reload it, and the wallet.
      invalidatesTags: ['Limits', 'Wallet'],
      extraOptions: { silent: true },
    }),
    getLimitsHistory: build.query<LimitsHistoryPage, { page: number }>({
      query: ({ page }) => ({ url: '/api/limits/history', params: { page } }),
      providesTags: ['Limits'],
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetLimitsQuery, useSetLimitMutation, useSetRealityMutation, useTakeRestrictionMutation, useGetLimitsHistoryQuery } = limitsApi;
export const getLimits = limitsApi.endpoints.getLimits;
