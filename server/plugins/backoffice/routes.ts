import type { FastifyInstance } from 'fastify';
import type { ReviewStatus } from '../../db/schema-backoffice';
import { badRequest, notFound } from '../../errors';
import { callOf } from '../../lib/request-context';
import * as S from './schemas';
import {
  actionReason, approveReview, decidePayout, findReview, idOf, listPayouts, listReviews, lookupPlayer, phoneOf, reasonOf, rejectReview, setStatus,
  tellDecision,
} from './service';

/**
 * Back office: payments under review (docs/staff.md "Back office: payments under review and payouts"). Routes under
 * /api/staff/reviews, roles payments and admin.
 */
export async function reviewsRoutes(app: FastifyInstance): Promise<void> {
  const guard = { onRequest: [app.authenticateStaff, app.staffRole('payments', 'admin')] };

  app.get<{ Querystring: { status?: ReviewStatus } }>(
    '/api/staff/reviews',
    { ...guard, schema: { querystring: S.reviewListQuery, response: { 200: S.reviewListReply, ...S.errors } } },
    async (req) => ({ reviews: await listReviews(app.db, req.query.status ?? 'OPEN') }),
  );

  app.get<{ Params: { id: string } }>(
    '/api/staff/reviews/:id',
    { ...guard, schema: { params: S.idParams, response: { 200: S.reviewSchema, ...S.errors } } },
    async (req) => {
      const review = await findReview(app.db, req.params.id);
      if (!review) throw notFound('NO_DATA');
      return review;
    },
  );

  for (const [action, run] of [
    ['approve', approveReview],
    ['reject', rejectReview],
  ] as const) {
    app.post<{ Params: { id: string }; Body: unknown }>(
      `/api/staff/reviews/:id/${action}`,
      { ...guard, schema: { params: S.idParams, response: { 200: S.reviewSchema, ...S.errors } } },
      async (req) => {
        const reason = actionReason(req.body);
        await run(app, req.params.id, req.staffId, reason, req.id);
        await tellDecision(app, req.params.id);
        return (await findReview(app.db, req.params.id))!;
      },
    );
  }
}

/**
 * Back office: payouts in progress (docs/staff.md "Back office: payments under review and payouts"). Routes under
 * /api/staff/payouts, roles payments and admin.
 */
export async function payoutsRoutes(app: FastifyInstance): Promise<void> {
  const guard = { onRequest: [app.authenticateStaff, app.staffRole('payments', 'admin')] };

  app.get<{ Querystring: { overdue?: '0' | '1' } }>(
    '/api/staff/payouts',
    { ...guard, schema: { querystring: S.payoutListQuery, response: { 200: S.payoutListReply, ...S.errors } } },
    async (req) => ({ payouts: await listPayouts(app, (req.query.overdue ?? '1') === '1', callOf(req)) }),
  );

  for (const [action, succeeded] of [
    ['settle', true],
    ['fail', false],
  ] as const) {
    app.post<{ Params: { id: string }; Body: unknown }>(
      `/api/staff/payouts/:id/${action}`,
      { ...guard, schema: { params: S.idParams, response: { 200: S.payoutActionReply, ...S.errors } } },
      async (req) => {
        const reason = actionReason(req.body);
        return decidePayout(app, req.params.id, succeeded, { staffId: req.staffId, reason, requestId: req.id, call: callOf(req) });
      },
    );
  }
}

/**
 * Back office: players (docs/staff.md "Back office: players and the audit log"). Every staff role may look a player
 * up and set them active or inactive.
 */
export async function playersRoutes(app: FastifyInstance): Promise<void> {
  const anyRole = { onRequest: [app.authenticateStaff, app.staffRole('support', 'payments', 'admin')] };

  app.get<{ Querystring: { phone?: unknown } }>(
    '/api/staff/players',
    { ...anyRole, schema: { response: { 200: S.lookupReply, ...S.errors } } },
    async (req) => lookupPlayer(app.db, phoneOf(req.query?.phone, app.config.market), { staffId: req.staffId, role: req.staffRole, requestId: req.id }, app.clock.now()),
  );

  app.post<{ Params: { id: string }; Body: { status?: unknown; reason?: unknown } | null }>(
    '/api/staff/players/:id/status',
    { ...anyRole, schema: { response: { 200: S.statusReply, ...S.errors } } },
    async (req) => {
      const id = idOf(req.params.id);
      const body = req.body && typeof req.body === 'object' ? req.body : {};
      const to = body.status;
      if (typeof to !== 'string' || !(S.SETTABLE as readonly string[]).includes(to)) throw badRequest('INVALID_STATUS');
      const reason = reasonOf(body.reason);
      const settable = to as S.Settable;
      const changed = await setStatus(app, id, settable, { staffId: req.staffId, role: req.staffRole, reason, requestId: req.id }, app.clock.now());
      // Sessions are ended in the transaction; the open sockets (every process's, through the adapter) go now.
      // Every socket the player holds (chat and wallet pushes alike), not only those that joined the chat room.
      if (changed && to === 'inactive' && app.hasDecorator('realtime')) app.realtime.endPlayerSessions(id);
      return { id, status: settable };
    },
  );
}
