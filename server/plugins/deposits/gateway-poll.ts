import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../db';
import { startJobLease, type Lease } from '../../jobs/lease';
import type { DepositsContext } from './context';
import { applyGatewayPayment } from './opn-webhook';
import { listGatewayQrsToPoll } from './repository';

/**
 * The poll for gateway payments whose webhook never arrived (docs/providers/opn.md "The poll"): with a gateway that
 * can be asked for a payment by our reference (`paymentOf`, Opn), the process holding the `gateway-payments` lease
 * asks, every GATEWAY_POLL_MS, about the gateway's QRs not yet paid: LIVE ones older than a minute, and LIVE,
 * EXPIRED or CANCELLED ones whose expiry was within the last day (a payment can land at the expiry). A paid answer
 * goes through the webhook's own path (applyGatewayPayment, the same event id), so a poll and a webhook credit once;
 * a late one goes to review as a late webhook does. At most BATCH QRs a pass, oldest first; the next pass goes on
 * after the last one asked, and starts again from the oldest once it reached the newest.
 */
export const GATEWAY_POLL_BATCH = 50;
/** A new QR is left to its webhook for this long. */
const MIN_AGE_MS = 60_000;
/** How long after its expiry a QR is still asked about. */
const AFTER_EXPIRY_MS = 24 * 3_600_000;

export interface GatewayPollReport {
  /** QRs asked about. */
  asked: number;
  /** Paid answers applied by this pass (credited or sent to review). */
  applied: number;
  credited: number;
  /** The gateway could not be asked: the pass stopped there (the next one asks again). */
  unavailable: boolean;
}

export interface GatewayPoll {
  /** One pass now, wherever it is called (tests; an operator's script). */
  runNow(): Promise<GatewayPollReport>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** null unless the gateway can be polled (PAYMENT_GATEWAY=opn) and GATEWAY_POLL_MS is not 0. */
    gatewayPayments: GatewayPoll | null;
  }
}

export function createGatewayPoll(ctx: DepositsContext, gatewayName: string): GatewayPoll {
  let after: { createdAt: string; id: string } | null = null;
  let running: Promise<GatewayPollReport> | null = null;

  const pass = async (): Promise<GatewayPollReport> => {
    const report: GatewayPollReport = { asked: 0, applied: 0, credited: 0, unavailable: false };
    const paymentOf = ctx.gateway.paymentOf;
    if (!paymentOf) return report;
    const now = ctx.now().getTime();
    const rows = await listGatewayQrsToPoll(ctx.db, { createdBefore: nowIso(new Date(now - MIN_AGE_MS)), expiredAfter: nowIso(new Date(now - AFTER_EXPIRY_MS)), after, limit: GATEWAY_POLL_BATCH });
    // A short page reached the newest: the next pass starts from the oldest again.
    after = rows.length < GATEWAY_POLL_BATCH ? null : { createdAt: rows[rows.length - 1].created_at, id: rows[rows.length - 1].id };
    for (const row of rows) {
      report.asked++;
      const read = await paymentOf.call(ctx.gateway, row.id);
      if (read.kind === 'unavailable') {
        // No use asking the others now; this QR is asked first next time.
        after = report.asked > 1 ? { createdAt: rows[report.asked - 2].created_at, id: rows[report.asked - 2].id } : null;
        report.unavailable = true;
        break;
      }
      if (read.kind !== 'paid' || read.reference !== row.id) continue;
      const { answer, applied } = await applyGatewayPayment(ctx, read, gatewayName);
      if (!applied) continue; // its webhook came meanwhile
      report.applied++;
      const line = { job: 'gateway-payments', gateway: gatewayName, reference: row.id, eventId: answer.id, outcome: answer.outcome };
      if (answer.outcome === 'CREDITED') {
        report.credited++;
        ctx.log.warn(line, 'credited by poll: the webhook did not arrive');
      } else ctx.log.warn(line, 'payment found by poll, not credited (see its review): the webhook did not arrive');
    }
    return report;
  };

  return {
    runNow() {
      running ??= pass().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

/**
 * Registers the poll in the deposits plugin: `app.gatewayPayments`, and the timed passes under the lease. Nothing at
 * all (no lease, no timer) when the gateway cannot be polled (the simulator) or everyMs is 0.
 */
export function registerGatewayPoll(app: FastifyInstance, ctx: DepositsContext, settings: { gateway: string; everyMs: number } | null): void {
  if (!settings || settings.everyMs <= 0 || !ctx.gateway.paymentOf) {
    app.decorate('gatewayPayments', null);
    return;
  }
  const poll = createGatewayPoll(ctx, settings.gateway);
  app.decorate('gatewayPayments', poll);
  let lease: Lease | null = null;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<unknown> | null = null;
  app.addHook('onReady', async () => {
    const held = await startJobLease(app, 'gateway-payments');
    lease = held;
    timer = setInterval(() => {
      if (!held.held() || inFlight) return;
      inFlight = poll
        .runNow()
        .then(
          (r) => {
            if (r.unavailable) app.log.warn({ job: 'gateway-payments', ...r }, 'gateway poll: the gateway could not be asked; the next pass asks again');
          },
          (e: unknown) => app.log.warn({ job: 'gateway-payments', err: e instanceof Error ? e.message : String(e) }, 'gateway poll pass failed'),
        )
        .finally(() => {
          inFlight = null;
        });
    }, settings.everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await inFlight;
    await lease?.stop();
  });
}
