import type { ProviderCall } from '../../lib/request-context';

/**
 * The payment gateway for the QR deposit channels it runs (WW = TrueMoney Wallet, E2P = the gateway's
 * PromptPay bill payment). We ask it for a QR for one of our QR deposits (reference = our qrcodeId);
 * it answers with its own payload string and the time it stops accepting payment. The payment itself
 * is confirmed later by its signed webhook (server/plugins/deposits/webhook.ts), never by this call.
 */
export type GatewayChannel = 'WW' | 'E2P';

export interface GatewayQrRequest {
  channel: GatewayChannel;
  /** Our qrcodeId; the webhook's `reference` echoes it. */
  reference: string;
  amountSatang: number;
  /** When we stop honouring the QR; the gateway may choose an earlier expiry, never a later one. */
  expiresAt: Date;
}

export interface GatewayQr {
  payload: string;
  expiresAt: Date;
}

export class GatewayError extends Error {
  constructor(public readonly reason: string) {
    super(reason);
    this.name = 'GatewayError';
  }
}

export interface PaymentGateway {
  /** Throws GatewayError when the gateway refuses or cannot be reached. */
  createQr(req: GatewayQrRequest, call?: ProviderCall): Promise<GatewayQr>;
  /** Best effort: tells the gateway a QR was cancelled (a late payment is still refused by our webhook). */
  cancelQr(reference: string, call?: ProviderCall): Promise<void>;
}
