import { api } from '../../core/api';
import type { LocalizedText } from '../../lib/localized';

/** Spec §3 refund check (docs: ../notes/bonus-contract.md). Amounts in baht, rates in percent. */
export interface RefundCheck {
  /** There is something to receive. */
  result: boolean;
  /** A bonus is active: receiving waits until it ends. */
  bonus: boolean;
  /** The operator's refund rules (HTML, sanitized before rendering). */
  info: LocalizedText;
  refundAmount: number;
  refundSuccess: number;
  refundFail: number;
}

/** Spec §3 refund log item. */
export interface RefundLogItem {
  refundAmount: number;
  createdAt: string;
}

export interface RefundLogPage {
  refunds: RefundLogItem[];
  total: number;
}

export interface RefundReceived {
  message: string;
  amount: number;
}

/** Spec §9: the refund list shows 10 a page. */
export const REFUND_PAGE_SIZE = 10;

export const refundApi = api.enhanceEndpoints({ addTagTypes: ['Refund'] }).injectEndpoints({
  endpoints: (build) => ({
    getRefundCheck: build.query<RefundCheck, void>({
      query: () => '/api/refund/check',
      providesTags: ['Refund'],
      // The modal says it could not load, with a retry; no toast on top.
      extraOptions: { silent: true },
    }),
    getRefundLog: build.query<RefundLogPage, { page: number; limit?: number }>({
      query: ({ page, limit = REFUND_PAGE_SIZE }) => ({ url: '/api/refund', method: 'POST', body: { page, limit } }),
      providesTags: ['Refund'],
      // Spec §8: a failed refund list is swallowed and its loader hidden.
      extraOptions: { silent: true },
    }),
    /**
     * GET /api/refund/receive credits the wallet. A refusal is a red toast (spec §8, the base query's default).
     * The check and the log reload here; the wallet reloads when the modal closes with a true flag (spec §4),
     * and with it the active-bonus state (it is provided under the wallet's tag).
     */
    receiveRefund: build.mutation<RefundReceived, void>({
      query: () => '/api/refund/receive',
      invalidatesTags: (result) => (result ? ['Refund', 'Statement', { type: 'Bonus', id: 'LIST' }, { type: 'Bonus', id: 'ACTIVE' }] : []),
    }),
  }),
});

export const { useGetRefundCheckQuery, useGetRefundLogQuery, useReceiveRefundMutation } = refundApi;
