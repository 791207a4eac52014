import fp from 'fastify-plugin';
import type { SmsSender } from './types';
import { SmsSimulator, simulatorFailureRate } from './simulator';
import { errorBody } from '../../lib/wire-schemas';
import { ADAPTER_OPERATIONS, instrumentAdapter } from '../../lib/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    sms: SmsSender;
  }
}

export interface SmsPluginOptions {
  /** A real adapter; without one the simulator is used. */
  sender?: SmsSender;
}

/**
 * Decorates app.sms. In demo mode GET /demo/sms?phone=... lists the simulator's latest messages for a phone,
 * newest first, so a person (or the e2e test) can read the OTP.
 */
export default fp<SmsPluginOptions>(
  async (app, opts) => {
    const sender =
      opts.sender ?? new SmsSimulator(app.db, app.log.child({ adapter: 'sms' }), { failureRate: simulatorFailureRate(), now: () => app.clock.now() });
    if (!opts.sender && !app.config.demo && app.config.registerOtp) {
      app.log.warn('REGISTER_OTP is on but no SMS adapter is configured: OTPs go to the simulator outbox only');
    }
    // Timed and counted per call (wallet_provider_call_duration_seconds).
    app.decorate('sms', instrumentAdapter(app.hasDecorator('metrics') ? app.metrics : undefined, 'sms', sender, ADAPTER_OPERATIONS.sms));

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
