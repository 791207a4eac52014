import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { ProviderCall } from '../../lib/request-context';
import { SmsSendError, type SmsSender } from './types';

export interface SmsSimulatorOptions {
  /** Share of sends that fail (0..1), for tests and demos of the failure path (SMS_SIM_FAILURE_RATE). */
  failureRate?: number;
  /** Source of randomness in [0, 1); tests may replace it. */
  random?: () => number;
  now?: () => Date;
}

/**
 * The default SMS adapter in demo mode and in tests: nothing leaves the machine. Each message goes to the
 * server log and to the sms_outbox table (read by GET /demo/sms and the tests). A failed send writes nothing.
 */
export class SmsSimulator implements SmsSender {
  failureRate: number;
  random: () => number;
  private readonly now: () => Date;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    opts: SmsSimulatorOptions = {},
  ) {
    this.failureRate = opts.failureRate ?? 0;
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? (() => new Date());
  }

  async send(phone: string, text: string, call?: ProviderCall): Promise<void> {
    // Its lines name the request the SMS is sent for, as the request's own lines do.
    const reqId = call ? { reqId: call.requestId } : {};
    if (this.failureRate > 0 && this.random() < this.failureRate) {
      this.log.warn({ sms: 'simulator', ...reqId }, 'simulated SMS failure');
      throw new SmsSendError('simulated SMS failure');
    }
    await this.db.insertInto('sms_outbox').values({ phone, text, created_at: this.now().toISOString() }).execute();
    // Demo only: the text (an OTP) is logged so a person running the demo can read it.
    this.log.info({ sms: 'simulator', text, ...reqId }, 'simulated SMS sent');
  }
}

/** Reads SMS_SIM_FAILURE_RATE (a number between 0 and 1, default 0). */
export function simulatorFailureRate(env: Record<string, string | undefined> = process.env): number {
  const v = env.SMS_SIM_FAILURE_RATE;
  if (v === undefined || v === '') return 0;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`SMS_SIM_FAILURE_RATE must be between 0 and 1, got "${v}"`);
  return n;
}
