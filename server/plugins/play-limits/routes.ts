import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as S from './schemas';
import { history, limitsState, setLimit, setReality, takeRestriction } from './service';

/**
 * The limits routes (docs/responsible-play.md "Wire"). All need a player's token; none is a play route, so they stay
 * open during a time-out, a self-exclusion and past the session limit. Every change answers the GET shape.
 */
export default async function routes(app: FastifyInstance) {
  const auth = { onRequest: app.authenticate };
  const state = (req: FastifyRequest) =>
    limitsState({ db: app.db, playerId: req.playerId, sessionId: req.sessionId, now: app.clock.now(), minuteMs: app.config.playMinuteMs });
  const stateResponse = { response: { 200: S.limitsState, ...S.errors } };

  app.get('/api/limits', { ...auth, schema: stateResponse }, (req) => state(req));

  app.put('/api/limits', { ...auth, schema: { body: S.setLimitBody, ...stateResponse } }, async (req) => {
    await setLimit(app.db, req.playerId, req.body, app.clock.now());
    return state(req);
  });

  app.put('/api/limits/reality', { ...auth, schema: { body: S.realityBody, ...stateResponse } }, async (req) => {
    await setReality(app.db, req.playerId, req.body, app.clock.now());
    return state(req);
  });

  app.post('/api/limits/restriction', { ...auth, schema: { body: S.restrictionBody, ...stateResponse } }, async (req) => {
    await takeRestriction(app.db, req.playerId, req.body, app.clock.now());
    return state(req);
  });

  app.get<{ Querystring: { page?: string } }>(
    '/api/limits/history',
    { ...auth, schema: { querystring: S.historyQuery, response: { 200: S.historyResponse, ...S.errors } } },
    (req) => history(app.db, req.playerId, Number(req.query.page ?? 1)),
  );
}
