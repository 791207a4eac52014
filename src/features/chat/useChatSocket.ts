import { useEffect } from 'react';

import { useAppDispatch, useAppStore } from '../../core/hooks';
import { messagingReceived, socketStatusChanged } from './chatSlice';
import { loadHistory, type ChatSession } from './chatThunks';
import { loadSocketIo, openChatSocket, type SocketAuth } from './socket';

/**
 * The chat's live connection while the widget is mounted: only when the server gave a room prefix (chat on),
 * one socket per identity, its events into the chat slice. Each time the room is joined the newest page is
 * loaded again, for what was said while the socket was not in it (its answers to a first message included).
 */
export function useChatSocket(session: ChatSession | null, prefix: string | null | undefined): void {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const owner = session?.owner ?? null;
  const roomId = session?.roomId ?? null;
  const kind = session?.kind ?? null;
  const guestId = session?.kind === 'guest' && 'guestId' in session.auth ? session.auth.guestId : null;

  useEffect(() => {
    if (!owner || !roomId || !prefix) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    // The player's token is read at every connection (a password change replaces it).
    const auth = (): SocketAuth => (kind === 'player' ? { token: store.getState().session.token ?? '' } : { guestId: guestId ?? '' });
    void loadSocketIo().then((io) => {
      if (cancelled) return;
      stop = openChatSocket({
        io,
        url: window.location.origin,
        room: `${prefix}-${roomId}`,
        auth,
        onStatus: (status) => dispatch(socketStatusChanged(status)),
        onMessaging: (event) => dispatch(messagingReceived(event)),
        // A message sent before the room was joined (the first seconds, or a reconnection) has its answer here.
        onJoined: () => void dispatch(loadHistory('latest')),
      });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [dispatch, store, owner, roomId, kind, guestId, prefix]);
}
