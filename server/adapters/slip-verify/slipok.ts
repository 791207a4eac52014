import type { ProviderCall } from '../../lib/request-context';
import { adapterClient, bahtToSatang, type AdapterHttpSettings, type HttpClient, type LogSink } from '../http';
import { PROMPTPAY_PROXY_TYPES, type SlipQuery, type SlipVerifier, type SlipVerifyFailure, type SlipVerifyResult, type VerifiedTransfer } from './types';

/**
 * SlipOK's check-slip API (docs/providers/slipok.md): `POST {base}/<branchId>` with header `x-authorization: <key>`
 * and the JSON body `{data: <mini-QR text>}`; the answer is `{success: true, data: {...}}` or
 * `{success: false, code, message, data?}`. Neither `log` nor `amount` is sent: our own reference claim decides
 * duplicates and our receiver check the receiver (with `log: true` SlipOK would refuse a repeat with 1012, i.e.
 * refuse the slip's owner after another player's NOT_MATCH upload).
 */
export const SLIPOK_BASE_URL = 'https://api.slipok.com/api/line/apikey';

export interface SlipOkOptions extends AdapterHttpSettings {
  apiKey: string;
  branchId: string;
}

/** Personal data in SlipOK's bodies: names, and the (already masked) account and proxy values to their last 4 digits. */
export const SLIPOK_MASK = { displayName: 'name', name: 'name', value: 'account' } as const;

interface Party {
  displayName?: string;
  name?: string;
  proxy?: { type?: string | null; value?: string | null } | null;
  account?: { type?: string | null; value?: string | null } | null;
}
interface SlipData {
  success?: unknown;
  transRef?: string;
  sendingBank?: string;
  receivingBank?: string;
  transTimestamp?: string;
  amount?: unknown;
  sender?: Party;
  receiver?: Party;
}

/**
 * Each documented code (SlipOK's error codes 1000-1014) to our reason. 1012-1014 answer options we never send;
 * when they come with the slip's data, the data is still the bank's answer and our own checks decide.
 */
export const SLIPOK_ERRORS: Record<string, { reason: SlipVerifyFailure; operator?: true; withData?: true }> = {
  '1000': { reason: 'SERVICE_UNAVAILABLE', operator: true }, // no data, files or url: our request was wrong
  '1001': { reason: 'SERVICE_UNAVAILABLE', operator: true }, // branch not found: SLIPOK_BRANCH_ID
  '1002': { reason: 'SERVICE_UNAVAILABLE', operator: true }, // x-authorization wrong: SLIPOK_API_KEY
  '1003': { reason: 'SERVICE_UNAVAILABLE', operator: true }, // package expired
  '1004': { reason: 'SERVICE_UNAVAILABLE', operator: true }, // over quota
  '1005': { reason: 'TRANSACTION_NOT_FOUND' }, // not an image file (file uploads only)
  '1006': { reason: 'TRANSACTION_NOT_FOUND' }, // invalid image (file uploads only)
  '1007': { reason: 'TRANSACTION_NOT_FOUND' }, // no QR in the image (file uploads only)
  '1008': { reason: 'TRANSACTION_NOT_FOUND' }, // not a payment-check QR
  '1009': { reason: 'SERVICE_UNAVAILABLE' }, // bank data temporarily unavailable, try again in 15 minutes
  '1010': { reason: 'SERVICE_UNAVAILABLE' }, // this bank's slips are verifiable only some minutes after the transfer
  '1011': { reason: 'TRANSACTION_NOT_FOUND' }, // QR expired or no such transaction
  '1012': { reason: 'TRANSACTION_NOT_FOUND', withData: true }, // repeated slip (log: true only)
  '1013': { reason: 'TRANSACTION_NOT_FOUND', withData: true }, // amount differs (amount only)
  '1014': { reason: 'TRANSACTION_NOT_FOUND', withData: true }, // receiver is not the shop's account (log: true only)
};

export class SlipOkVerifier implements SlipVerifier {
  readonly http: HttpClient;
  private readonly log?: LogSink;

