import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';

import type { WalletSocketStatus } from './liveSlice';

/** Spec §7 and §9 (as the chat's socket): reconnect after 500 ms without a limit; a check every 5 s revives a dropped one. */
export const RECONNECT_DELAY_MS = 500;
export const SOCKET_CHECK_MS = 5000;

export type IoFactory = (uri: string, options: Partial<ManagerOptions & SocketOptions>) => Socket;

/** socket.io-client, fetched when the user area first mounts: never part of /login's or any route's download. */
export const loadSocketIo = (): Promise<IoFactory> => import(/* webpackChunkName: "socket-io" */ 'socket.io-client').then((m) => m.io);

const REFUSALS = new Set(['UNAUTHORIZED', 'invalid-token', 'EXPIRED_AUTH_TOKEN']);

export interface WalletSocketOptions {
  io: IoFactory;
  url: string;
  /** `${PREFIX}-${playerId}`. */
  room: string;
  /** Read at every (re)connection, so a replaced token is used. */
  token: () => string | null;
  onStatus: (status: WalletSocketStatus) => void;
  /** A ledger change for this player (`wallet {reason}`), or a (re)join after which earlier changes may have been missed. */
  onChange: (reason: string | undefined) => void;
}

/**
 * The player's live-balance socket (docs/client.md "Live balance"): websocket only, the token as auth, `join`
 * {room} on every connection; `live` once joined. Returns the function that closes it for good.
 */
export function openWalletSocket({ io, url, room, token, onStatus, onChange }: WalletSocketOptions): () => void {
  let refused = false;
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: RECONNECT_DELAY_MS,
    reconnectionDelayMax: RECONNECT_DELAY_MS,
    reconnectionAttempts: Infinity,
    auth: (cb: (data: object) => void) => cb({ token: token() ?? '' }),
  });
  onStatus('connecting');
  socket.on('connect', () => {
    refused = false;
    socket.emit('join', { room }, (answer: { ok?: boolean } | undefined) => {
      if (answer?.ok === true) {
        onStatus('live');
        // What changed while the socket was down never came as an event.
        onChange(undefined);
      } else onStatus('down');
    });
  });
  socket.on('disconnect', () => onStatus('down'));
  socket.on('connect_error', (error: Error) => {
    // The token itself was refused: retrying with it cannot help (the session's end closes this socket).
    refused = REFUSALS.has(error?.message);
    onStatus('down');
  });
  socket.on('wallet', (data: unknown) => {
    const reason = data && typeof data === 'object' ? (data as { reason?: unknown }).reason : undefined;
    onChange(typeof reason === 'string' ? reason : undefined);
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
