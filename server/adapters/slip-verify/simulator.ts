import type { SlipQuery, SlipVerifier, SlipVerifyResult, VerifiedTransfer } from './types';

/** Where the simulator looks transfers up: the demo bank's record of transfers it made. */
export interface TransferBook {
  find(transRef: string): Promise<(VerifiedTransfer & { sendingBank: string }) | null>;
}

export class MemoryTransferBook implements TransferBook {
  private readonly rows = new Map<string, VerifiedTransfer & { sendingBank: string }>();
  add(t: VerifiedTransfer & { sendingBank: string }): void {
    this.rows.set(t.transRef, t);
  }
  async find(transRef: string) {
    return this.rows.get(transRef) ?? null;
  }
}

export interface SlipVerifierSimOptions {
  latencyMs?: number;
  /** 0..1: share of calls answered SERVICE_UNAVAILABLE. */
  failureRate?: number;
  random?: () => number;
}

/**
 * Answers like a bank's slip inquiry, from the transfers the demo bank page made: the reference must
 * exist and have been sent by the bank the mini-QR names.
 */
export class SlipVerifierSimulator implements SlipVerifier {
  failNext = 0;
  constructor(
    private readonly book: TransferBook,
    private readonly opts: SlipVerifierSimOptions = {},
  ) {}

  async verify(query: SlipQuery): Promise<SlipVerifyResult> {
    if (this.opts.latencyMs) await new Promise((r) => setTimeout(r, this.opts.latencyMs));
    if (this.failNext > 0) {
      this.failNext--;
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    }
    if ((this.opts.failureRate ?? 0) > 0 && (this.opts.random ?? Math.random)() < this.opts.failureRate!) {
      return { ok: false, reason: 'SERVICE_UNAVAILABLE' };
    }
    const row = await this.book.find(query.transRef);
    if (!row) return { ok: false, reason: 'TRANSACTION_NOT_FOUND' };
    if (row.sendingBank !== query.sendingBank) return { ok: false, reason: 'BANK_MISMATCH' };
    const { sendingBank: _ignored, ...transfer } = row;
    return { ok: true, transfer };
  }
}
