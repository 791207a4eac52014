import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors';
import { STAFF_NAMESPACE } from '../../realtime';
import { sessionRoom, staffRoom, type SessionSocketData } from '../../realtime/session-watch';
import { eventBudget } from '../../realtime/socket-limits';

/** The room every console socket is in: each sees every conversation. */
export const STAFF_ROOM = 'staff';
export { STAFF_NAMESPACE };

/**
 * The console's socket namespace (docs/chat.md "Staff"): connect with `auth: {token: <staff token>}`, checked by
 * app.staffTokens.verify (a player's token or a guest id is refused with connect_error). Sockets join the staff
 * room at once; the chat emits `conversation` (a summary changed) and `messaging` ({conversationId, message}).
 * Each socket is also in the rooms of its session and its staff member, so logout ends it on every process, and the
 * realtime session check drops it once the session is revoked, expired or its account disabled (session-watch.ts).
 */
export function staffNamespace(app: FastifyInstance): (event: string, data: unknown) => void {
  const nsp = app.realtime.io.of(STAFF_NAMESPACE);
  nsp.use(async (socket, next) => {
    try {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      const who = await app.staffTokens.verify(typeof token === 'string' ? token : null);
      socket.data.staffId = who.staffId;
      (socket.data as SessionSocketData).staffSessionId = who.sessionId;
      next();
    } catch (e) {
      next(new Error(e instanceof AppError ? e.code : 'UNAUTHORIZED'));
    }
  });
  nsp.on('connection', (socket) => {
    eventBudget(socket, app.config.chatLimits.socketEventsPerMinute);
    void socket.join([STAFF_ROOM, sessionRoom((socket.data as SessionSocketData).staffSessionId ?? ''), staffRoom(socket.data.staffId as number)]);
  });
  return (event, data) => {
    nsp.to(STAFF_ROOM).emit(event, data);
  };
}