  constructor(private readonly opts: SlipOkOptions) {
    this.log = opts.log;
    this.http = adapterClient('slipok', SLIPOK_BASE_URL, opts, { mask: SLIPOK_MASK, secrets: [opts.apiKey] });
  }

  async verify(query: SlipQuery, call?: ProviderCall): Promise<SlipVerifyResult> {
    if (!query.payload) {
      this.log?.error({ provider: 'slipok', reqId: call?.requestId }, 'slip verify without the mini-QR payload: SlipOK verifies by its data');
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    }
    let body: { success?: unknown; code?: unknown; message?: unknown; data?: SlipData } | null;
    let status: number;
    try {
      const answer = await this.http.request({
        operation: 'verify',
        method: 'POST',
        path: `/${encodeURIComponent(this.opts.branchId)}`,
        headers: { 'x-authorization': this.opts.apiKey },
        json: { data: query.payload },
        // Without `log` SlipOK stores nothing and checks no repeat: asking twice answers the same (a read).
        idempotent: true,
        call,
      });
      status = answer.status;
      body = answer.body as typeof body;
    } catch {
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    }
    if (body?.success === true && body.data && body.code === undefined) {
      if (body.data.success === false) return { ok: false, reason: 'TRANSACTION_NOT_FOUND' };
      return this.transferOf(body.data, query, call);
    }
    // Codes are numbers in some answers and strings in others (the docs show both): compared as text.
    const code = body?.code === undefined || body?.code === null ? '' : String(body.code);
    const known = SLIPOK_ERRORS[code];
    if (known?.withData && body?.data?.transRef) return this.transferOf(body.data, query, call);
    if (!known || known.operator) {
      this.log?.error({ provider: 'slipok', reqId: call?.requestId, status, code: code || null }, known ? 'SlipOK refused our account: check SLIPOK_API_KEY, SLIPOK_BRANCH_ID, the package and its quota' : 'SlipOK answered something undocumented');
    }
    return { ok: false, reason: known?.reason ?? 'SERVICE_UNAVAILABLE' };
  }

  private transferOf(d: SlipData, query: SlipQuery, call?: ProviderCall): SlipVerifyResult {
    if (d.transRef !== query.transRef) {
      this.log?.warn({ provider: 'slipok', reqId: call?.requestId, asked: query.transRef, answered: d.transRef ?? null }, 'SlipOK answered another transaction reference');
      return { ok: false, reason: 'TRANSACTION_NOT_FOUND' };
    }
    // SlipOK names the sending bank by its 3-digit code, as the mini-QR does: another bank is not this slip's transfer.
    if (d.sendingBank && d.sendingBank !== query.sendingBank) return { ok: false, reason: 'BANK_MISMATCH' };
    const amountSatang = bahtToSatang(d.amount);
    const transferredAt = d.transTimestamp ? new Date(d.transTimestamp) : null;
    if (amountSatang === null || !transferredAt || Number.isNaN(transferredAt.getTime())) {
      this.log?.error({ provider: 'slipok', reqId: call?.requestId, transRef: d.transRef }, 'SlipOK answer without a readable amount or timestamp: not credited');
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    }
    const value = (x?: { value?: string | null } | null) => (x?.value ? x.value : null);
    const proxy = d.receiver?.proxy;
    const transfer: VerifiedTransfer = {
      transRef: d.transRef,
      amountSatang,
      sender: {
        bankCode: d.sendingBank || query.sendingBank,
        accountNo: value(d.sender?.account) ?? value(d.sender?.proxy) ?? '',
        accountName: d.sender?.name || d.sender?.displayName || '',
      },
      receiver: {
        bankCode: d.receivingBank || null,
        accountNo: value(d.receiver?.account),
        promptPayId: proxy?.value && PROMPTPAY_PROXY_TYPES.has(proxy.type ?? '') ? proxy.value : null,
        accountName: d.receiver?.name || d.receiver?.displayName || '',
      },
      transferredAt,
    };
    return { ok: true, transfer };
  }
}
