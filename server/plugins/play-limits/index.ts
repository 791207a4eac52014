import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { assertMayPlay } from './enforce';
import routes from './routes';

/** The limits other features check before moving money (deposits, the wallet's transfers). */
export { assertMayPlay, checkDepositAllowed, checkLossAllowed, depositWithinLimits, holdDeposit, type Limits } from './enforce';
export { loadLimits } from './windows';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A play route (docs/responsible-play.md): it deposits, moves money into a game, opens or launches a game,
     * accepts a bonus or promotion, spins the wheel or claims a coupon, a refund or an invite bonus. The play-limits
     * plugin guards it with assertMayPlay (restrictions, session limit); app.routeCatalogue records it.
     */
    play?: boolean;
  }
}

/**
 * Responsible play (issue 15, docs/responsible-play.md): the player's limits, reality-check interval, time-outs and
 * self-exclusions, their audit trail, and the guard of play routes. Registered before every plugin with play routes:
 * its onRoute hook only sees routes added after it.
 */
async function playLimits(app: FastifyInstance) {
  const guard: preHandlerHookHandler = async (req: FastifyRequest) => {
    await assertMayPlay(app.db, req.playerId, req.sessionId, app.clock.now(), app.config.playMinuteMs);
  };
  const guarded = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (route.config?.play !== true) return;
    route.preHandler = [...([] as preHandlerHookHandler[]).concat((route.preHandler as preHandlerHookHandler | preHandlerHookHandler[] | undefined) ?? []), guard];
    for (const method of ([] as string[]).concat(route.method)) guarded.add(`${method} ${route.url}`);
  });
  // A play route registered before this plugin would have no guard: refuse to start rather than leave it open.
  app.addHook('onReady', async () => {
    const open = app.routeCatalogue.filter((r) => r.play && !guarded.has(`${r.method} ${r.url}`)).map((r) => `${r.method} ${r.url}`);
    if (open.length) throw new Error(`play routes registered before the play-limits plugin, unguarded: ${open.join(', ')}`);
  });
  await app.register(routes);
}

export default fp(playLimits, { name: 'play-limits', dependencies: ['db', 'auth'] });
