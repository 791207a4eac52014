import type { PayoutAck, PayoutAdapter, PayoutRequest, PayoutSettledHandler, PayoutStatus } from './types';

export interface PayoutSimulatorOptions {
  /** Settle each payout this long after it was accepted; null: only settle() settles (demo page, tests). */
  delayMs: number | null;
  /** Chance [0..1] that a payout fails when it settles on its own (the money goes back to the wallet). */
  failureRate: number;
  /** Chance [0..1] that the request itself is refused at once. */
  rejectRate: number;
  random?: () => number;
}

export const PAYOUT_SIM_DEFAULTS: PayoutSimulatorOptions = { delayMs: 5000, failureRate: 0, rejectRate: 0 };

/**
 * A payout gateway that lives in this process: it accepts payouts (once per withdrawal id), and settles them
 * after a delay, or when told to (settle), by calling the settled handler the app gives it, the same path the
 * real gateway's webhook takes.
 */
export class PayoutSimulator implements PayoutAdapter {
  private readonly opts: PayoutSimulatorOptions;
  private readonly open = new Map<string, PayoutRequest>();
  private readonly seen = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** How each accepted payout will end when it settles on its own (decided when accepted, as a bank would). */
  private readonly planned = new Map<string, boolean>();
  /** Payouts the bank has decided (paid or refused), whether or not the app acknowledged the result yet. */
  private readonly decided = new Map<string, boolean>();
  private onSettled: PayoutSettledHandler | null = null;
  private readonly random: () => number;

  constructor(opts: Partial<PayoutSimulatorOptions> = {}) {
    this.opts = { ...PAYOUT_SIM_DEFAULTS, ...opts };
    for (const r of [this.opts.failureRate, this.opts.rejectRate]) if (!(r >= 0 && r <= 1)) throw new RangeError('rates must be between 0 and 1');
    this.random = opts.random ?? Math.random;
  }

  /** The app wires this to settlePayout. */
  setSettledHandler(h: PayoutSettledHandler): void {
    this.onSettled = h;
  }

  async requestPayout(req: PayoutRequest): Promise<PayoutAck> {
    if (this.seen.has(req.withdrawalId)) return { status: 'accepted' };
    if (!Number.isSafeInteger(req.amount) || req.amount <= 0) return { status: 'rejected', reason: 'INVALID_AMOUNT' };
    if (this.opts.rejectRate > 0 && this.random() < this.opts.rejectRate) return { status: 'rejected', reason: 'REJECTED' };
    this.seen.add(req.withdrawalId);
    this.open.set(req.withdrawalId, req);
    this.planned.set(req.withdrawalId, !(this.opts.failureRate > 0 && this.random() < this.opts.failureRate));
    if (this.opts.delayMs !== null) {
      const t = setTimeout(() => {
        this.timers.delete(req.withdrawalId);
        const ok = this.planned.get(req.withdrawalId) ?? true;
        void this.settle(req.withdrawalId, ok).catch(() => undefined);
      }, this.opts.delayMs);
      t.unref();
      this.timers.set(req.withdrawalId, t);
    }
    return { status: 'accepted' };
  }

  /**
   * The bank's view: SUCCEEDED or FAILED once it settled (even when the app has not acknowledged it: a webhook
   * that failed is retried, so our side may still say IN_PROGRESS), PENDING while it waits, UNKNOWN for an id it
   * never accepted.
   */
  async getPayoutStatus(withdrawalId: string): Promise<PayoutStatus> {
    const d = this.decided.get(withdrawalId);
    if (d !== undefined) return d ? 'SUCCEEDED' : 'FAILED';
    return this.open.has(withdrawalId) ? 'PENDING' : 'UNKNOWN';
  }

  /** Payouts accepted and not settled yet. */
  pending(): PayoutRequest[] {
    return [...this.open.values()];
  }

  /** Settles one accepted payout now (the demo bank page, tests). Returns false when it is not open. */
  async settle(withdrawalId: string, succeeded: boolean): Promise<boolean> {
    if (!this.open.has(withdrawalId)) return false;
    const t = this.timers.get(withdrawalId);
    if (t) clearTimeout(t);
    this.timers.delete(withdrawalId);
    this.decided.set(withdrawalId, succeeded);
    try {
      await this.onSettled?.(withdrawalId, succeeded, succeeded ? undefined : 'BANK_REJECTED');
    } catch (e) {
      // Like a gateway whose webhook was not acknowledged: the payout stays open and is reported again
      // (the same outcome) after the delay; delivery is idempotent per withdrawal on our side.
      if (this.opts.delayMs !== null) {
        const retry = setTimeout(() => {
          this.timers.delete(withdrawalId);
          void this.settle(withdrawalId, succeeded).catch(() => undefined);
        }, this.opts.delayMs);
        retry.unref();
        this.timers.set(withdrawalId, retry);
      }
      throw e;
    }
    this.open.delete(withdrawalId);
    return true;
  }

  close(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
