import { OPN_BASE_URL as OPN_DEFAULT_BASE_URL } from './opn';

export * from './types';
export { PaymentGatewaySimulator, type PaymentGatewaySimOptions } from './simulator';
export { OpnGateway, OPN_BASE_URL, OPN_SIGNATURE_HEADER, OPN_TIMESTAMP_HEADER, signOpn, verifyOpnSignature, type OpnCharge, type OpnOptions } from './opn';

/**
 * The origins the player's browser loads the gateway's QR image from, for the CSP's img-src: Opn answers a PromptPay
 * charge with an image on its API host (OPN_BASE_URL), not a payload we draw; the simulator needs none.
 */
export function gatewayImageOrigins(env: Record<string, string | undefined>): string[] {
  if (env.PAYMENT_GATEWAY !== 'opn') return [];
  try {
    return [new URL(env.OPN_BASE_URL || OPN_DEFAULT_BASE_URL).origin];
  } catch {
    return []; // a bad OPN_BASE_URL stops the start in the deposits plugin (server/plugins/deposits/adapters.ts)
  }
}
