import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ChatService } from './service';
import { memoryChatLimiters, redisChatLimiters, type SendLimiter } from './send-limit';
import { staffNamespace } from './staff-socket';
import routes from './routes';
import staffRoutes from './staff-routes';

export interface ChatPluginOptions {
  /** The send limit's counter (tests pass a tighter or shared one); memory, or Redis with REDIS_URL. */
  limiter?: SendLimiter;
}

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService;
  }
}

/** The support chat (docs/chat.md): player/guest routes, the bot, the staff conversation routes and socket namespace. */
async function chat(app: FastifyInstance, opts: ChatPluginOptions) {
  const limits = app.config.chatLimits;
  // Shared by every process with REDIS_URL, as the global rate limit is.
  const counters = app.config.redisUrl ? await redisChatLimiters(app.config.redisUrl, app.config.chatPrefix, app.log, limits) : memoryChatLimiters(limits);
  app.addHook('onClose', async () => {
    await Promise.all([counters.sends, counters.guestIds, counters.guestSends].map((c) => c.close()));
    await counters.close();
  });
  const service = new ChatService({
    db: app.db,
    realtime: app.realtime,
    limiter: opts.limiter ?? counters.sends,
    guestIds: counters.guestIds,
    guestSends: counters.guestSends,
    now: () => app.clock.now(),
    log: app.log,
    toStaff: staffNamespace(app),
  });
  app.decorate('chat', service);
  await app.register(routes, { service });
  await app.register(staffRoutes, { service });
}

export default fp(chat, { name: 'chat', dependencies: ['db', 'auth', 'staff-auth', 'realtime'] });
