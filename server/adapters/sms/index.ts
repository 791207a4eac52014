import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { OtpProvider, SmsSender } from './types';
import { SmsSimulator, simulatorFailureRate } from './simulator';
import { ThaiBulkSmsOtp } from './thaibulksms';
import { ConfigError } from '../../config';
import { circuitGauge, circuitsOf } from '../http';
import { errorBody } from '../../lib/wire-schemas';
import { ADAPTER_OPERATIONS, instrumentAdapter } from '../../lib/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    sms: SmsSender;
    /** The OTP service that makes and checks the codes itself (SMS_PROVIDER=thaibulksms); null: ours, sent by app.sms. */
    smsOtp: OtpProvider | null;
  }
}

export interface SmsPluginOptions {
  /** A real adapter; without one the simulator is used. */
  sender?: SmsSender;
  /** A provider that makes and checks the codes; without one SMS_PROVIDER decides. */
  otp?: OtpProvider;
  /** Where SMS_PROVIDER and its settings are read (default process.env). */
  env?: Record<string, string | undefined>;
}

/** SMS_PROVIDER's choices (docs/providers/thaibulksms.md). */
export const SMS_PROVIDERS = ['simulator', 'thaibulksms'] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];

/**
 * SMS_PROVIDER: `thaibulksms` (its key and secret required, else the start is refused), `simulator`, or unset: the
 * simulator, in demo mode and outside it as before this setting existed (the operator check reports it unsafe).
 */
export function smsProviderOf(env: Record<string, string | undefined>): SmsProviderName {
  const v = env.SMS_PROVIDER?.trim() || 'simulator';
  if ((SMS_PROVIDERS as readonly string[]).includes(v)) return v as SmsProviderName;
  throw new ConfigError(`SMS_PROVIDER "${v}" is not available; known: ${SMS_PROVIDERS.join(', ')}`);
}

function required(env: Record<string, string | undefined>, name: string): string {
  const v = env[name]?.trim();
  if (!v) throw new ConfigError(`${name} is required with SMS_PROVIDER=thaibulksms`);
  return v;
}

function timeoutOf(env: Record<string, string | undefined>): number | undefined {
  const v = env.SMS_PROVIDER_TIMEOUT_MS;
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 100 || n > 60_000) throw new ConfigError('SMS_PROVIDER_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000');
  return n;
}

/** The real OTP provider from the environment, its breaker on the gauge and in the app's registry; null: the simulator. */
export function createOtpProvider(app: FastifyInstance, env: Record<string, string | undefined>): OtpProvider | null {
  if (smsProviderOf(env) !== 'thaibulksms') return null;
  const provider = new ThaiBulkSmsOtp({
    apiKey: required(env, 'THAIBULKSMS_API_KEY'),
    apiSecret: required(env, 'THAIBULKSMS_API_SECRET'),
    baseUrl: env.THAIBULKSMS_BASE_URL?.trim() || undefined,
    timeoutMs: timeoutOf(env),
    breaker: { onChange: circuitGauge(app.hasDecorator('metrics') ? app.metrics?.providerCircuitOpen : undefined, 'thaibulksms') },
    log: app.log.child({ adapter: 'sms' }),
  });
  circuitsOf(app).add(provider.http.breaker);
  return provider;
}

/** The timed operations of an OtpProvider (its own list: metrics' ADAPTER_OPERATIONS names the SmsSender's). */
const OTP_OPERATIONS = ['request', 'verify'] as const;

/**
 * Decorates app.sms and app.smsOtp. In demo mode GET /demo/sms?phone=... lists the simulator's latest messages for a phone,
 * newest first, so a person (or the e2e test) can read the OTP.
 */
export default fp<SmsPluginOptions>(
  async (app, opts) => {
    const otp = opts.otp ?? createOtpProvider(app, opts.env ?? process.env);
    const sender =
      opts.sender ?? new SmsSimulator(app.db, app.log.child({ adapter: 'sms' }), { failureRate: simulatorFailureRate(), now: () => app.clock.now() });
    if (!opts.sender && !otp && !app.config.demo && app.config.registerOtp) {
      app.log.warn('REGISTER_OTP is on but no SMS adapter is configured: OTPs go to the simulator outbox only');
    }
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
    // Timed and counted per call (wallet_provider_call_duration_seconds).
    app.decorate('sms', instrumentAdapter(metrics, 'sms', sender, ADAPTER_OPERATIONS.sms));
    app.decorate('smsOtp', otp ? instrumentAdapter(metrics, 'sms-otp', otp, OTP_OPERATIONS) : null);

    if (!app.config.demo) return;
    app.get<{ Querystring: { phone: string } }>(
      '/demo/sms',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: { phone: { type: 'string', minLength: 1, maxLength: 16 } },
            required: ['phone'],
            additionalProperties: false,
          },
          response: {
            200: {
              type: 'object',
              properties: {
                messages: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { phone: { type: 'string' }, text: { type: 'string' }, createdAt: { type: 'string' } },
                    required: ['phone', 'text', 'createdAt'],
                  },
                },
              },
              required: ['messages'],
            },
            '4xx': errorBody,
          },
        },
      },
      async (req) => {
        const rows = await app.db
          .selectFrom('sms_outbox')
          .select(['phone', 'text', 'created_at'])
          .where('phone', '=', req.query.phone)
          .orderBy('id', 'desc')
          .limit(10)
          .execute();
        return { messages: rows.map((r) => ({ phone: r.phone, text: r.text, createdAt: r.created_at })) };
      },
    );
  },
  { name: 'sms', dependencies: ['db'] },
);
