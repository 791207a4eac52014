import QRCode from 'qrcode';
import { anyId } from 'promptparse/generate';
import { formatSatang } from '../../../ledger/money';

/**
 * The KBANK QR: a PromptPay AnyID (EMVCo tag 29) payload for the operator's PromptPay id with the
 * amount (tag 54) and a CRC (tag 63), as every Thai banking app scans it.
 */
export type PromptPayIdType = 'MSISDN' | 'NATID' | 'EWALLETID';

/** Demo default: a phone-number PromptPay id (not a real account). */
export const DEMO_PROMPTPAY_ID = '0812345678';

/** Classifies an operator PromptPay id: 10-digit phone, 13-digit national/tax id, 15-digit e-wallet id. */
export function promptPayIdType(id: string): PromptPayIdType | null {
  const digits = id.replace(/[\s-]/g, '');
  if (/^0\d{9}$/.test(digits)) return 'MSISDN';
  if (/^\d{13}$/.test(digits)) return 'NATID';
  if (/^\d{15}$/.test(digits)) return 'EWALLETID';
  return null;
}

export function normalizePromptPayId(id: string): string {
  const digits = id.replace(/[\s-]/g, '');
  if (!promptPayIdType(digits)) throw new Error(`PROMPTPAY_ID must be a 10-digit phone, 13-digit tax id or 15-digit e-wallet id, got "${id}"`);
  return digits;
}

/** The EMVCo payload for paying amountSatang (> 0) to the PromptPay id. */
export function promptPayPayload(promptPayId: string, amountSatang: number): string {
  if (!Number.isSafeInteger(amountSatang) || amountSatang <= 0) throw new Error('amount must be a positive whole number of satang');
  const target = normalizePromptPayId(promptPayId);
  const type = promptPayIdType(target)!;
  const payload = anyId({ type, target, amount: amountSatang / 100 });
  // promptparse writes tag 54 with toFixed(2); n/100 is the double nearest n hundredths, so this is exact,
  // and the check below makes sure no amount ever leaves with a rounded total.
  if (!payload.includes(`54${String(formatSatang(amountSatang).length).padStart(2, '0')}${formatSatang(amountSatang)}`)) {
    throw new Error('PromptPay amount did not encode exactly');
  }
  return payload;
}

/** Renders any QR payload as standalone SVG markup (what the QR record's `qrcode` field carries). */
export function qrSvg(payload: string): Promise<string> {
  return QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } });
}
