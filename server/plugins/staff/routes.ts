import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/wire-schemas';
import type { StaffService } from './service';
import * as s from './schemas';

/** POST /api/staff/login, POST /api/staff/logout, GET /api/staff/me. Handlers hold no rules: the service does. */
export async function staffRoutes(app: FastifyInstance, opts: { service: StaffService }): Promise<void> {
  const { service } = opts;
  const staffOnly = { onRequest: app.authenticateStaff };

  app.post<{ Body: { username: string; password: string } }>(
    '/api/staff/login',
    { schema: { body: s.loginBody, response: { 200: s.loginReply, ...errors } } },
    async (req) => service.login(req.body.username, req.body.password),
  );

  app.post('/api/staff/logout', { ...staffOnly, schema: { response: { 200: s.okReply, ...errors } } }, async (req) => {
    await app.staffTokens.revoke(req.staffSessionId);
    return { ok: true };
  });

  app.get('/api/staff/me', { ...staffOnly, schema: { response: { 200: s.staffView, ...errors } } }, async (req) => ({
    id: req.staffId,
    username: req.staffUsername,
    name: req.staffName,
    role: req.staffRole,
  }));
}
