import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';
import { depositApi, type QrRecord, type QrReviewNotice } from './depositApi';
import { isQrBank, QR_BANKS, type QrBank } from './qrBanks';

/**
 * A QR on screen: its id, the server's SVG, the payload it carries (when the server sends it: the SPA draws
 * a PNG of it), its amount and when it stops being payable (ms since epoch).
 */
export interface ShownQr {
  qrcodeId: string;
  svg: string;
  payload?: string;
  /** The gateway's own image when it sends no payload (svg is '' then). */
  imageUrl?: string;
  amount: number;
  expiresAt: number;
}

/** What the player is shown of a QR's money under review: what arrived, why, the reference, and staff's decision so far. */
export interface QrReview {
  kind: string;
  /** Baht that arrived. */
  paid: number;
  /** The statement line's short reference ('' from a server that has none: the QR's id stands in). */
  ref: string;
  decision: 'OPEN' | 'REJECTED';
}

/**
 * One bank's QR lifecycle (spec §2, §4): none -> creating -> shown (mm:ss countdown) -> expired at 00:00,
 * cancelled (DELETE), or, when a check finds it gone, what the server says became of it (`last`): paid (the
 * webhook credited it), cancelled (elsewhere), expired, or review (money arrived that staff check: another amount,
 * after expiry or cancel, over a limit). A review is also reached from expired or cancelled (paid late) and from
 * none (the modal opened again, e.g. after a reload); staff's approval turns it into paid, a rejection stays review
 * with that decision. expired, cancelled, paid and review show the amount form again, with a note of what happened.
 */
export type QrMachine =
  | { status: 'none' }
  | { status: 'creating'; requestId: string; amount: number }
  | { status: 'shown'; qr: ShownQr }
  | { status: 'cancelling'; requestId: string; qr: ShownQr }
  | { status: 'expired'; qrcodeId: string }
  | { status: 'cancelled'; qrcodeId: string }
  | { status: 'paid'; qrcodeId: string; amount: number }
  | { status: 'review'; qrcodeId: string; amount: number; review?: QrReview };

export type QrStatus = QrMachine['status'];

/**
 * A bank's machine plus its state check: `loadId` is the request whose answer may still apply (answers of
 * any other request are ignored), `stale` asks for a fresh check (on open, and after another bank's create).
 */
export interface BankQrState {
  machine: QrMachine;
  loadId: string | null;
  stale: boolean;
}

export type QrDepositState = Record<QrBank, BankQrState>;

/**
 * Only when the server tells no outcome for the shown QR (an older server, or a newer QR of that bank came
 * and went meanwhile): a QR that disappears this close to its end is taken as expired, before it as paid;
 * the server's clock may run a little ahead of the countdown here.
 */
export const PAID_MARGIN_MS = 2000;

export function initialQrDepositState(): QrDepositState {
  return Object.fromEntries(QR_BANKS.map((bank) => [bank, { machine: { status: 'none' }, loadId: null, stale: true }])) as QrDepositState;
}

/** The QR a server answer carries, if it carries a payable one. */
export function shownQrFrom(record: QrRecord, now: number): ShownQr | null {
  const expireIn = record.expireIn ?? 0;
  const imageUrl = !record.qrcode && record.imageUrl && /^https?:\/\//.test(record.imageUrl) ? record.imageUrl : null;
  if (!record.hasQrcode || !record.qrcodeId || !(record.qrcode || imageUrl) || expireIn <= 0) return null;
  return {
    qrcodeId: record.qrcodeId,
    svg: record.qrcode ?? '',
    ...(record.payload ? { payload: record.payload } : {}),
    ...(imageUrl ? { imageUrl } : {}),
    amount: Number(record.amount ?? 0),
    expiresAt: now + expireIn * 1000,
  };
}

/** States in which a new QR may be asked for (and the form is shown). */
export const REST_STATUSES: ReadonlySet<QrStatus> = new Set(['none', 'expired', 'cancelled', 'paid', 'review']);
/** States whose own request decides the next state; state checks wait. */
export const BUSY_STATUSES: ReadonlySet<QrStatus> = new Set(['creating', 'cancelling']);


const reviewOf = (notice: QrReviewNotice): QrReview => ({ kind: notice.kind, paid: notice.amount, ref: notice.ref, decision: notice.status === 'REJECTED' ? 'REJECTED' : 'OPEN' });

/**
 * What a review the server tells for a QR makes of a machine at rest (issue 40): an open review shows (from none,
 * or from this QR's expired or cancelled); an approval of the review shown is paid, a rejection updates it.
 * Anything else (another QR's review, a decided review never shown) leaves the machine as it is.
 */
