import { slipVerify } from 'promptparse/generate';
import { bankMasked, looksLikeMiniQr, phoneMasked, startFake, type FakeServer, type FakeTransfer, type SeenRequest } from './fake-server';

/**
 * SlipOK's check-slip API as its documentation says (docs/providers/slipok.md; slipok.com/api-documentation/):
 * `POST /api/line/apikey/<branchId>` with `x-authorization: <key>` and `{data: <QR text>}`, the `{success, data}`
 * envelope, the documented codes 1000-1014 with their messages, and the documented example as data. Account and
 * proxy values come back masked ("The value is always masked").
 */

/** The example column of the "Check Slip Response" table, as data. amount, receiver's names and values are ours: the
 * stored copy of the table ended at the sender's proxy (docs/providers/slipok.md). */
export const SLIPOK_DOC_EXAMPLE = {
  success: true,
  data: {
    success: true,
    message: '✅',
    language: 'TH',
    receivingBank: '006',
    sendingBank: '004',
    transRef: '010092101507665143',
    transDate: '20200401',
    transTime: '10:15:07',
    transTimestamp: '2020-04-01T03:15:07.000Z',
    sender: { displayName: 'นาย กสิกร ร', name: 'Mr. Kasikorn R', proxy: { type: 'MSISDN', value: 'xxx-xxx-5678' }, account: { type: 'BANKAC', value: 'xxx-x-x1234-x' } },
    receiver: { displayName: 'บริษัท ตัวอย่าง', name: 'EXAMPLE CO', proxy: { type: null, value: null }, account: { type: 'BANKAC', value: 'xxx-x-x9876-x' } },
    amount: 1000,
    paidLocalAmount: 1000,
    paidLocalCurrency: '764',
    countryCode: 'TH',
    transFeeAmount: 0,
    ref1: '',
    ref2: '',
    ref3: '',
    toMerchantId: '',
  },
} as const;
/** The mini-QR text the fake answers SLIPOK_DOC_EXAMPLE for. */
export const SLIPOK_DOC_PAYLOAD = slipVerify({ sendingBank: SLIPOK_DOC_EXAMPLE.data.sendingBank, transRef: SLIPOK_DOC_EXAMPLE.data.transRef });

/** The documented codes and messages (Thai, as SlipOK answers them). */
export const SLIPOK_DOC_ERRORS = {
  1000: 'กรุณาใส่ข้อมูล QR Code ให้ครบใน field data, files หรือ url',
  1001: 'ไม่พบข้อมูลสาขา กรุณาตรวจสอบไอดีสาขา',
  1002: 'Authorization Header ไม่ถูกต้อง',
  1003: 'Package ของคุณหมดอายุแล้ว',
  1004: 'Package ของคุณใช้เกินโควต้ามาแล้ว 400 บาท กรุณาต่อสมาชิกแพ็กเกจ',
  1005: 'ไฟล์ไม่ใช่ไฟล์ภาพ กรุณาอัพโหลดไฟล์เฉพาะนามสกุล .jpg .jpeg .png .jfif หรือ .webp',
  1006: 'รูปภาพไม่ถูกต้อง',
  1007: 'รูปภาพไม่มี QR Code',
  1008: 'QR ดังกล่าวไม่ใช่ QR สำหรับการตรวจสอบการชำระเงิน',
  1009: 'ขออภัยในความไม่สะดวก ขณะนี้ข้อมูลธนาคารเกิดขัดข้องชั่วคราว โปรดตรวจใหม่อีกครั้งใน 15 นาทีถัดไป (ไม่เสียโควต้าสลิป)',
  1010: 'เนื่องจากเป็นสลิปจากธนาคารไทยพาณิชย์ กรุณารอการตรวจสอบสลิปหลังการโอนประมาณ 15 นาที',
  1011: 'QR Code หมดอายุ หรือ ไม่มีรายการอยู่จริง',
  1012: 'สลิปซ้ำ สลิปนี้เคยส่งเข้ามาในระบบเมื่อ 2024-02-14 10:00:00',
  1013: 'ยอดที่ส่งมาไม่ตรงกับยอดสลิป',
  1014: 'บัญชีผู้รับไม่ตรงกับบัญชีหลักของร้าน',
} as const;
export type SlipOkCode = keyof typeof SLIPOK_DOC_ERRORS;

