import crypto from 'node:crypto';
import type { GiftInspectResult, GiftRedeemer, GiftRedeemResult } from './types';

interface Voucher {
  amountSatang: number;
  ownerName: string;
  ownerMobile: string;
  expiresAt: Date;
  redeemedAt: Date | null;
}

export interface GiftRedeemerSimOptions {
  latencyMs?: number;
  failureRate?: number;
  random?: () => number;
  now?: () => Date;
}

/**
 * Knows the vouchers it issued (the demo bank page issues them), redeems each once, and can be told to
 * be slow or to fail. State is in memory: a restart forgets unredeemed demo vouchers, as a sandbox would.
 */
export class GiftRedeemerSimulator implements GiftRedeemer {
  private readonly vouchers = new Map<string, Voucher>();
  failNext = 0;
  constructor(private readonly opts: GiftRedeemerSimOptions = {}) {}

  private now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }

  /** Creates a voucher and returns its id (the `v` of the gift link). */
  issue(amountSatang: number, opts: { ownerName?: string; ownerMobile?: string; validForMs?: number; voucherId?: string } = {}): string {
    if (!Number.isSafeInteger(amountSatang) || amountSatang <= 0) throw new Error('voucher amount must be positive satang');
    const id = opts.voucherId ?? crypto.randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 18) + crypto.randomBytes(6).toString('hex');
    this.vouchers.set(id, {
      amountSatang,
      ownerName: opts.ownerName ?? 'DEMO SENDER',
      ownerMobile: opts.ownerMobile ?? '0890000000',
      expiresAt: new Date(this.now().getTime() + (opts.validForMs ?? 24 * 3600_000)),
      redeemedAt: null,
    });
    return id;
  }

  /** Latency, forced and random outages: true when this call should fail as unavailable. */
  private async unavailable(): Promise<boolean> {
    if (this.opts.latencyMs) await new Promise((r) => setTimeout(r, this.opts.latencyMs));
    if (this.failNext > 0) {
      this.failNext--;
      return true;
    }
    return (this.opts.failureRate ?? 0) > 0 && (this.opts.random ?? Math.random)() < this.opts.failureRate!;
  }

  async inspect(voucherId: string): Promise<GiftInspectResult> {
    if (await this.unavailable()) return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    const v = this.vouchers.get(voucherId);
    if (!v) return { ok: false, reason: 'VOUCHER_NOT_FOUND' };
    if (v.redeemedAt) return { ok: false, reason: 'VOUCHER_OUT_OF_STOCK' };
    if (v.expiresAt <= this.now()) return { ok: false, reason: 'VOUCHER_EXPIRED' };
    return { ok: true, voucherId, amountSatang: v.amountSatang };
  }

  async redeem(voucherId: string, receiverMobile: string): Promise<GiftRedeemResult> {
    if (await this.unavailable()) return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    const v = this.vouchers.get(voucherId);
    if (!v) return { ok: false, reason: 'VOUCHER_NOT_FOUND' };
    if (v.redeemedAt) return { ok: false, reason: 'VOUCHER_OUT_OF_STOCK' };
    if (v.expiresAt <= this.now()) return { ok: false, reason: 'VOUCHER_EXPIRED' };
    if (v.ownerMobile === receiverMobile) return { ok: false, reason: 'CANNOT_GET_OWN_VOUCHER' };
    v.redeemedAt = this.now();
    return { ok: true, voucherId, amountSatang: v.amountSatang, ownerName: v.ownerName, redeemedAt: v.redeemedAt };
  }
}