function afterReview(machine: QrMachine, record: QrRecord): QrMachine {
  const last = record.last;
  const notice = last?.review;
  if (!last || !notice) return machine;
  const review = reviewOf(notice);
  const qrcodeId = last.qrcodeId;
  if (machine.status === 'review') {
    if (machine.qrcodeId !== qrcodeId) return machine;
    if (notice.status === 'APPROVED') return { status: 'paid', qrcodeId, amount: notice.amount };
    return { ...machine, review };
  }
  if (notice.status !== 'OPEN') return machine;
  if (machine.status === 'none') return { status: 'review', qrcodeId, amount: notice.amount, review };
  if ((machine.status === 'expired' || machine.status === 'cancelled') && machine.qrcodeId === qrcodeId) return { status: 'review', qrcodeId, amount: notice.amount, review };
  return machine;
}

function afterCheck(machine: QrMachine, record: QrRecord, now: number): QrMachine {
  const live = shownQrFrom(record, now);
  if (machine.status === 'shown') {
    if (live) return { status: 'shown', qr: live.qrcodeId === machine.qr.qrcodeId ? { ...machine.qr, expiresAt: live.expiresAt } : live };
    const { qrcodeId, amount } = machine.qr;
    // Gone from the server: it says how this QR ended when it was the bank's most recent one.
    const outcome = record.last?.qrcodeId === qrcodeId ? record.last.status : null;
    const notice = outcome ? record.last?.review : undefined;
    if (outcome === 'PAID') return { status: 'paid', qrcodeId, amount };
    // Paid after the end of a QR still on screen here (expired or cancelled meanwhile): its money is under review.
    if (notice?.status === 'OPEN' || outcome === 'REVIEW') return { status: 'review', qrcodeId, amount, ...(notice ? { review: reviewOf(notice) } : {}) };
    if (outcome === 'CANCELLED') return { status: 'cancelled', qrcodeId };
    if (outcome === 'EXPIRED') return { status: 'expired', qrcodeId };
    // No outcome for it: at its end it expired; before, the payment webhook took it (paid).
    return now >= machine.qr.expiresAt - PAID_MARGIN_MS
      ? { status: 'expired', qrcodeId: machine.qr.qrcodeId }
      : { status: 'paid', qrcodeId: machine.qr.qrcodeId, amount: machine.qr.amount };
  }
  return live ? { status: 'shown', qr: live } : afterReview(machine, record);
}

/** The player's live QR at another bank: the server cancels it when a QR is created at `bank` (one live QR per player). */
export interface QrToReplace {
  bank: QrBank;
  qr: ShownQr;
}

/**
 * Whether creating a QR at `bank` must be confirmed first: it must when another bank shows a QR that is still
 * payable at `now` (the server would cancel it). The same bank's QR, a QR being cancelled, an expired one or
 * none: no confirmation (null).
 */
export function qrToReplace(state: QrDepositState, bank: QrBank, now: number): QrToReplace | null {
  for (const code of QR_BANKS) {
    if (code === bank) continue;
    const machine = state[code].machine;
    if (machine.status === 'shown' && machine.qr.expiresAt > now) return { bank: code, qr: machine.qr };
  }
  return null;
}

const isQrBankArg = (value: unknown): value is QrBank => typeof value === 'string' && isQrBank(value);

/**
 * Events are the deposit endpoints' own request lifecycle (pending / fulfilled / rejected, each with the
 * requestId that started it) plus the clock and the modal opening. An event the machine does not expect
 * in its current state, or an answer to another request, leaves the state unchanged.
 */
