import type { ProviderCall } from '../../lib/request-context';

/**
 * The payout side of the payment gateway: pays a withdrawal to the player's registered bank account.
 * The request only hands the payout over; its result arrives later (the gateway's webhook, `payout.succeeded`
 * or `payout.failed` with reference = our withdrawal id), which calls settlePayout(id, succeeded).
 * The withdrawal id is the idempotency key at the gateway: asking twice pays once.
 */
export interface PayoutRequest {
  withdrawalId: string;
  /** Satang, > 0. */
  amount: number;
  currency: string;
  bankCode: string;
  bankAccountNo: string;
  bankAccountName: string;
}

export type PayoutAck =
  /** The gateway took the payout; its result comes later. */
  | { status: 'accepted' }
  /** The gateway definitely refused it (nothing will be paid). */
  | { status: 'rejected'; reason: string };

/**
 * What the gateway says of one payout (the back office shows it next to a payout in progress): PENDING not paid
 * yet, SUCCEEDED paid, FAILED will not be paid, UNKNOWN the gateway does not know the id.
 */
export type PayoutStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'UNKNOWN';

/**
 * What the gateway answers to a cancel: CANCELLED it will never be paid (also when it was cancelled before);
 * NOT_CANCELLABLE it already left for the bank (or was decided), so only the gateway's result tells how it ends;
 * UNKNOWN the gateway does not know the id.
 */
export type PayoutCancel = 'CANCELLED' | 'NOT_CANCELLABLE' | 'UNKNOWN';

export interface PayoutAdapter {
  /** Throws when the gateway cannot be reached or does not answer (unknown: ask again later with the same id). */
  requestPayout(req: PayoutRequest, call?: ProviderCall): Promise<PayoutAck>;
  /** Asks the gateway about one payout; throws when it cannot be reached (callers time it out and show UNKNOWN). */
  getPayoutStatus(withdrawalId: string, call?: ProviderCall): Promise<PayoutStatus>;
  /**
   * Asks the gateway to stop a payout it has not sent yet; throws when it cannot be reached. Staff may fail a
   * payout only when this answers CANCELLED or the status is FAILED (docs/staff.md "Payouts in progress").
   */
  cancelPayout(withdrawalId: string, call?: ProviderCall): Promise<PayoutCancel>;
  /** Stops timers (simulator); called when the app closes. */
  close?(): void;
}

/** How the app hears about a settled payout: the simulator calls it directly, a real gateway through the webhook. */
export type PayoutSettledHandler = (withdrawalId: string, succeeded: boolean, reason?: string) => Promise<unknown>;
