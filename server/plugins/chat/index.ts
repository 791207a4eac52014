import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ChatService } from './service';
import { memorySendLimiter, redisSendLimiter, type SendLimiter } from './send-limit';
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
  const limiter =
    opts.limiter ?? (app.config.redisUrl ? await redisSendLimiter(app.config.redisUrl, app.config.chatPrefix, app.log) : memorySendLimiter());
  if (!opts.limiter) app.addHook('onClose', () => limiter.close());
  const service = new ChatService({
    db: app.db,
    realtime: app.realtime,
    limiter,
    now: () => app.clock.now(),
    log: app.log,
    toStaff: staffNamespace(app),
  });
  app.decorate('chat', service);
  await app.register(routes, { service });
  await app.register(staffRoutes, { service });
}

export default fp(chat, { name: 'chat', dependencies: ['db', 'auth', 'staff-auth', 'realtime'] });
