import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordStaffAction } from '../staff';
import * as S from './schemas';
import type { ListFilter } from './repository';
import type { ChatService, ReplyInput } from './service';

/**
 * The staff console's conversation routes (contract "Staff", docs/chat.md "Staff"). Every one needs a staff token
 * (app.authenticateStaff, behind the global rate limit); a player's token is refused. None moves money.
 */
export default async function staffRoutes(app: FastifyInstance, opts: { service: ChatService }) {
  const chat = opts.service;
  const staff = { onRequest: app.authenticateStaff };
  type Id = { Params: { id: string } };
  // Issue 39: what staff say to a customer and when they end a conversation is audited, after the action succeeded.
  const audited = (req: FastifyRequest<Id>, action: 'chat.reply' | 'chat.close', detail?: Record<string, unknown>) =>
    recordStaffAction(app.db, { staffId: req.staffId, action, subjectType: 'conversation', subjectId: req.params.id, detail, requestId: req.id }, app.clock.now());

  app.get<{ Querystring: { status?: ListFilter } }>(
    '/api/staff/conversations',
    { ...staff, schema: { querystring: S.listQuery, response: { 200: S.listAnswer, ...S.errors } } },
    async (req) => chat.forRequest(req).list(req.query.status ?? 'open'),
  );

  app.post<Id & { Body: { limit?: number; skip?: number } | undefined }>(
    '/api/staff/conversations/:id/history',
    { ...staff, schema: { params: S.idParams, body: S.staffHistoryBody, response: { 200: S.staffHistoryAnswer, ...S.errors } } },
    async (req) => chat.forRequest(req).staffHistory(req.params.id, req.body?.skip ?? 0, req.body?.limit ?? 10),
  );

  app.post<Id & { Body: ReplyInput }>(
    '/api/staff/conversations/:id/reply',
    { ...staff, schema: { params: S.idParams, body: S.replyBody, response: { 200: S.replyAnswer, ...S.errors } } },
    async (req) => {
      const sent = await chat.forRequest(req).reply(req.params.id, { staffId: req.staffId, username: req.staffUsername, name: req.staffName }, req.body);
      await audited(req, 'chat.reply', { messageId: sent._id });
      return sent;
    },
  );

  app.post<Id>('/api/staff/conversations/:id/close', { ...staff, schema: { params: S.idParams, response: { 200: S.okAnswer, ...S.errors } } }, async (req) => {
    const closed = await chat.forRequest(req).close(req.params.id);
    await audited(req, 'chat.close');
    return closed;
  });

  app.put<Id>('/api/staff/conversations/:id/read', { ...staff, schema: { params: S.idParams, response: { 200: S.readAnswer, ...S.errors } } }, async (req) =>
    chat.forRequest(req).staffRead(req.params.id),
  );
}
