import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { readSetting } from '../../settings';
import * as S from './schemas';
import type { ChatService, IdentityFields, SendInput } from './service';
import { receiveUpload, serveMedia } from './uploads';

/**
 * The player/guest chat routes of the contract (docs/chat.md "Routes"). All are public in the route catalogue:
 * a guest has no token. A request that carries a token is checked by app.authenticate first (behind the global
 * rate limit, before the body), so a bad token is 401 whatever the body says; the body's userId/guestId are then
 * checked against it by the service.
 */
export default async function routes(app: FastifyInstance, opts: { service: ChatService }) {
  const chat = opts.service;
  const optionalPlayer = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.headers.authorization !== undefined) await app.authenticate(req, reply);
  };
  // As auth.ts does for app.authenticate: the global rate limit runs first.
  app.addHook('onRoute', (route) => {
    const hooks = ([] as unknown[]).concat(route.onRequest ?? []);
    if (!hooks.includes(optionalPlayer)) return;
    route.onRequest = [...hooks.filter((h) => h !== optionalPlayer), optionalPlayer] as typeof route.onRequest;
  });
  const who = { onRequest: optionalPlayer };
  const playerOf = (req: FastifyRequest) => (req.playerId ? req.playerId : null);

  app.get('/api/chat/config', { schema: { response: { 200: S.configAnswer, ...S.errors } } }, async () => {
    const enabled = (await readSetting(app.db, 'enableChatWidget')) ?? false;
    return { PREFIX: enabled ? app.realtime.prefix : null };
  });

  app.post('/api/chat/guest', { schema: { response: { 200: S.guestAnswer, ...S.errors } } }, async (req) => ({ guestId: await chat.forRequest(req).issueGuestId() }));

  app.post<{ Body: SendInput & IdentityFields }>(
    '/api/chat/send-message',
    { ...who, schema: { body: S.sendBody, response: { 200: S.sendAnswer, ...S.errors } } },
    async (req) => {
      const c = chat.forRequest(req);
      return c.send(await c.customerOf(playerOf(req), req.body), req.body);
    },
  );

  app.post<{ Body: IdentityFields & { limit?: number; skip?: number } }>(
    '/api/chat/history',
    { ...who, schema: { body: S.historyBody, response: { 200: S.historyAnswer, ...S.errors } } },
    async (req) => {
      const body = req.body ?? {};
      const c = chat.forRequest(req);
      return c.history(await c.customerOf(playerOf(req), body), body.skip ?? 0, body.limit ?? 10);
    },
  );

  app.put<{ Body: IdentityFields | undefined }>(
    '/api/chat/read-customer/',
    { ...who, schema: { body: S.identityBody, response: { 200: S.readAnswer, ...S.errors } } },
    async (req) => {
      const c = chat.forRequest(req);
      return c.readCustomer(await c.customerOf(playerOf(req), req.body ?? {}));
    },
  );

  app.get<{ Params: { name: string } }>('/api/chat/media/:name', { schema: { params: S.mediaParams } }, async (req, reply) =>
    serveMedia({ db: app.db, dataDir: app.config.dataDir }, req.params.name, req.headers.range, reply),
  );

  // Multipart only in this context, so the other routes keep refusing a multipart body.
  await app.register(async (uploads) => {
    if (!uploads.hasContentTypeParser('multipart/form-data')) await uploads.register(multipart, { limits: { files: 1, fields: 4, parts: 6 } });
    const deps = { db: app.db, dataDir: app.config.dataDir, now: () => app.clock.now(), customerOf: chat.customerOf.bind(chat) };
    for (const kind of ['image', 'video'] as const) {
      uploads.post(`/api/chat/upload-${kind}`, { ...who, schema: { response: { 200: S.uploadAnswer, ...S.errors } } }, async (req) => receiveUpload(deps, req, kind));
    }
  });
}
