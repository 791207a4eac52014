import type { FastifyInstance } from 'fastify';
import { scopeOf } from '../../lib/request-context';
import { smsLanguage } from './otp-service';
import type { RecoveryService } from './recovery';
import * as s from './schemas';

/** The forgotten-password routes (issue 40 item 4, docs/accounts.md "Forgotten password"). No token: the player has none. */
export async function recoveryRoutes(app: FastifyInstance, opts: { service: RecoveryService }): Promise<void> {
  const { service } = opts;

  app.post<{ Body: { phoneNumber: string; lang?: string } }>(
    '/api/account/forgot',
    { schema: { body: s.forgotBody, response: { 200: s.forgotReply, ...s.errorResponses } } },
    async (req) => service.forgot(req.body.phoneNumber, smsLanguage(req.body.lang, req.headers['accept-language'], app.config.market), scopeOf(req)),
  );

  app.post<{ Body: { otpToken: string; newPassword: string } }>(
    '/api/account/reset',
    { schema: { body: s.resetBody, response: { 200: s.okBody, ...s.errorResponses } } },
    async (req) => {
      const playerId = await service.reset(req.body.otpToken, req.body.newPassword, scopeOf(req));
      // Every session ended: so do their sockets, on every process (docs/chat.md "Sockets follow sessions").
      if (app.hasDecorator('realtime')) app.realtime.endPlayerSessions(playerId);
      return { message: 'OK' };
    },
  );
}
