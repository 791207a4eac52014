import crypto from 'node:crypto';
import { trueMoney, billPayment } from 'promptparse/generate';
import { GatewayError, type GatewayQr, type GatewayQrRequest, type PaymentGateway } from './types';

export interface PaymentGatewaySimOptions {
  /** The TrueMoney wallet the WW payload pays (demo number). */
  walletMobile?: string;
  /** The biller id (tax id + suffix) of the E2P bill-payment payload. */
  billerId?: string;
  /** The gateway's own longest QR life; a longer request is shortened. */
  maxLifetimeMs?: number;
  /** 0..1: share of calls that fail with GATEWAY_UNAVAILABLE. */
  failureRate?: number;
  latencyMs?: number;
  random?: () => number;
}

/**
 * Behaves like the gateway: a real TrueMoney (WW) or PromptPay bill-payment (E2P) EMVCo payload that
 * carries our reference, an expiry no later than its own limit, latency and random refusals on demand.
 * Payments are reported by the demo bank page through the signed webhook, like the real gateway does.
 */
export class PaymentGatewaySimulator implements PaymentGateway {
  readonly cancelled = new Set<string>();
  /** Refuse the next n calls (tests). */
  failNext = 0;
  constructor(private readonly opts: PaymentGatewaySimOptions = {}) {}

  async createQr(req: GatewayQrRequest): Promise<GatewayQr> {
    if (this.opts.latencyMs) await new Promise((r) => setTimeout(r, this.opts.latencyMs));
    if (this.failNext > 0) {
      this.failNext--;
      throw new GatewayError('GATEWAY_UNAVAILABLE');
    }
    if ((this.opts.failureRate ?? 0) > 0 && (this.opts.random ?? Math.random)() < this.opts.failureRate!) {
      throw new GatewayError('GATEWAY_UNAVAILABLE');
    }
    if (!Number.isSafeInteger(req.amountSatang) || req.amountSatang <= 0) throw new GatewayError('INVALID_AMOUNT');
    const amount = req.amountSatang / 100;
    // The gateway's own short order number for the reference fields (bill payment refs are at most 20 chars).
    const order = crypto.createHash('sha256').update(req.reference).digest('hex').slice(0, 16).toUpperCase();
    const payload =
      req.channel === 'WW'
        ? trueMoney({ mobileNo: this.opts.walletMobile ?? '0801234567', amount, message: `ORDER ${order}` })
        : billPayment({ billerId: this.opts.billerId ?? '010555012345601', amount, ref1: order, ref2: 'E2P' });
    const max = Date.now() + (this.opts.maxLifetimeMs ?? 15 * 60_000);
    return { payload, expiresAt: new Date(Math.min(req.expiresAt.getTime(), max)) };
  }

  async cancelQr(reference: string): Promise<void> {
    this.cancelled.add(reference);
  }
}