const qrSlice = createSlice({
  name: 'qrDeposit',
  initialState: initialQrDepositState,
  reducers: {
    /** The deposit modal opened: every bank checks its QR again. */
    qrDepositOpened(state) {
      for (const code of QR_BANKS) if (!BUSY_STATUSES.has(state[code].machine.status)) state[code].stale = true;
    },
    /** Every second while a QR is shown: at 00:00 it is hidden. */
    qrClockTicked(state, { payload }: PayloadAction<{ now: number }>) {
      for (const code of QR_BANKS) {
        const bank = state[code];
        if (bank.machine.status === 'shown' && payload.now >= bank.machine.qr.expiresAt) {
          bank.machine = { status: 'expired', qrcodeId: bank.machine.qr.qrcodeId };
        }
      }
    },
  },
  extraReducers: (builder) => {
    builder
      // Another player's QRs must never show: the machines end with the session.
      .addCase(sessionEnded, () => initialQrDepositState())
      // State checks (GET): on open, after another bank's create, and the poll while a QR is shown.
      .addMatcher(depositApi.endpoints.getQr.matchPending, (state, action) => {
        const code = action.meta.arg.originalArgs;
        if (!isQrBankArg(code)) return;
        const bank = state[code];
        if (BUSY_STATUSES.has(bank.machine.status)) return;
        bank.loadId = action.meta.requestId;
        bank.stale = false;
      })
      .addMatcher(depositApi.endpoints.getQr.matchFulfilled, (state, action) => {
        const code = action.meta.arg.originalArgs;
        if (!isQrBankArg(code)) return;
        const bank = state[code];
        if (bank.loadId !== action.meta.requestId) return;
        bank.loadId = null;
        bank.machine = afterCheck(bank.machine, action.payload, action.meta.fulfilledTimeStamp);
      })
      .addMatcher(depositApi.endpoints.getQr.matchRejected, (state, action) => {
        const code = action.meta.arg.originalArgs;
        if (!isQrBankArg(code)) return;
        if (state[code].loadId === action.meta.requestId) state[code].loadId = null;
      })
      .addMatcher(depositApi.endpoints.createQr.matchPending, (state, action) => {
        const { bankCode, amount } = action.meta.arg.originalArgs;
        if (!isQrBankArg(bankCode)) return;
        const bank = state[bankCode];
        if (!REST_STATUSES.has(bank.machine.status)) return;
        bank.machine = { status: 'creating', requestId: action.meta.requestId, amount };
        bank.loadId = null;
        bank.stale = false;
      })
      .addMatcher(depositApi.endpoints.createQr.matchFulfilled, (state, action) => {
        const { bankCode } = action.meta.arg.originalArgs;
        if (!isQrBankArg(bankCode)) return;
        const bank = state[bankCode];
        if (bank.machine.status !== 'creating' || bank.machine.requestId !== action.meta.requestId) return;
        const live = shownQrFrom(action.payload, action.meta.fulfilledTimeStamp);
        bank.machine = live ? { status: 'shown', qr: live } : { status: 'none' };
        if (!live) return;
        // One live QR per player: the server ended any other bank's QR, so the others check again.
        for (const code of QR_BANKS) {
          if (code === bankCode) continue;
          const other = state[code];
          if (BUSY_STATUSES.has(other.machine.status)) continue;
          if (other.machine.status === 'shown') other.machine = { status: 'none' };
          other.loadId = null;
          other.stale = true;
        }
      })
      .addMatcher(depositApi.endpoints.createQr.matchRejected, (state, action) => {
        const { bankCode } = action.meta.arg.originalArgs;
        if (!isQrBankArg(bankCode)) return;
        const bank = state[bankCode];
        if (bank.machine.status === 'creating' && bank.machine.requestId === action.meta.requestId) bank.machine = { status: 'none' };
      })
      .addMatcher(depositApi.endpoints.cancelQr.matchPending, (state, action) => {
        const { bankCode, qrcodeId } = action.meta.arg.originalArgs;
        if (!isQrBankArg(bankCode)) return;
        const bank = state[bankCode];
        if (bank.machine.status !== 'shown' || bank.machine.qr.qrcodeId !== qrcodeId) return;
        bank.machine = { status: 'cancelling', requestId: action.meta.requestId, qr: bank.machine.qr };
        bank.loadId = null;
      })
      .addMatcher(depositApi.endpoints.cancelQr.matchFulfilled, (state, action) => {
        const { bankCode } = action.meta.arg.originalArgs;
        if (!isQrBankArg(bankCode)) return;
        const bank = state[bankCode];
        if (bank.machine.status !== 'cancelling' || bank.machine.requestId !== action.meta.requestId) return;
        bank.machine = { status: 'cancelled', qrcodeId: bank.machine.qr.qrcodeId };
      })
      // Refused (e.g. paid meanwhile: 409): the QR shows again and the bank checks what it became.
      .addMatcher(depositApi.endpoints.cancelQr.matchRejected, (state, action) => {
        const { bankCode } = action.meta.arg.originalArgs;
        if (!isQrBankArg(bankCode)) return;
        const bank = state[bankCode];
        if (bank.machine.status !== 'cancelling' || bank.machine.requestId !== action.meta.requestId) return;
        bank.machine = { status: 'shown', qr: bank.machine.qr };
        bank.stale = true;
      });
  },
  selectors: {
    selectQrDeposit: (state) => state,
    /** True while any bank shows a QR: the countdown ticks and the server is polled. */
    selectAnyQrShown: (state) => QR_BANKS.some((bank) => state[bank].machine.status === 'shown'),
  },
});

export const { qrDepositOpened, qrClockTicked } = qrSlice.actions;
export const { selectQrDeposit, selectAnyQrShown } = qrSlice.selectors;
export const qrDepositReducer = qrSlice.reducer;
export default qrSlice;
