import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';

/** Spec §7 and §9: reconnect after 500 ms without a limit; a check every 5 s revives a socket that is down. */
export const RECONNECT_DELAY_MS = 500;
export const SOCKET_CHECK_MS = 5000;

export type IoFactory = (uri: string, options: Partial<ManagerOptions & SocketOptions>) => Socket;

/**
 * socket.io-client, fetched the first time a socket is opened (the user area's live balance, or the chat): it is
 * in no route's download (spec: heavy or rare code loads lazily; the bench checks /login).
 */
export const loadSocketIo = (): Promise<IoFactory> => import(/* webpackChunkName: "socket-io" */ 'socket.io-client').then((m) => m.io);

/** A refusal by the server's auth check: reconnecting with the same identity cannot help. */
const REFUSALS = new Set(['UNAUTHORIZED', 'invalid-token', 'EXPIRED_AUTH_TOKEN']);

export interface RoomSocketOptions {
  io: IoFactory;
  /** The server's origin (the page's own). */
  url: string;
  /** `${PREFIX}-${userId}` or `${PREFIX}-${guestId}` (docs/chat-wire.md "Socket.io"). */
  room: string;
  /** Read at every (re)connection, so a replaced token is used. */
  auth: () => object;
  /** The transport is up; the join is on its way. */
  onConnect?: () => void;
  /** The server's answer to `join` (at every connection); `{ok: true}` when this identity owns the room. */
  onJoinAnswer: (answer: { ok?: boolean } | undefined) => void;
  /** The socket went down; `refused` when the server refused the identity itself (no retry then). */
  onDown: (refused: boolean) => void;
  /** The room's events, by name. */
  events: Record<string, (data: unknown) => void>;
}

/**
 * One socket in one room of the API's socket.io server: websocket transport only, `join` {room} on every
 * connection, reconnection after 500 ms without a limit, and a check every 5 s that reconnects a socket that is
 * down (socket.io gives up after a refused handshake or a server-side disconnect). A server-side disconnect is
 * not a refusal (those come as connect_error): it is retried after the same 500 ms, so a server process that
 * drops its sockets while it shuts down (docs/operations.md "Sockets during a restart") costs half a second, not
 * five. Returns the function that closes it for good. The chat and the live balance each wrap it.
 */
export function openRoomSocket({ io, url, room, auth, onConnect, onJoinAnswer, onDown, events }: RoomSocketOptions): () => void {
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
  socket.on('connect', () => {
    refused = false;
    onConnect?.();
    socket.emit('join', { room }, onJoinAnswer);
  });
  let retry: ReturnType<typeof setTimeout> | null = null;
  socket.on('disconnect', (reason: string) => {
    onDown(false);
    // socket.io reconnects by itself after a transport close, but not after `io server disconnect`.
    if (reason === 'io server disconnect' && !retry) {
      retry = setTimeout(() => {
        retry = null;
        if (!socket.connected && !socket.active && !refused) socket.connect();
      }, RECONNECT_DELAY_MS);
    }
  });
  socket.on('connect_error', (error: Error) => {
    refused = REFUSALS.has(error?.message);
    onDown(refused);
  });
  for (const [name, handler] of Object.entries(events)) socket.on(name, handler);
  const check = setInterval(() => {
    if (!socket.connected && !socket.active && !refused) socket.connect();
  }, SOCKET_CHECK_MS);
  return () => {
    clearInterval(check);
    if (retry) clearTimeout(retry);
    socket.off();
    socket.disconnect();
  };
}
