import { bankMasked, looksLikeMiniQr, phoneMasked, startFake, type FakeServer, type FakeTransfer, type SeenRequest } from './fake-server';

/**
 * EasySlip API v1 as its documentation says (docs/providers/easyslip.md; developer.easyslip.com/api/v1):
 * `GET /verify?payload=` with `Authorization: Bearer <key>`, the `{status, data}` envelope, the documented messages
 * with their HTTP statuses, and the documented example answer as data. Accounts come back masked as on the slip.
 */

/** The success example of the "Verify Bank Slip By Payload" page, copied as data. The receiver's name and account
 * are ours from "th": on: the stored copy of the page ended there (docs/providers/easyslip.md). */
export const EASYSLIP_DOC_EXAMPLE = {
  status: 200,
  data: {
    payload: '00000000000000000000000000000000000000000000000000000000000',
    transRef: '68370160657749I376388B35',
    date: '2023-01-01T00:00:00+07:00',
    countryCode: 'TH',
    amount: { amount: 1000, local: { amount: 0, currency: '' } },
    fee: 0,
    ref1: '',
    ref2: '',
    ref3: '',
    sender: {
      bank: { id: '001', name: 'กสิกรไทย', short: 'KBANK' },
      account: { name: { th: 'นาย อีซี่ สลิป', en: 'MR. EASY SLIP' }, bank: { type: 'BANKAC', account: '1234xxxx5678' } },
    },
    receiver: {
      bank: { id: '030', name: 'ธนาคารออมสิน', short: 'GSB' },
      account: { name: { th: 'นาย อีซี่ สลิป', en: 'MR. EASY SLIP' }, bank: { type: 'BANKAC', account: '12xxxx3456' }, proxy: { type: 'EWALLETID', account: '123xxxxxxxx4567' } },
    },
  },
} as const;

/** The documented v1 errors: message -> HTTP status (the body's status is the same). */
export const EASYSLIP_DOC_ERRORS = {
  unauthorized: 401,
  access_denied: 403,
  application_expired: 403,
  application_deactivated: 403,
  quota_exceeded: 403,
  invalid_payload: 400,
  duplicate_slip: 400,
  slip_not_found: 404,
  server_error: 500,
} as const;
export type EasySlipError = keyof typeof EASYSLIP_DOC_ERRORS;

export interface EasySlipFake extends FakeServer {
  apiKey: string;
  /** The provider's answer data by payload (add() renders a FakeTransfer into it). */
  slips: Map<string, unknown>;
  add(payload: string, t: FakeTransfer): void;
  /** The next answers (one per entry) are this documented error instead. */
  /** Back to normal: no queued error, mode ok, requests forgotten (registered slips stay). */
  reset(): void;
  failWith(...errors: EasySlipError[]): void;
}

export function easySlipData(payload: string, t: FakeTransfer) {
  return {
    payload,
    transRef: t.transRef,
    date: t.at,
    countryCode: 'TH',
    amount: { amount: t.amount, local: { amount: 0, currency: '' } },
    fee: 0,
    ref1: '',
    ref2: '',
    ref3: '',
    sender: {
      bank: { id: t.sendingBank, name: t.sender.bankShort, short: t.sender.bankShort },
      account: { name: { th: t.sender.name, en: t.sender.name }, bank: { type: 'BANKAC', account: bankMasked(t.sender.account) } },
    },
    receiver: {
      bank: { id: t.receiver.bankCode, name: t.receiver.bankShort, short: t.receiver.bankShort },
      account: {
        name: { th: t.receiver.name, en: t.receiver.name },
        ...(t.receiver.account ? { bank: { type: 'BANKAC', account: bankMasked(t.receiver.account) } } : {}),
        ...(t.receiver.promptPayId ? { proxy: { type: t.receiver.promptPayId.length === 13 ? 'NATID' : 'MSISDN', account: phoneMasked(t.receiver.promptPayId) } } : {}),
      },
    },
  };
}

export async function startEasySlipFake(apiKey = 'es-test-key-0123456789abcdef'): Promise<EasySlipFake> {
  const slips = new Map<string, unknown>();
  const queued: EasySlipError[] = [];
  const error = (message: EasySlipError) => ({ status: EASYSLIP_DOC_ERRORS[message], body: { status: EASYSLIP_DOC_ERRORS[message], message } });
  const handle = (req: SeenRequest) => {
    if (req.path !== '/verify' || req.method !== 'GET') return { status: 404, body: { status: 404, message: 'not_found' } };
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error('unauthorized');
    const next = queued.shift();
    const payload = req.query.payload ?? '';
    if (next === 'duplicate_slip' && slips.has(payload)) return { status: 400, body: { status: 400, message: 'duplicate_slip', data: slips.get(payload) } };
    if (next) return error(next);
    if (!payload || payload.length > 255) return error('invalid_payload');
    const data = slips.get(payload);
    if (!data) return error(looksLikeMiniQr(payload) || payload === EASYSLIP_DOC_EXAMPLE.data.payload ? 'slip_not_found' : 'invalid_payload');
    return { status: 200, body: { status: 200, data } };
  };
  const server = await startFake(handle, () => error('server_error'));
  slips.set(EASYSLIP_DOC_EXAMPLE.data.payload, EASYSLIP_DOC_EXAMPLE.data);
  return Object.assign(server, {
    apiKey,
    slips,
    add: (payload: string, t: FakeTransfer) => void slips.set(payload, easySlipData(payload, t)),
    reset: () => {
      queued.length = 0;
      server.mode = 'ok';
      server.requests.length = 0;
    },
    failWith: (...errors: EasySlipError[]) => void queued.push(...errors),
  });
}
