import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/wire-schemas';
import type { StaffService } from './service';
import { scopeOf } from '../../lib/request-context';
import * as s from './schemas';

/**
 * POST /api/staff/login (and /login/totp, the second factor's step), POST /api/staff/logout, GET /api/staff/me,
 * GET /api/staff/audit (admin). Handlers hold no rules: the service does.
 */
export async function staffRoutes(app: FastifyInstance, opts: { service: StaffService }): Promise<void> {
  const { service } = opts;
  const staffOnly = { onRequest: app.authenticateStaff };

  app.post<{ Body: { username: string; password: string } }>(
    '/api/staff/login',
    { schema: { body: s.loginBody, response: { 200: s.loginReply, ...errors } } },
    async (req) => service.login(req.body.username, req.body.password, scopeOf(req)),
  );

  app.post<{ Body: { challenge: string; code: string } }>(
    '/api/staff/login/totp',
    { schema: { body: s.totpBody, response: { 200: s.signedIn, ...errors } } },
    async (req) => service.loginTotp(req.body.challenge, req.body.code, scopeOf(req)),
  );

  app.post('/api/staff/logout', { ...staffOnly, schema: { response: { 200: s.okReply, ...errors } } }, async (req) => {
    await service.logout(req.staffId, req.staffSessionId, scopeOf(req));
    // The console's sockets of this session end with it, on every process (docs/chat.md "Sockets follow sessions").
    if (app.hasDecorator('realtime')) app.realtime.endStaffSession(req.staffSessionId);
    return { ok: true };
  });

  app.get<{ Querystring: { limit?: string; before?: string } }>(
    '/api/staff/audit',
    { onRequest: [app.authenticateStaff, app.staffRole('admin')], schema: { querystring: s.auditQuery, response: { 200: s.auditReply, ...errors } } },
    async (req) => service.audit(req.query.limit === undefined ? 50 : Number(req.query.limit), req.query.before === undefined ? null : Number(req.query.before)),
  );

  app.get('/api/staff/me', { ...staffOnly, schema: { response: { 200: s.staffView, ...errors } } }, async (req) => ({
    id: req.staffId,
    username: req.staffUsername,
    name: req.staffName,
    role: req.staffRole,
  }));
}
