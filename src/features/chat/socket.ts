import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';

import type { MessagingEvent, SocketStatus } from './chatSlice';

/** Spec §7 and §9: reconnect after 500 ms, without a limit; a check every 5 s reconnects a dropped socket. */
export const RECONNECT_DELAY_MS = 500;
export const SOCKET_CHECK_MS = 5000;

export type IoFactory = (uri: string, options: Partial<ManagerOptions & SocketOptions>) => Socket;

/**
 * socket.io-client, fetched the first time the chat opens: it is in no route's download, only in the chat's
 * (spec: heavy or rare code loads lazily).
 */
export const loadSocketIo = (): Promise<IoFactory> => import(/* webpackChunkName: "socket-io" */ 'socket.io-client').then((m) => m.io);

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

/** A refusal by the server's auth check: reconnecting with the same identity cannot help. */
const REFUSALS = new Set(['UNAUTHORIZED', 'invalid-token', 'EXPIRED_AUTH_TOKEN']);

/**
 * The chat's socket (chat contract "Socket.io"): websocket transport only, the player's token or the guest id
 * as auth, `join` {room} on every connection, `messaging` events handed over, reconnection after 500 ms
 * without a limit, and a check every 5 s that reconnects a socket that is down (socket.io gives up after a
 * refused handshake or a server-side disconnect). Returns the function that closes it for good.
 */
export function openChatSocket({ io, url, room, auth, onStatus, onMessaging, onJoined }: ChatSocketOptions): () => void {
  let refused = false;
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: RECONNECT_DELAY_MS,
    reconnectionDelayMax: RECONNECT_DELAY_MS,
    reconnectionAttempts: Infinity,
    auth: (cb: (data: object) => void) => cb(auth()),
  });
  onStatus('connecting');
  socket.on('connect', () => {
    refused = false;
    onStatus('connected');
    socket.emit('join', { room }, (answer: { ok?: boolean } | undefined) => {
      // Not this identity's room: live messages cannot come (the history still loads).
      if (answer?.ok === false) onStatus('refused');
      else onJoined();
    });
  });
  socket.on('disconnect', () => onStatus('disconnected'));
  socket.on('connect_error', (error: Error) => {
    refused = REFUSALS.has(error?.message);
    onStatus(refused ? 'refused' : 'disconnected');
  });
  socket.on('messaging', (event: unknown) => {
    if (isMessagingEvent(event)) onMessaging(event);
  });
  const check = setInterval(() => {
    if (!socket.connected && !socket.active && !refused) socket.connect();
  }, SOCKET_CHECK_MS);
  return () => {
    clearInterval(check);
    socket.off();
    socket.disconnect();
    onStatus('off');
  };
}
