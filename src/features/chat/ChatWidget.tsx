import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectGuestId } from '../../core/prefs';
import { useGetWalletQuery } from '../../core/walletApi';
import { useGetChatConfigQuery } from './chatApi';
import { ChatPanel } from './ChatPanel';
import { conversationStarted, selectChat } from './chatSlice';
import { chatSessionOf, ensureGuestId, loadHistory } from './chatThunks';
import { useChatSocket } from './useChatSocket';
import { useMarkRead } from './useMarkRead';

/** How often a visitor's widget asks for a guest id by itself in one page's life (a refused id is renewed once). */
const GUEST_ID_TRIES = 2;

/**
 * The chat widget's life (its own lazy chunk, with socket.io-client behind it): who is chatting, the first
 * history page, the socket, mark-as-read, and the panel while open. Mounted from the first opening on, so
 * messages keep arriving (and are counted on the launcher) while it is closed.
 */
export default function ChatWidget({ launcher, panelId }: { launcher: RefObject<HTMLButtonElement>; panelId: string }) {
  const dispatch = useAppDispatch();
  const chat = useAppSelector(selectChat);
  const token = useAppSelector((state) => state.session.token);
  const guestId = useAppSelector(selectGuestId);
  const { data: wallet } = useGetWalletQuery(undefined, { skip: !token });
  const { data: config } = useGetChatConfigQuery();
  const playerId = wallet?.profile._id;
  const playerName = wallet?.profile.name;
  const session = useMemo(
    () => chatSessionOf(token, playerId ? { _id: playerId, name: playerName } : null, guestId),
    [token, playerId, playerName, guestId],
  );

  // A visitor chats under a guest id the server issues once per device (prefs.guestId, persisted).
  const guestTries = useRef(0);
  const [guestFailed, setGuestFailed] = useState(false);
  const askForGuestId = useCallback(() => {
    guestTries.current += 1;
    setGuestFailed(false);
    void dispatch(ensureGuestId()).then((ok) => setGuestFailed(!ok));
  }, [dispatch]);
  useEffect(() => {
    if (!token && !guestId && guestTries.current < GUEST_ID_TRIES) askForGuestId();
  }, [token, guestId, askForGuestId]);

  const owner = session?.owner ?? null;
  useEffect(() => {
    if (owner) dispatch(conversationStarted({ owner }));
  }, [dispatch, owner]);

  const ready = owner !== null && chat.owner === owner;
  const idle = chat.history.status === 'idle';
  useEffect(() => {
    if (ready && !chat.loadedOnce && idle) dispatch(loadHistory('latest'));
  }, [dispatch, ready, chat.loadedOnce, idle]);

  useChatSocket(ready ? session : null, config?.PREFIX);
  useMarkRead(chat.messages, ready && chat.open && chat.nearBottom);

  if (!chat.open) return null;
  return (
    <ChatPanel
      chat={chat}
      ready={ready}
      unavailable={!session && !token && (guestFailed || (guestId === null && guestTries.current >= GUEST_ID_TRIES))}
      liveOff={config !== undefined && !config.PREFIX}
      onRetryIdentity={askForGuestId}
      launcher={launcher}
      panelId={panelId}
    />
  );
}
