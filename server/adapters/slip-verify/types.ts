import type { ProviderCall } from '../../lib/request-context';

/**
 * Slip verification (the banks' "slip verify" inquiry): given what the slip's mini-QR carries (sending
 * bank and transaction reference), the bank tells what really happened: amount, sender, receiver, time.
 */
export interface SlipQuery {
  /** 3-digit Thai bank code from the mini-QR. */
  sendingBank: string;
  transRef: string;
  /**
   * The mini-QR's whole text, as read from the slip (the real services, EasySlip and SlipOK, verify by it:
   * docs/providers/). The simulator looks the transfer up by transRef and does not need it.
   */
  payload?: string;
}

export interface VerifiedTransfer {
  transRef: string;
  amountSatang: number;
  sender: { bankCode: string; accountNo: string; accountName: string };
  /** The receiving account: a bank account number and/or a PromptPay id. */
  receiver: { bankCode: string | null; accountNo: string | null; promptPayId: string | null; accountName: string };
  transferredAt: Date;
}

/** The verifier's own reasons; the deposit service maps them to the slip codes of spec §8. */
export type SlipVerifyFailure = 'TRANSACTION_NOT_FOUND' | 'BANK_MISMATCH' | 'SERVICE_UNAVAILABLE';

export type SlipVerifyResult = { ok: true; transfer: VerifiedTransfer } | { ok: false; reason: SlipVerifyFailure };

export interface SlipVerifier {
  verify(query: SlipQuery, call?: ProviderCall): Promise<SlipVerifyResult>;
}

/**
 * The proxy types of a real verifier's answer that are PromptPay ids (a phone, a national/tax id, an e-wallet id),
 * so a receiver proxy of one of these is compared with PROMPTPAY_ID; EMAIL and BILLERID are not PromptPay ids of ours.
 */
export const PROMPTPAY_PROXY_TYPES: ReadonlySet<string> = new Set(['MSISDN', 'NATID', 'EWALLETID']);
