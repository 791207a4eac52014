import crypto from 'node:crypto';
import { AppError, unauthorized } from '../../errors';
import type { DepositsContext } from './context';
import type { GatewayWebhook } from '../../adapters/payments';
import { applyEventOnce, type EventAnswer } from './webhook-service';

/**
 * A gateway's own webhook (POST /api/webhooks/opn, docs/providers/opn.md "The webhook"): the gateway's adapter checks
 * the signature and fetches the payment by id; only that answer is credited, through the same path as our signed
 * webhook (`applyEvent`, a `qr.paid`). The event id is the gateway's payment id, so one payment credits once however
 * many deliveries name it; the body hashed for the replay check is the fetched payment, not the delivery.
 */
export async function applyGatewayWebhook(ctx: DepositsContext, raw: Buffer, headers: Record<string, string | string[] | undefined>, gatewayName: string): Promise<EventAnswer> {
  if (!ctx.gateway.readWebhook) throw new AppError(404, 'NO_DATA'); // this gateway is not the one configured
  const read = await ctx.gateway.readWebhook(raw, headers, ctx.call);
  if (read.kind === 'forged') throw unauthorized('UNAUTHORIZED');
  // Not applied: the gateway delivers again.
  if (read.kind === 'unavailable') throw new AppError(503, 'INTERNAL_SERVER_ERROR');
  if (read.kind === 'ignored') {
    ctx.log.info({ gateway: gatewayName, outcome: read.outcome }, 'gateway webhook: nothing to credit');
    return { received: true, id: `${gatewayName}:${crypto.createHash('sha256').update(raw).digest('hex').slice(0, 16)}`, outcome: read.outcome };
  }
  return (await applyGatewayPayment(ctx, read, gatewayName)).answer;
}

/**
 * A payment the gateway itself answered as paid (its webhook's fetch, or the poll's ask by reference,
 * gateway-poll.ts): a `qr.paid` with the event id `<gateway>:<payment id>` and the fetched payment as the hashed body,
 * the same from both, so a poll and a later webhook (or the other way round) credit once.
 */
export function applyGatewayPayment(ctx: DepositsContext, read: Extract<GatewayWebhook, { kind: 'paid' }>, gatewayName: string): Promise<{ answer: EventAnswer; applied: boolean }> {
  const id = `${gatewayName}:${read.paymentId}`;
  const fetched = Buffer.from(JSON.stringify({ id, reference: read.reference, amountSatang: read.amountSatang }));
  return applyEventOnce(ctx, fetched, { id, type: 'qr.paid', reference: read.reference, amount: read.amountSatang / 100 });
}
