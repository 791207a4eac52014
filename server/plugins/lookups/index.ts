import fp from 'fastify-plugin';
import { LOOKUP_NAMES, lookups, type LookupContext } from './lookups-service';
import { errorResponse, lookupResponse, noQuery } from './schemas';

/** GET /api/lookup/{name}: the reference data the SPA reads (spec §7 "Lookups"), public, no auth. */
export default fp(
  async (app) => {
    const context = (): LookupContext => ({ db: app.db, config: app.config, now: app.clock.now() });
    for (const name of LOOKUP_NAMES) {
      app.get(
        `/api/lookup/${name}`,
        { schema: { querystring: noQuery, response: { 200: lookupResponse[name], '4xx': errorResponse, '5xx': errorResponse } } },
        async () => lookups[name](context()),
      );
    }
  },
  { name: 'lookups', dependencies: ['db'] },
);
