import { openRoomSocket, type IoFactory } from '../../core/roomSocket';
import type { MessagingEvent, SocketStatus } from './chatSlice';

export { loadSocketIo, RECONNECT_DELAY_MS, SOCKET_CHECK_MS, type IoFactory } from '../../core/roomSocket';

export type SocketAuth = { token: string } | { guestId: string };

export interface ChatSocketOptions {
  io: IoFactory;
  /** The server's origin (the page's own). */
  url: string;
  /** `${PREFIX}-${userId}` or `${PREFIX}-${guestId}`. */
  room: string;
  /** Read at every (re)connection, so a replaced token is used. */
  auth: () => SocketAuth;
  onStatus: (status: SocketStatus) => void;
  onMessaging: (event: MessagingEvent) => void;
  /**
   * The room is joined (at every connection): what was said before, while the socket was coming up or down,
   * never reached it and is loaded by the caller.
   */
  onJoined: () => void;
}

/** Messages the server sends that the client ignores: anything that is not a `messaging` event of the contract. */
function isMessagingEvent(value: unknown): value is MessagingEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as { type?: unknown };
  return event.type === 'message' || event.type === 'end';
}

/**
 * The chat's socket (docs/chat-wire.md "Socket.io"): the app's room socket (src/core/roomSocket.ts: websocket only,
 * `join` on every connection, 500 ms reconnection, the 5 s check) with the player's token or the guest id as auth,
 * its `messaging` events handed over. Returns the function that closes it for good.
 */
export function openChatSocket({ io, url, room, auth, onStatus, onMessaging, onJoined }: ChatSocketOptions): () => void {
  onStatus('connecting');
  const close = openRoomSocket({
    io,
    url,
    room,
    auth,
    onConnect: () => onStatus('connected'),
    // Not this identity's room: live messages cannot come (the history still loads).
    onJoinAnswer: (answer) => (answer?.ok === false ? onStatus('refused') : onJoined()),
    onDown: (refused) => onStatus(refused ? 'refused' : 'disconnected'),
    events: {
      messaging: (event) => {
        if (isMessagingEvent(event)) onMessaging(event);
      },
    },
  });
  return () => {
    close();
    onStatus('off');
  };
}
