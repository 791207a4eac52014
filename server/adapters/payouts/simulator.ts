import type { PayoutAck, PayoutAdapter, PayoutCancel, PayoutRequest, PayoutSettledHandler, PayoutStatus } from './types';

export interface PayoutSimulatorOptions {
  /** Settle each payout this long after it was accepted; null: only settle() settles (demo page, tests). */
  delayMs: number | null;
  /**
   * How long an accepted payout waits in the gateway's queue before it leaves for the bank; only then can it be
   * cancelled. 0 (default): sent at once, as most gateways do; null: queued until send() or settle().
   */
  sendAfterMs: number | null;
  /** Chance [0..1] that a payout fails when it settles on its own (the money goes back to the wallet). */
  failureRate: number;
  /** Chance [0..1] that the request itself is refused at once. */
  rejectRate: number;
  random?: () => number;
}

export const PAYOUT_SIM_DEFAULTS: PayoutSimulatorOptions = { delayMs: 5000, sendAfterMs: 0, failureRate: 0, rejectRate: 0 };

/**
 * A payout gateway that lives in this process: it accepts payouts (once per withdrawal id), and settles them
 * after a delay, or when told to (settle), by calling the settled handler the app gives it, the same path the
 * real gateway's webhook takes. A payout still in the gateway's queue (sendAfterMs) can be cancelled; one sent to
 * the bank cannot, whatever the bank later decides.
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
  /** Accepted payouts not yet sent to the bank: the only ones a cancel stops. */
  private readonly queued = new Set<string>();
  private readonly sendTimers = new Map<string, NodeJS.Timeout>();
  private readonly cancelled = new Set<string>();
  private onSettled: PayoutSettledHandler | null = null;
  private readonly random: () => number;

  constructor(opts: Partial<PayoutSimulatorOptions> = {}) {
    this.opts = { ...PAYOUT_SIM_DEFAULTS, ...opts };
    const q = this.opts.sendAfterMs;
    if (q !== null && !(Number.isSafeInteger(q) && q >= 0)) throw new RangeError('sendAfterMs must be a whole number of ms or null');
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
    if (this.opts.sendAfterMs !== 0) {
      this.queued.add(req.withdrawalId);
      if (this.opts.sendAfterMs !== null) {
        const s = setTimeout(() => this.send(req.withdrawalId), this.opts.sendAfterMs);
        s.unref();
        this.sendTimers.set(req.withdrawalId, s);
      }
    }
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

  /** Sends a queued payout to the bank now (the send timer, tests): from here on it cannot be cancelled. */
  send(withdrawalId: string): boolean {
    const t = this.sendTimers.get(withdrawalId);
    if (t) clearTimeout(t);
    this.sendTimers.delete(withdrawalId);
    return this.queued.delete(withdrawalId);
  }

  /**
   * Stops a payout still in the queue: it will never be paid and reports FAILED from now on (no webhook: the
   * caller is told here). A payout already sent, or decided, is NOT_CANCELLABLE; an id never accepted UNKNOWN.
   */
  async cancelPayout(withdrawalId: string): Promise<PayoutCancel> {
    if (this.cancelled.has(withdrawalId)) return 'CANCELLED';
    if (!this.seen.has(withdrawalId)) return 'UNKNOWN';
    if (!this.queued.has(withdrawalId)) return 'NOT_CANCELLABLE';
    this.send(withdrawalId); // clears the send timer; the payout leaves the queue, to nowhere
    const t = this.timers.get(withdrawalId);
    if (t) clearTimeout(t);
    this.timers.delete(withdrawalId);
    this.open.delete(withdrawalId);
    this.cancelled.add(withdrawalId);
    this.decided.set(withdrawalId, false);
    return 'CANCELLED';
  }

  /** Payouts accepted and not settled yet. */
  pending(): PayoutRequest[] {
    return [...this.open.values()];
  }

  /** Settles one accepted payout now (the demo bank page, tests). Returns false when it is not open. */
  async settle(withdrawalId: string, succeeded: boolean): Promise<boolean> {
    if (!this.open.has(withdrawalId)) return false;
    this.send(withdrawalId); // the bank can only decide a payout it was sent
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
    for (const t of [...this.timers.values(), ...this.sendTimers.values()]) clearTimeout(t);
    this.timers.clear();
    this.sendTimers.clear();
  }
}
