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
  /** The EMVCo payload we draw; '' when the gateway gives only an image. */
  payload: string;
  expiresAt: Date;
  /** The gateway's own QR image (Opn answers no payload): the player sees this image instead of our drawing. */
  imageUrl?: string;
}

/** A gateway webhook delivery as the gateway's adapter reads it (docs/providers/opn.md "The webhook"). */
export type GatewayWebhook =
  /** Bad or missing signature: nothing was read. */
  | { kind: 'forged' }
  /** Signed, but not a completed payment we act on (another event, a charge not successful, one the gateway does not know). */
  | { kind: 'ignored'; outcome: 'IGNORED' | 'NOT_PAID' | 'UNKNOWN_CHARGE' }
  /** The gateway could not be asked: not applied, the gateway should deliver again. */
  | { kind: 'unavailable' }
  /** Paid, as the gateway's own answer to our fetch by id says (never the delivery's body). */
  | { kind: 'paid'; paymentId: string; reference: string; amountSatang: number };

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
  /** A gateway with its own webhook: verify the delivery, then fetch the payment from the gateway by id. */
  readWebhook?(raw: Buffer, headers: Record<string, string | string[] | undefined>, call?: ProviderCall): Promise<GatewayWebhook>;
  /**
   * A gateway that can be asked for the payment of one of our references (the poll for a webhook that never arrived,
   * server/plugins/deposits/gateway-poll.ts): what readWebhook answers for that payment; never `forged`.
   */
  paymentOf?(reference: string, call?: ProviderCall): Promise<GatewayWebhook>;
}
