/** Tables of the deposit flows (migration 202611250005_deposits, docs/deposits.md). Money is integer satang. */

/** LIVE until paid, cancelled (by the player or by a newer QR) or past expires_at; REVIEW: paid with another amount. */
export type QrStatus = 'LIVE' | 'PAID' | 'CANCELLED' | 'EXPIRED' | 'REVIEW';

export interface QrDepositsTable {
  id: string;
  player_id: number;
  bank_code: string; // KBANK | WW | E2P
  amount: number;
  currency: string;
  payload: string;
  status: QrStatus;
  /** = player_id while LIVE, null otherwise; unique, so a player has at most one live QR. */
  live_player_id: number | null;
  expires_at: string;
  paid_amount: number | null;
  paid_event_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentEventsTable {
  /** The gateway's event id: an event is applied once. */
  id: string;
  type: string;
  reference: string;
  amount: number | null;
  body_sha256: string;
  /** What applying it did: CREDITED, QR_EXPIRED, AMOUNT_MISMATCH, PAYOUT_SETTLED... */
  outcome: string;
  received_at: string;
}

export type SlipStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';

export interface SlipsTable {
  id: string;
  player_id: number;
  status: SlipStatus;
  /** Reason code of spec §8 when FAILED. */
  note: string | null;
  amount: number;
  currency: string;
  /** The transaction reference read from the slip's mini-QR. */
  reference: string | null;
  sending_bank: string | null;
  /**
   * = reference once the slip was decided on its content (credited, or refused for receiver or age; never
   * NOT_MATCH, which concerns the uploader: migration 202611260002); unique, so a reference is credited once
   * and a later upload of it is a duplicate.
   */
  reference_claim: string | null;
  file_name: string;
  content_type: string;
  size: number;
  sender_account: string | null;
  receiver_account: string | null;
  transferred_at: string | null;
  created_at: string;
  updated_at: string;
}

export type GiftStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';

export interface GiftRedemptionsTable {
  id: string;
  player_id: number;
  /** Unique: a voucher is used once. */
  voucher_id: string;
  status: GiftStatus;
  amount: number;
  currency: string;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

/** Demo mode: transfers the simulated bank made to the operator; the slip verification simulator reads them. */
export interface DemoBankTransfersTable {
  trans_ref: string;
  sending_bank: string;
  sender_bank_code: string;
  sender_account_no: string;
  sender_account_name: string;
  receiver_bank_code: string | null;
  receiver_account_no: string | null;
  receiver_promptpay_id: string | null;
  receiver_name: string;
  amount: number;
  transferred_at: string;
  created_at: string;
}

export interface DepositTables {
  qr_deposits: QrDepositsTable;
  payment_events: PaymentEventsTable;
  slips: SlipsTable;
  gift_redemptions: GiftRedemptionsTable;
  demo_bank_transfers: DemoBankTransfersTable;
}
