import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scoped } from '../../lib/request-context';
import { toBaht } from '../../ledger';
import * as S from './schemas';
import { activate, clearBonus } from './engine';
import { activationAnswer, activeStatus, currentPromotion, findPromotion, listBonuses, minimum } from './service';
import { checkRefund, listRefunds, receiveRefund } from './refund';
import { readRefundSettings } from './settings';

/** The bonus, promotion and refund routes of spec §7 (docs/bonus.md "Routes"). All need a player's token. */
export default async function routes(app: FastifyInstance) {
  const auth = { onRequest: app.authenticate };
  // Play routes (issue 15): refused during a time-out, a self-exclusion or past the session limit.
  const play = { config: { play: true } };
  // The engine's dependencies for one request: its logger, and the provider calls of the balance refresh, carry the
  // request's id (server/lib/request-context.ts).
  const deps = (req: FastifyRequest) => {
    const d = app.bonus.deps;
    return { ...scoped(d, req), transferDeps: scoped(d.transferDeps, req) };
  };
  const now = () => app.clock.now();

  app.get('/api/bonus', { ...auth, schema: { response: { 200: S.bonusList, ...S.errors } } }, (req) => listBonuses(app.db, req.playerId, now()));

  app.get<{ Params: { code: string } }>(
    '/api/bonus/activate/:code',
    { ...auth, ...play, schema: { params: S.codeParams, response: { 200: S.userBonus, ...S.errors } } },
    async (req) => activationAnswer(app.db, await activate(deps(req), req.playerId, req.params.code, 'bonus')),
  );

  app.get('/api/bonus/check/active', { ...auth, schema: { response: { 200: S.activeResponse, ...S.errors } } }, (req) => activeStatus(app.db, req.playerId));

  app.get('/api/bonus/check/minimum', { ...auth, schema: { response: { 200: S.minimumResponse, ...S.errors } } }, () => minimum(app.db));

  app.get('/api/bonus/clear', { ...auth, schema: { response: { 200: S.messageResponse, ...S.errors } } }, async (req) => {
    await clearBonus(deps(req), req.playerId);
    return { message: 'BONUS_CLEAR' };
  });

  app.get('/api/promotion/current', { ...auth, schema: { response: { 200: S.promotionCurrent, ...S.errors } } }, (req) => currentPromotion(app.db, req.playerId));

  app.get<{ Params: { code: string } }>(
    '/api/promotion/find/:code',
    { ...auth, schema: { params: S.codeParams, response: { 200: S.promotionFound, ...S.errors } } },
    (req) => findPromotion(app.db, req.params.code, now()),
  );

  app.get<{ Params: { code: string } }>(
    '/api/promotion/activate/:code',
    { ...auth, ...play, schema: { params: S.codeParams, response: { 200: S.userBonus, ...S.errors } } },
    async (req) => activationAnswer(app.db, await activate(deps(req), req.playerId, req.params.code, 'promotion')),
  );

  app.post<{ Body: { page?: number; limit?: number } | undefined }>(
    '/api/refund',
    { ...auth, schema: { body: S.refundLogBody, response: { 200: S.refundLog, ...S.errors } } },
    async (req) => {
      const { total, rows } = await listRefunds(app.db, req.playerId, req.body?.page ?? 1, req.body?.limit ?? 10);
      return { total, refunds: rows.map((r) => ({ refundAmount: toBaht(r.amount), createdAt: r.createdAt })) };
    },
  );

  app.get('/api/refund/check', { ...auth, schema: { response: { 200: S.refundCheck, ...S.errors } } }, async (req) => {
    const c = await checkRefund(app.db, req.playerId);
    return { ...c, refundAmount: toBaht(c.refundAmount) };
  });

  const receive = async (req: { playerId: number }) => ({ message: 'REFUND_SUCCESS' as const, amount: toBaht(await receiveRefund(app.db, req.playerId, now())) });
  app.get('/api/refund/receive', { ...auth, ...play, schema: { response: { 200: S.refundReceived, ...S.errors } } }, receive);
  // Spec §7 names both; they do the same.
  app.get('/api/refund/addWallet', { ...auth, ...play, schema: { response: { 200: S.refundReceived, ...S.errors } } }, receive);

  app.get('/api/refund/banners', { ...auth, schema: { response: { 200: S.bannerList, ...S.errors } } }, async () => {
    const s = await readRefundSettings(app.db);
    return { banners: s.isActive ? s.banners : [] };
  });
}
