import type { FastifyInstance } from 'fastify';
import type { AccountsService, ProfileBody, RegistrationBody } from './service';
import * as s from './schemas';

/** Account and session routes of spec §7. Handlers hold no rules and no SQL: the service does. */
export async function accountRoutes(app: FastifyInstance, opts: { service: AccountsService }): Promise<void> {
  const { service } = opts;
  const auth = { onRequest: app.authenticate };

  app.post<{ Body: { username: string; password: string } }>(
    '/api/login',
    { schema: { body: s.loginBody, response: { 200: s.tokenBody, ...s.errorResponses } } },
    async (req) => ({ token: await service.login(req.body.username, req.body.password) }),
  );

  app.post('/api/logout', { ...auth, schema: { response: { 200: s.okBody, ...s.errorResponses } } }, async (req) => {
    await service.logout(req.sessionId);
    // The session's sockets end with it, on every process (docs/chat.md "Sockets follow sessions").
    if (app.hasDecorator('realtime')) app.realtime.endPlayerSession(req.sessionId);
    return { message: 'OK' };
  });

  app.post<{ Body: { username: string } }>(
    '/api/account/checkPhone',
    { schema: { body: s.checkPhoneBody, response: { 200: s.okBody, ...s.errorResponses } } },
    async (req) => {
      await service.checkPhone(req.body.username);
      return { message: 'OK' };
    },
  );

  app.post<{ Body: RegistrationBody }>(
    '/api/account/validate',
    { schema: { body: s.validateBody, response: { 200: s.okBody, ...s.errorResponses } } },
    async (req) => {
      await service.validate(req.body);
      return { message: 'OK' };
    },
  );

  app.post<{ Body: RegistrationBody }>(
    '/api/account',
    { schema: { body: s.registerBody, response: { 200: s.okBody, ...s.errorResponses } } },
    async (req) => {
      await service.register(req.body, req.log);
      return { message: 'OK' };
    },
  );

  app.get('/api/account/profile', { ...auth, schema: { response: { 200: s.profileView, ...s.errorResponses } } }, async (req) =>
    service.profile(req.playerId),
  );

  app.put<{ Body: ProfileBody }>(
    '/api/account/profile',
    { ...auth, schema: { body: s.profileBody, response: { 200: s.profileView, ...s.errorResponses } } },
    async (req) => service.updateProfile(req.playerId, req.body, req.log, req.id),
  );

  app.put<{ Body: { bankCode: string; bankAccountName: string } }>(
    '/api/account/bankAccountName',
    { ...auth, schema: { body: s.bankAccountNameBody, response: { 200: s.profileView, ...s.errorResponses } } },
    async (req) => service.updateBankAccountName(req.playerId, req.body.bankCode, req.body.bankAccountName),
  );

  app.put<{ Body: { oldPassword: string; newPassword: string } }>(
    '/api/account/changepwd',
    { ...auth, schema: { body: s.changePasswordBody, response: { 200: s.changePasswordReply, ...s.errorResponses } } },
    async (req) => {
      const token = await service.changePassword(req.playerId, req.body.oldPassword, req.body.newPassword);
      // Every earlier session ended: so do their sockets (the new token's, if any yet, stays).
      if (app.hasDecorator('realtime')) app.realtime.endPlayerSessions(req.playerId, token);
      return { message: 'OK', token };
    },
  );
}
