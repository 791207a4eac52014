import { openRoomSocket, type IoFactory } from '../core/roomSocket';
import type { WalletSocketStatus } from '../core/liveSlice';

export { loadSocketIo, type IoFactory } from '../core/roomSocket';

export interface WalletSocketOptions {
  io: IoFactory;
  url: string;
  /** `${PREFIX}-${playerId}`. */
  room: string;
  /** Read at every (re)connection, so a replaced token is used. */
  token: () => string | null;
  onStatus: (status: WalletSocketStatus) => void;
  /**
   * A change for this player (`wallet {reason}`: a ledger entry, or `review` with the notice of a payment sent to or
   * decided by staff), or a (re)join after which earlier changes may have been missed (no reason, no data).
   */
  onChange: (reason: string | undefined, data?: unknown) => void;
}

/**
 * The player's live-balance socket (docs/client.md "Live balance"): the app's room socket (roomSocket.ts) with the
 * token as auth; `live` once joined. Returns the function that closes it for good.
 */
export function openWalletSocket({ io, url, room, token, onStatus, onChange }: WalletSocketOptions): () => void {
  onStatus('connecting');
  const close = openRoomSocket({
    io,
    url,
    room,
    auth: () => ({ token: token() ?? '' }),
    onJoinAnswer: (answer) => {
      if (answer?.ok !== true) return onStatus('down');
      onStatus('live');
      // What changed while the socket was down never came as an event.
      onChange(undefined);
    },
    // A refused token is not retried with (the session's end closes this socket).
    onDown: () => onStatus('down'),
    events: {
      wallet: (data) => {
        const reason = data && typeof data === 'object' ? (data as { reason?: unknown }).reason : undefined;
        onChange(typeof reason === 'string' ? reason : undefined, data);
      },
    },
  });
  return () => {
    close();
    onStatus('off');
  };
}
