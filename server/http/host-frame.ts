import fp from 'fastify-plugin';

const hostOriginsResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['hostOrigins'],
  properties: { hostOrigins: { type: 'array', items: { type: 'string' } } },
} as const;

/**
 * GET /api/lookup/frame: the origins of the host apps allowed to embed the mobile/iframe build (FRAME_ANCESTORS,
 * the same list as CSP frame-ancestors, without 'self'). The mobile SPA posts its route and balance only to these
 * origins and accepts the host's messages only from them (src/app/host/hostBridge.ts). Public, no auth.
 */
export default fp(
  async (app) => {
    const hostOrigins = app.config.frameAncestors.filter((origin) => origin !== "'self'");
    app.get('/api/lookup/frame', { schema: { response: { 200: hostOriginsResponse } } }, async () => ({ hostOrigins }));
  },
  { name: 'host-frame' },
);
