import type { ProviderCall } from '../../lib/request-context';
import { adapterClient, bahtToSatang, type AdapterHttpSettings, type HttpClient, type LogSink } from '../http';
import { PROMPTPAY_PROXY_TYPES, type SlipQuery, type SlipVerifier, type SlipVerifyFailure, type SlipVerifyResult, type VerifiedTransfer } from './types';

/**
 * EasySlip's bank-slip verification, API v1 (docs/providers/easyslip.md): `GET {base}/verify?payload=<mini-QR text>`
 * with `Authorization: Bearer <key>`; the answer is `{status: 200, data: {...}}` or `{status, message: <code>}`.
 * `checkDuplicate` is never sent: our own reference claim decides duplicates (spec §8 SLIP_REFNO_DUPLICATED), and a
 * provider-side duplicate would refuse the slip's owner after another player's NOT_MATCH upload.
 */
export const EASYSLIP_BASE_URL = 'https://developer.easyslip.com/api/v1';

export interface EasySlipOptions extends AdapterHttpSettings {
  apiKey: string;
}

/** Personal data in EasySlip's bodies: account numbers and proxies (PromptPay ids) to their last 4 digits, names. */
export const EASYSLIP_MASK = { account: 'account', name: 'name', th: 'name', en: 'name' } as const;

interface Party {
  bank?: { id?: string; name?: string; short?: string };
  account?: {
    name?: { th?: string; en?: string };
    bank?: { type?: string; account?: string };
    proxy?: { type?: string; account?: string };
  };
}
interface SlipData {
  payload?: string;
  transRef?: string;
  date?: string;
  amount?: { amount?: unknown };
  sender?: Party;
  receiver?: Party;
}

/**
 * Each documented message (v1 "Error Codes") to our reason. Unknown to the bank -> TRANSACTION_NOT_FOUND (the player
 * sees INVALID_SLIP); our key, plan or IP refused -> SERVICE_UNAVAILABLE (UNKNOW_ERROR, "try again later") and an
 * error line for the operator. A message not in this table is SERVICE_UNAVAILABLE too: never a credit.
 */
export const EASYSLIP_ERRORS: Record<string, { reason: SlipVerifyFailure; operator?: true }> = {
  invalid_payload: { reason: 'TRANSACTION_NOT_FOUND' },
  slip_not_found: { reason: 'TRANSACTION_NOT_FOUND' },
  qrcode_not_found: { reason: 'TRANSACTION_NOT_FOUND' },
  invalid_image: { reason: 'TRANSACTION_NOT_FOUND' },
  image_size_too_large: { reason: 'TRANSACTION_NOT_FOUND' },
  duplicate_slip: { reason: 'TRANSACTION_NOT_FOUND' },
  unauthorized: { reason: 'SERVICE_UNAVAILABLE', operator: true },
  access_denied: { reason: 'SERVICE_UNAVAILABLE', operator: true },
  application_expired: { reason: 'SERVICE_UNAVAILABLE', operator: true },
  application_deactivated: { reason: 'SERVICE_UNAVAILABLE', operator: true },
  quota_exceeded: { reason: 'SERVICE_UNAVAILABLE', operator: true },
  server_error: { reason: 'SERVICE_UNAVAILABLE' },
  api_server_error: { reason: 'SERVICE_UNAVAILABLE' },
};

export class EasySlipVerifier implements SlipVerifier {
  readonly http: HttpClient;
  private readonly log?: LogSink;

  constructor(private readonly opts: EasySlipOptions) {
    this.log = opts.log;
    this.http = adapterClient('easyslip', EASYSLIP_BASE_URL, opts, { mask: EASYSLIP_MASK, secrets: [opts.apiKey] });
  }

  async verify(query: SlipQuery, call?: ProviderCall): Promise<SlipVerifyResult> {
    if (!query.payload) {
      this.log?.error({ provider: 'easyslip', reqId: call?.requestId }, 'slip verify without the mini-QR payload: EasySlip verifies by payload');
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    }
    let status: number;
    let body: { status?: unknown; message?: unknown; data?: SlipData } | null;
    try {
      const answer = await this.http.request({
        operation: 'verify',
        method: 'GET',
        path: '/verify',
        query: { payload: query.payload },
        headers: { authorization: `Bearer ${this.opts.apiKey}` },
        idempotent: true, // a read: asking twice changes nothing
        call,
      });
      status = answer.status;
      body = answer.body as typeof body;
    } catch {
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' }; // timeout, 5xx after the retry, circuit open: logged by the client
    }
    if (status === 200 && body?.status === 200 && body.data) return this.transferOf(body.data, query, call);
    const message = typeof body?.message === 'string' ? body.message : '';
    // duplicate_slip comes with the slip's data; we never ask for the check, so its data is still the bank's answer.
    if (message === 'duplicate_slip' && body?.data) return this.transferOf(body.data, query, call);
    const known = EASYSLIP_ERRORS[message];
    if (!known || known.operator) {
      this.log?.error({ provider: 'easyslip', reqId: call?.requestId, status, message: message || null }, known ? 'EasySlip refused our account: check EASYSLIP_API_KEY, the plan and the IP allow-list' : 'EasySlip answered something undocumented');
    }
    return { ok: false, reason: known?.reason ?? 'SERVICE_UNAVAILABLE' };
  }

  private transferOf(d: SlipData, query: SlipQuery, call?: ProviderCall): SlipVerifyResult {
    // The answer must be about this slip: another reference is not this transfer.
    if (d.transRef !== query.transRef) {
      this.log?.warn({ provider: 'easyslip', reqId: call?.requestId, asked: query.transRef, answered: d.transRef ?? null }, 'EasySlip answered another transaction reference');
      return { ok: false, reason: 'TRANSACTION_NOT_FOUND' };
    }
    const amountSatang = bahtToSatang(d.amount?.amount);
    const transferredAt = d.date ? new Date(d.date) : null;
    if (amountSatang === null || !transferredAt || Number.isNaN(transferredAt.getTime())) {
      this.log?.error({ provider: 'easyslip', reqId: call?.requestId, transRef: d.transRef }, 'EasySlip answer without a readable amount or date: not credited');
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    }
    const nameOf = (p?: Party) => p?.account?.name?.en || p?.account?.name?.th || '';
    const bankOf = (p?: Party) => p?.bank?.short || p?.bank?.id || '';
    const proxy = d.receiver?.account?.proxy;
    const transfer: VerifiedTransfer = {
      transRef: d.transRef,
      amountSatang,
      sender: {
        bankCode: bankOf(d.sender),
        accountNo: d.sender?.account?.bank?.account || d.sender?.account?.proxy?.account || '',
        accountName: nameOf(d.sender),
      },
      receiver: {
        bankCode: bankOf(d.receiver) || null,
        accountNo: d.receiver?.account?.bank?.account || null,
        promptPayId: proxy?.account && PROMPTPAY_PROXY_TYPES.has(proxy.type ?? '') ? proxy.account : null,
        accountName: nameOf(d.receiver),
      },
      transferredAt,
    };
    return { ok: true, transfer };
  }
}
