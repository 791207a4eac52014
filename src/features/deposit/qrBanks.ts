/**
 * The banks that take a QR deposit (spec §7): KBANK (PromptPay) and the payment types WW and E2P. On their own, apart
 * from qrRules.ts, because the QR slice sits in the first chunk (the store) and needs only these: the amount reader
 * and the QR rules come with the deposit screen.
 */
export const QR_BANKS = ['KBANK', 'WW', 'E2P'] as const;
export type QrBank = (typeof QR_BANKS)[number];

export function isQrBank(code: string): code is QrBank {
  return (QR_BANKS as readonly string[]).includes(code);
}