export interface SlipOkFake extends FakeServer {
  apiKey: string;
  branchId: string;
  slips: Map<string, unknown>;
  add(payload: string, t: FakeTransfer): void;
  /** Back to normal: no queued error, mode ok, requests forgotten (registered slips stay). */
  reset(): void;
  failWith(...codes: SlipOkCode[]): void;
}

export function slipOkData(t: FakeTransfer) {
  const at = new Date(t.at);
  const bkk = new Date(at.getTime() + 7 * 3600_000).toISOString(); // the slip's own date and time are Bangkok's
  return {
    success: true,
    message: '✅',
    language: 'TH',
    receivingBank: t.receiver.bankCode,
    sendingBank: t.sendingBank,
    transRef: t.transRef,
    transDate: bkk.slice(0, 10).replace(/-/g, ''),
    transTime: bkk.slice(11, 19),
    transTimestamp: at.toISOString(),
    sender: { displayName: t.sender.name, name: t.sender.name, proxy: { type: null, value: null }, account: { type: 'BANKAC', value: bankMasked(t.sender.account) } },
    receiver: {
      displayName: t.receiver.name,
      name: t.receiver.name,
      proxy: t.receiver.promptPayId ? { type: t.receiver.promptPayId.length === 13 ? 'NATID' : 'MSISDN', value: phoneMasked(t.receiver.promptPayId) } : { type: null, value: null },
      account: t.receiver.account ? { type: 'BANKAC', value: bankMasked(t.receiver.account) } : { type: '', value: '' },
    },
    amount: t.amount,
    paidLocalAmount: t.amount,
    paidLocalCurrency: '764',
    countryCode: 'TH',
    transFeeAmount: 0,
    ref1: '',
    ref2: '',
    ref3: '',
    toMerchantId: '',
  };
}

export async function startSlipOkFake(apiKey = 'SLIPOKTESTKEY0123456789', branchId = '12345'): Promise<SlipOkFake> {
  const slips = new Map<string, unknown>();
  const queued: SlipOkCode[] = [];
  const error = (code: SlipOkCode, status = 400, data?: unknown) => ({ status, body: { success: false, code, message: SLIPOK_DOC_ERRORS[code], ...(data ? { data } : {}) } });
  const handle = (req: SeenRequest) => {
    const m = /^\/api\/line\/apikey\/([^/]+)$/.exec(req.path);
    if (!m || req.method !== 'POST') return { status: 404, body: { success: false, message: 'Not Found' } };
    if (req.headers['x-authorization'] !== apiKey) return error(1002, 401);
    if (m[1] !== branchId) return error(1001, 404);
    const payload = typeof (req.body as { data?: unknown } | null)?.data === 'string' ? (req.body as { data: string }).data : '';
    const next = queued.shift();
    if (next && next >= 1012) return slips.has(payload) ? error(next, 400, slips.get(payload)) : error(1011);
    if (next === 1010) return { status: 400, body: { success: false, code: 1010, message: SLIPOK_DOC_ERRORS[1010], data: { qrcodeData: payload, bankCode: '014', bankName: 'ไทยพาณิชย์', delay: 15 } } };
    if (next) return error(next);
    if (!payload) return error(1000);
    const data = slips.get(payload);
    if (!data) return error(looksLikeMiniQr(payload) ? 1011 : 1008);
    return { status: 200, body: { success: true, data } };
  };
  const server = await startFake(handle, () => ({ status: 500, body: { success: false, message: 'Internal Server Error' } }));
  slips.set(SLIPOK_DOC_PAYLOAD, SLIPOK_DOC_EXAMPLE.data);
  return Object.assign(server, {
    apiKey,
    branchId,
    slips,
    url: `${server.url}/api/line/apikey`,
    add: (payload: string, t: FakeTransfer) => void slips.set(payload, slipOkData(t)),
    reset: () => {
      queued.length = 0;
      server.mode = 'ok';
      server.requests.length = 0;
    },
    failWith: (...codes: SlipOkCode[]) => void queued.push(...codes),
  });
}
