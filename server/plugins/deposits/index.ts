import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors';
import { depositEnv } from './domain/rules';
import type { PaymentGateway } from '../../adapters/payments';
import type { SlipVerifier } from '../../adapters/slip-verify';
import type { GiftRedeemer } from '../../adapters/gift';
import type { DepositsContext } from './context';
import { createDepositAdapters } from './adapters';
import routes from './routes';
import { createSlipReader, slipPoolFromEnv } from './slip-pool';
import { registerGatewayPoll } from './gateway-poll';

/**
 * Deposits' public surface: what other features use (the back office's review decisions, the lookups' deposit and slip
 * answers). Everything else in this folder is the plugin's own.
 */
export { creditDeposit } from './credit';
export { readDepositRules } from './repository';
export { tellReview } from './review-line';
export { recordReview, type ReviewInput } from './review-record';
export { DEPOSIT_RULES_KEY, mergeDepositRules } from './domain/rules';
export { isInClosedHours } from './domain/slip-hours';

declare module 'fastify' {
  interface FastifyInstance {
    deposits: DepositsContext;
  }
}

export interface DepositsPluginOptions {
  /** Real adapters plug in here; each defaults to its simulator. */
  gateway?: PaymentGateway;
  verifier?: SlipVerifier;
  gift?: GiftRedeemer;
  /** Environment to read PROMPTPAY_ID, PROMPTPAY_NAME, GIFT_RECEIVER_MOBILE and the adapter choices from (default process.env). */
  env?: Record<string, string | undefined>;
}

/**
 * Deposits (docs/deposits.md): QR codes, the signed payment webhook, slip uploads, gift links, and in demo
 * mode the simulated bank page. The adapters are simulators unless real ones are given.
 */
async function deposits(app: FastifyInstance, opts: DepositsPluginOptions) {
  const env = depositEnv(opts.env ?? process.env, app.config.dataDir);
  const { gatewayPoll, ...adapters } = createDepositAdapters(app, opts.env ?? process.env, opts);
  const ctx: DepositsContext = {
    db: app.db,
    env,
    ...adapters,
    slips: createSlipReader(slipPoolFromEnv(opts.env ?? process.env)),
    now: () => app.clock.now(),
    secret: app.config.jwtSecret,
    log: app.log,
    // Resolved per call: the wallet plugin may be registered after this one.
    settlePayout: (id, ok, reason) => {
      const wallet = (app as { wallet?: { settlePayout(id: string, ok: boolean, reason?: string): Promise<{ applied: boolean; status: string | null }> } }).wallet;
      // Without the wallet there is nothing to settle yet: 503, so the gateway delivers again later.
      if (!wallet) return Promise.reject(new AppError(503, 'INTERNAL_SERVER_ERROR'));
      return wallet.settlePayout(id, ok, reason);
    },
    // Resolved per call as well: the realtime plugin is registered after this one.
    tell: (playerId, data) => (app as { realtime?: { toPlayer(id: number, event: string, data: unknown): void } }).realtime?.toPlayer(playerId, 'wallet', data),
  };
  app.decorate('deposits', ctx);
  app.addHook('onClose', () => ctx.slips.close());
  // The real gateway's payments whose webhook did not arrive (PAYMENT_GATEWAY=opn), under the gateway-payments lease.
  registerGatewayPoll(app, ctx, gatewayPoll);
  await app.register(routes);
}

export default fp(deposits, { name: 'deposits', dependencies: ['db', 'auth'] });
