import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Hub88 signs the exact bytes of a request body (RSA-SHA256, X-Hub88-Signature), so the Wallet API must verify those
 * bytes before anything reads them: a body parsed and serialized again would not be the text that was signed (key
 * order, spacing, number forms). In the Wallet API's own (encapsulated) plugin every content type, or none, is kept
 * as the raw Buffer; the routes verify it and only then parse it. The rest of the app keeps Fastify's JSON parser.
 */
export function keepRawBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
}

/** The request's body as it came (empty when there was none). */
export function rawBody(req: FastifyRequest): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}
