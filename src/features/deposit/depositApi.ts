import { api } from '../../core/api';
import type { Locale } from '../../lib/locale';

/** A bank channel of the deposit lookup (spec §3): PAYMENT for the payment types WW and E2P. */
export interface DepositBank {
  bankCode: string;
  bankType: 'BANK' | 'PAYMENT' | string;
  /** AUTO (credited automatically) or another mode (manual: the player uploads a slip). */
  mode: string;
  /** name: in the language the lookup was asked in (issue 40 item 13); absent from an older server. */
  bank: { nameTH: string; nameEN: string; name?: string };
  bankAccountName: string;
  bankAccountNo: string;
  currency?: string;
}

/** A mobile-wallet channel: mode AUTO or gift (gift-link deposits). */
export interface DepositWallet {
  mode: string;
  walletAccountName: string;
}

export interface DepositLookup {
  banks: DepositBank[];
  wallets: DepositWallet[];
  isManual: boolean;
  /** Baht: the QR minimums the server enforces (the operator's depositRules); absent from an older server. */
  qrMinimums?: { KBANK: number; WW: number; E2P: number };
  /** Baht: the gift-link minimum the server enforces (depositRules.giftMinimum, issue 12). */
  giftMinimum?: number;
  /** About how many minutes an automatic deposit takes to reach the wallet (the deposit setting, issue 12). */
  creditMinutes?: number;
}

/** GET /api/lookup/slip: whether slips are accepted now, the daily closed hours, how old a slip may be. */
export interface SlipLookup {
  isOpen: boolean;
  closeFrom: string | null;
  closeTo: string | null;
  uploadWindowMinutes: number;
}

/** The QR record of spec §3 as docs/deposits.md answers it (errors included). */
export interface QrRecord {
  qrcodeId: string | null;
  hasQrcode: boolean;
  bankCode?: string | null;
  /** Standalone SVG markup; rendered only after sanitizing. */
  qrcode?: string | null;
  payload?: string | null;
  /** A gateway's own QR image (PAYMENT_GATEWAY=opn answers no payload): shown as it is, qrcode and payload null. */
  imageUrl?: string | null;
  amount?: number | null;
  /** Whole seconds left. */
  expireIn?: number;
  message: string;
  /** GET without a live QR: how the player's most recent QR of that bank ended (null: none). */
  last?: LastQr | null;
}

/** How a QR that left the server ended: credited, past its time, cancelled (here or elsewhere), or paid with another amount. */
export type QrOutcome = 'PAID' | 'EXPIRED' | 'CANCELLED' | 'REVIEW';

/** Why money waits for staff (issue 40): the server's review kinds, DEPOSIT_LIMIT for a held deposit. */
export type ReviewKind = 'AMOUNT_MISMATCH' | 'QR_EXPIRED' | 'QR_CANCELLED' | 'QR_ALREADY_PAID' | 'DEPOSIT_LIMIT' | 'SLIP_NOT_MATCH' | string;

/** Money of a QR sent to staff: their decision, why it went to them, what arrived (baht), the statement line's reference. */
export interface QrReviewNotice {
  status: 'OPEN' | 'APPROVED' | 'REJECTED';
  kind: ReviewKind;
  amount: number;
  ref: string;
}

export interface LastQr {
  qrcodeId: string;
  status: QrOutcome;
  /** The QR's money under review, when some went to staff (an older server leaves it out). */
  review?: QrReviewNotice;
}

export type SlipStatus = 'SUCCESS' | 'FAILED' | 'IN_PROGRESS';

export interface Slip {
  id: string;
  createdAt: string;
  amount: number;
  status: SlipStatus | string;
  /** The reason code (spec §8 slip reasons) when refused. */
  note: string | null;
  link: string | null;
  reference: string | null;
}

export interface SlipUploadAnswer {
  message: string;
  slip: Slip;
}

export interface SlipPage {
  total: number;
  slips: Slip[];
}

export interface GiftLinkAnswer {
  status: string;
  amount: number;
  message: string;
}

/** Spec §9: the slip table shows 10 a page, from page 1. */
export const SLIP_PAGE_SIZE = 10;

export const depositApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The argument is the player's locale: names and account names come in that language (issue 40 item 13). */
    getDepositLookup: build.query<DepositLookup, Locale>({
      query: (lang) => `/api/lookup/deposit?lang=${lang}`,
      providesTags: ['Lookup'],
      // Spec §8: failures of the deposit list are swallowed; the modal says it has nothing to show.
      extraOptions: { silent: true },
    }),
    getSlipLookup: build.query<SlipLookup, void>({
      query: () => '/api/lookup/slip',
      providesTags: ['Lookup'],
      extraOptions: { silent: true },
    }),
    /** The live QR of one bank; the QR machine starts these itself and matches the answers by requestId. */
    getQr: build.query<QrRecord, string>({
      query: (bankCode) => `/api/qrcode/${encodeURIComponent(bankCode)}`,
      // A failed state check (or poll) leaves the QR as it was; no toast every few seconds.
      extraOptions: { silent: true },
    }),
    createQr: build.mutation<QrRecord, { bankCode: string; amount: number }>({
      query: ({ bankCode, amount }) => ({ url: `/api/qrcode/${encodeURIComponent(bankCode)}`, method: 'POST', body: { amount } }),
      // Spec §8: hasQrcode false shows the server's message as a red toast; the QR machine shows it (once).
      extraOptions: { silent: true },
    }),
    /** DELETE with the QR's id in the bank code's place (spec §7); the bank tells the QR machine which one. */
    cancelQr: build.mutation<QrRecord, { bankCode: string; qrcodeId: string }>({
      query: ({ qrcodeId }) => ({ url: `/api/qrcode/${encodeURIComponent(qrcodeId)}`, method: 'DELETE' }),
    }),
    uploadSlip: build.mutation<SlipUploadAnswer, File>({
      query: (file) => {
        const body = new FormData();
        body.append('file', file, file.name || 'slip');
        return { url: '/api/wallet/slip', method: 'POST', body };
      },
      // The result (credited or the reason) is shown in the form, in the player's language.
      extraOptions: { upload: true, silent: true },
      // A refused slip is recorded too, so the history changes either way.
      invalidatesTags: (result) => (result ? ['Slip', 'Wallet', 'Statement'] : ['Slip']),
    }),
    getSlips: build.query<SlipPage, { page: number; limit?: number }>({
      query: ({ page, limit = SLIP_PAGE_SIZE }) => ({ url: '/api/statement/slip', method: 'POST', body: { page, limit } }),
      providesTags: ['Slip'],
      // Spec §8: load failures of slips hide the loader silently.
      extraOptions: { silent: true },
    }),
    getSlipImageUrl: build.query<{ url: string }, string>({
      query: (reference) => `/api/statement/slip/reference/${encodeURIComponent(reference)}`,
    }),
    sendGiftLink: build.mutation<GiftLinkAnswer, { link: string }>({
      query: (body) => ({ url: '/api/wallet/truelink', method: 'POST', body }),
      // Refusals are shown under the field.
      extraOptions: { silent: true },
      invalidatesTags: (result) => (result ? ['Wallet', 'Statement'] : []),
    }),
  }),
});

export const {
  useGetDepositLookupQuery,
  useGetSlipLookupQuery,
  useCreateQrMutation,
  useCancelQrMutation,
  useUploadSlipMutation,
  useGetSlipsQuery,
  useLazyGetSlipImageUrlQuery,
  useSendGiftLinkMutation,
} = depositApi;
