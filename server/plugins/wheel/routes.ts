import type { FastifyInstance } from 'fastify';
import * as S from './schemas';
import { activeWheel } from './config';
import { claimCoupon, listCoupons, setup, spin } from './service';

/** The prize-wheel routes of spec §7 (docs/invite-wheel.md "Routes"). All need a player's token. */
export default async function routes(app: FastifyInstance) {
  const auth = { onRequest: app.authenticate };
  // Play routes (issue 15): refused during a time-out, a self-exclusion or past the session limit.
  const play = { config: { play: true } };
  const deps = () => app.wheel.deps;

  app.get('/api/spinwheel/active', { ...auth, schema: { response: { 200: S.activeResponse, ...S.errors } } }, async () => ({
    isActive: !!(await activeWheel(app.db)),
  }));

  app.get('/api/spinwheel/setup', { ...auth, schema: { response: { 200: S.setupResponse, ...S.errors } } }, (req) => setup(app.db, req.playerId));

  // No body: whatever a client sends is ignored (the server draws; the client never chooses).
  app.post('/api/spinwheel/spin', { ...auth, ...play, schema: { response: { 200: S.spinResponse, ...S.errors } } }, async (req) => ({
    success: true,
    error: null,
    result: await spin(deps(), req.playerId),
  }));

  app.get<{ Querystring: { page?: string; limit?: string } }>(
    '/api/spinwheel/coupon',
    { ...auth, schema: { querystring: S.couponQuery, response: { 200: S.couponList, ...S.errors } } },
    (req) => listCoupons(app.db, req.playerId, Number(req.query.page ?? 1), Number(req.query.limit ?? 3), app.clock.now()),
  );

  // The id is checked by the handler, so a missing or malformed one is INVALID_CODE (not a schema 400).
  app.post('/api/spinwheel/coupon/claim', { ...auth, ...play, schema: { response: { 200: S.claimResponse, ...S.errors } } }, async (req) => {
    const body = req.body as { couponId?: unknown } | null | undefined;
    const couponId = body && typeof body === 'object' && !Array.isArray(body) ? body.couponId : undefined;
    return { message: 'SUCCESS' as const, coupon: await claimCoupon(deps(), req.playerId, couponId) };
  });
}
