import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { cryptoRandomInt, type RandomInt } from './draw';
import type { WheelDeps } from './service';
import routes from './routes';

/** The coins a deposit earns (deposits' credit path). */
export { grantDepositCoins, depositCoinsWrite } from './coins';

export interface WheelPluginOptions {
  /**
   * The draw's random source; node:crypto randomInt unless a test passes its own (the chi-square test of the
   * weights, races that need a known prize). Production never sets it.
   */
  random?: RandomInt;
}

export interface WheelApi {
  deps: WheelDeps;
}

declare module 'fastify' {
  interface FastifyInstance {
    wheel: WheelApi;
  }
}

/** The prize wheel and its coupons (docs/invite-wheel.md). */
async function wheel(app: FastifyInstance, opts: WheelPluginOptions) {
  const random = opts.random ?? cryptoRandomInt;
  app.decorate('wheel', { deps: { db: app.db, now: () => app.clock.now(), random } } satisfies WheelApi);
  await app.register(routes);
}

export default fp(wheel, { name: 'wheel', dependencies: ['db', 'auth', 'statement'] });
