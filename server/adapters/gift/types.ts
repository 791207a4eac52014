import type { ProviderCall } from '../../lib/request-context';

/**
 * The mobile-wallet gift redeemer (TrueMoney "ang pao" vouchers): redeeming a voucher moves its amount
 * into the operator's wallet account; a voucher can be redeemed once. Reasons mirror the wallet's own.
 */
export type GiftRedeemFailure =
  | 'VOUCHER_NOT_FOUND'
  | 'VOUCHER_OUT_OF_STOCK' // already redeemed
  | 'VOUCHER_EXPIRED'
  | 'CANNOT_GET_OWN_VOUCHER'
  | 'SERVICE_UNAVAILABLE';

export type GiftRedeemResult =
  | { ok: true; voucherId: string; amountSatang: number; ownerName: string; redeemedAt: Date }
  | { ok: false; reason: GiftRedeemFailure };

export type GiftInspectResult = { ok: true; voucherId: string; amountSatang: number } | { ok: false; reason: GiftRedeemFailure };

export interface GiftRedeemer {
  /** Reads a voucher without redeeming it (its amount decides the minimum before any money moves). */
  inspect(voucherId: string, call?: ProviderCall): Promise<GiftInspectResult>;
  /** receiverMobile: the operator's wallet the voucher is redeemed into. */
  redeem(voucherId: string, receiverMobile: string, call?: ProviderCall): Promise<GiftRedeemResult>;
}
