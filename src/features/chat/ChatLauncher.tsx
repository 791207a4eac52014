import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { useGetChatWidgetEnabledQuery } from '../../core/lookupApi';
import './chatLauncher.css';
import { ChatIcon } from './chatIcons';
import { chatToggled, selectChatOpen, selectChatStarted, selectChatUnseen } from './chatSlice';

/** The widget, its socket and socket.io-client: fetched the first time the chat opens, never with a page. */
const ChatWidget = lazy(() => import(/* webpackChunkName: "chat" */ './ChatWidget'));

/** The panel's id, for the launcher's aria-controls. */
const CHAT_PANEL_ID = 'chat-panel';

/**
 * The floating chat button of the public and user pages (spec §2 Chat widget): shown only when the operator
 * has the widget on (GET /api/lookup/enableChatWidget); toggles the widget, and counts what staff or the bot
 * said while it was closed. Once opened, the widget stays mounted (closed) to keep its socket.
 */
export function ChatLauncher() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { data } = useGetChatWidgetEnabledQuery();
  const open = useAppSelector(selectChatOpen);
  const started = useAppSelector(selectChatStarted);
  const unseen = useAppSelector(selectChatUnseen);
  const button = useRef<HTMLButtonElement>(null);

  // Focus comes back here when the panel closes and had nowhere better to go (ChatPanel restores it first).
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open && (document.activeElement === document.body || document.activeElement === null)) button.current?.focus();
    wasOpen.current = open;
  }, [open]);

  if (!data?.enableChatWidget) return null;
  const label = unseen > 0 && !open ? t('chat.openWithUnseen', { count: unseen }) : open ? t('chat.close') : t('chat.open');
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`chat-launcher${open ? ' chat-launcher--open' : ''}`}
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-haspopup="dialog"
        {...(open ? { 'aria-controls': CHAT_PANEL_ID } : {})}
        onClick={() => dispatch(chatToggled())}
        data-testid="chat-launcher"
      >
        <ChatIcon />
        {unseen > 0 && !open && (
          <span className="chat-launcher__badge" aria-hidden="true">
            {unseen > 9 ? '9+' : unseen}
          </span>
        )}
      </button>
      {started && (
        <Suspense fallback={null}>
          <ChatWidget launcher={button} panelId={CHAT_PANEL_ID} />
        </Suspense>
      )}
    </>
  );
}
