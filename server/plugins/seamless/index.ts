import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import walletApi from './routes';
import launch from './launch';
import { openAggregator, type SeamlessAggregator } from '../../adapters/aggregator';

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
  app.decorate('aggregator', openAggregator(process.env));
  await app.register(walletApi);
  await app.register(launch);
}

export default fp(seamless, { name: 'seamless', dependencies: ['db', 'auth', 'play-limits'] });
