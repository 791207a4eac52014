import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors';

/** The room every console socket is in: each sees every conversation. */
export const STAFF_ROOM = 'staff';
export const STAFF_NAMESPACE = '/staff';

/**
 * The console's socket namespace (docs/chat.md "Staff"): connect with `auth: {token: <staff token>}`, checked by
 * app.staffTokens.verify (a player's token or a guest id is refused with connect_error). Sockets join the staff
 * room at once; the chat emits `conversation` (a summary changed) and `messaging` ({conversationId, message}).
 */
export function staffNamespace(app: FastifyInstance): (event: string, data: unknown) => void {
  const nsp = app.realtime.io.of(STAFF_NAMESPACE);
  nsp.use(async (socket, next) => {
    try {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      const who = await app.staffTokens.verify(typeof token === 'string' ? token : null);
      socket.data.staffId = who.staffId;
      next();
    } catch (e) {
      next(new Error(e instanceof AppError ? e.code : 'UNAUTHORIZED'));
    }
  });
  nsp.on('connection', (socket) => {
    void socket.join(STAFF_ROOM);
  });
  return (event, data) => {
    nsp.to(STAFF_ROOM).emit(event, data);
  };
}
