import fp from 'fastify-plugin';
import { DEFAULT_RULES } from '../accounts';
import { LOOKUP_NAMES, lookups, requestLang, type LookupContext, type LookupQuery } from './lookups-service';
import { errorResponse, lookupQuery, lookupResponse, noQuery } from './schemas';

/** GET /api/lookup/{name}: the reference data the SPA reads (spec §7 "Lookups"), public, no auth. */
export default fp(
  async (app) => {
    const context = (): LookupContext => ({
      db: app.db,
      config: app.config,
      now: app.clock.now(),
      // The accounts plugin's rules (registered first in server/app.ts); the defaults when it is not there.
      passwordMinLength: (app.hasDecorator('accountRules') ? app.accountRules : DEFAULT_RULES).passwordMinLength,
    });
    for (const name of LOOKUP_NAMES) {
      app.get<{ Querystring: LookupQuery }>(
        `/api/lookup/${name}`,
        {
          schema: {
            querystring: lookupQuery[name] ?? noQuery,
            response: { 200: lookupResponse[name], '4xx': errorResponse, '5xx': errorResponse },
          },
        },
        // The language: ?lang=, else the SPA's lang cookie (lookups whose query schema has no lang ignore it).
        async (req) => lookups[name](context(), { ...req.query, lang: requestLang(req.query.lang, req.headers.cookie) }),
      );
    }
  },
  { name: 'lookups', dependencies: ['db'] },
);
