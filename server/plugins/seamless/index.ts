import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import walletApi from './routes';
import launch from './launch';
import { openAggregator, type SeamlessAggregator } from '../../adapters/aggregator';
import { circuitGauge, circuitsOf } from '../../adapters/http';

/** What the back office and app.ts use: the user id and round key the Wallet API writes, the rate limit's exemption. */
export { seamlessUserId, playerOfUserId } from './users';
export { roundKey } from './service';
export { aggregatorRateLimitExemption, seamlessSettings } from './settings';

declare module 'fastify' {
  interface FastifyInstance {
    /** The seamless aggregator chosen by SEAMLESS_AGGREGATOR; null when off (docs/seamless-wallet.md). */
    aggregator: SeamlessAggregator | null;
  }
}

/**
 * The seamless wallet (issue 42, docs/seamless-wallet.md): the aggregator's Wallet API (routes.ts: signed bet, win,
 * rollback, balance and user info under SEAMLESS_PREFIX) and the player's game launch (launch.ts).
 */
async function seamless(app: FastifyInstance) {
  const aggregator = openAggregator(process.env, {
    log: app.log.child({ adapter: 'aggregator' }),
    breaker: { onChange: circuitGauge(app.hasDecorator('metrics') ? app.metrics?.providerCircuitOpen : undefined, 'hub88') },
  });
  // The Games API's breaker in the operator's readiness detail (GET /readyz/detail), like the other real adapters'.
  if (aggregator?.breaker) circuitsOf(app).add(aggregator.breaker);
  app.decorate('aggregator', aggregator);
  await app.register(walletApi);
  await app.register(launch);
}

export default fp(seamless, { name: 'seamless', dependencies: ['db', 'auth', 'play-limits'] });
