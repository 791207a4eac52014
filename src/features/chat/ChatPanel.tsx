import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode } from '../../core/apiErrors';
import { useAppDispatch } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { CloseIcon } from '../../components/icons';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import './chat.css';
import type { ChatButton } from './chatApi';
import { RefreshIcon } from './chatIcons';
import { chatItems } from './chatRules';
import { chatClosed, hasOlder, type ChatState } from './chatSlice';
import { loadHistory, sendPostback } from './chatThunks';
import { Composer } from './Composer';
import { MessageList } from './MessageList';

/** Where the panel covers the whole screen (chat.css). */
const FULL_SCREEN_QUERY = '(max-width: 40rem)';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([tabindex="-1"]), textarea:not([disabled]), video[controls], [tabindex]:not([tabindex="-1"])';

interface ChatPanelProps {
  chat: ChatState;
  /** The conversation of who is chatting now is the one in `chat`. */
  ready: boolean;
  /** No guest id could be had: nothing can be loaded or sent. */
  unavailable: boolean;
  /** The server has no socket for the chat: messages show on refresh only. */
  liveOff: boolean;
  onRetryIdentity: () => void;
  launcher: RefObject<HTMLButtonElement>;
  /** The id the launcher's aria-controls names. */
  panelId: string;
}

/**
 * The open chat (spec §2 Chat widget): a dialog with its heading, refresh and close, the history, the new-message
 * notice and the composer. Focus moves in on opening and back on closing; Escape closes; Tab stays inside (it
 * covers the page on a phone). New messages from staff or the bot are announced politely.
 */
export function ChatPanel({ chat, ready, unavailable, liveOff, onRetryIdentity, launcher, panelId }: ChatPanelProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const panel = useRef<HTMLElement>(null);
  const titleId = useId();
  const [postbackBusy, setPostbackBusy] = useState(false);
  const [postbackError, setPostbackError] = useState<string | null>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const fallback = launcher.current;
    panel.current?.querySelector<HTMLElement>('textarea')?.focus();
    return () => {
      const back = previous && previous !== document.body && previous.isConnected ? previous : fallback;
      back?.focus();
    };
  }, [launcher]);

  const close = useCallback(() => dispatch(chatClosed()), [dispatch]);
  // A link into the app leaves the chat open beside the page, except on a phone, where it covers the page.
  const onNavigate = useCallback(() => {
    if (window.matchMedia?.(FULL_SCREEN_QUERY).matches) close();
  }, [close]);

  // Escape closes from inside the panel, and from nowhere (focus lost with a control that went, e.g. a chip).
  useEffect(() => {
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof Node ? event.target : null;
      if (target && target !== document.body && !panel.current?.contains(target)) return;
      event.preventDefault();
      close();
    };
    document.addEventListener('keydown', onEscape);
    return () => document.removeEventListener('keydown', onEscape);
  }, [close]);

  /** Back to the message box when the focused control went away (a tapped quick reply). */
  const keepFocusInside = useCallback(() => {
    if (!panel.current?.contains(document.activeElement)) panel.current?.querySelector<HTMLElement>('textarea')?.focus();
  }, []);
  /** The quick reply just tapped: it goes with its chips in the render that shows the tap, whenever that comes. */
  const tappedChip = useRef<Element | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.closest('[hidden]'));
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const onPostback = useCallback(
    async (button: ChatButton) => {
      if (postbackBusy) return;
      const request = dispatch(sendPostback(button));
      if (!request) return;
      tappedChip.current = document.activeElement;
      setPostbackBusy(true);
      setPostbackError(null);
      const result = await request;
      setPostbackBusy(false);
      if ('error' in result && result.error) {
        tappedChip.current = null; // the chips stay, and so does the focus
        setPostbackError(t('chat.sendFailed', { reason: errorText(errorCode(result.error)) }));
      }
    },
    [dispatch, postbackBusy, t],
  );

  const items = useMemo(() => chatItems(chat.messages, chat.closed, chat.outbox), [chat.messages, chat.closed, chat.outbox]);
  // The tapped chip left the page with its message's chips: the focus would be nowhere, so it goes to the message box.
  useLayoutEffect(() => {
    if (!tappedChip.current || tappedChip.current.isConnected) return;
    tappedChip.current = null;
    keepFocusInside();
  }, [items, keepFocusInside]);
  const sentIds = useMemo(
    () => new Set(chat.outbox.flatMap((item) => (item.machine.status === 'succeed' ? [item.machine.messageId] : []))),
    [chat.outbox],
  );
  const arrival = chat.arrival ? chat.messages.find((m) => m._id === chat.arrival) : undefined;
  const loadingFirst = useDelayedFlag(ready && !chat.loadedOnce && chat.history.status === 'loading');
  const loadingOlder = chat.history.status === 'loading' && chat.history.kind === 'older';
  const refreshing = chat.history.status === 'loading' && chat.history.kind !== 'older';

  let status: string | null = null;
  if (liveOff || chat.socket === 'refused') status = t('chat.liveOff');
  else if (chat.socket === 'disconnected') status = t('chat.reconnecting');

  return (
    <section
      ref={panel}
      id={panelId}
      className="chat-panel"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      data-testid="chat-panel"
    >
      <header className="chat-panel__header">
        <h2 id={titleId} className="chat-panel__title">
          {t('chat.title')}
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label={t('chat.refresh')}
          title={t('chat.refresh')}
          aria-disabled={refreshing || !ready}
          onClick={() => {
            if (unavailable) onRetryIdentity();
            else if (ready && !refreshing) dispatch(loadHistory('refresh'));
          }}
        >
          <RefreshIcon />
        </button>
        <button type="button" className="icon-button" aria-label={t('chat.close')} title={t('chat.close')} onClick={close}>
          <CloseIcon />
        </button>
      </header>
      {status && (
        <p className="chat-panel__status" data-testid="chat-status">
          {status}
        </p>
      )}
      {unavailable ? (
        <div className="chat-panel__empty" role="alert">
          <p>{t('chat.unavailable')}</p>
          <button type="button" className="button" onClick={onRetryIdentity}>
            {t('chat.retry')}
          </button>
        </div>
      ) : (
        <MessageList
          items={items}
          messages={chat.messages}
          sentIds={sentIds}
          hasOlder={chat.loadedOnce && hasOlder(chat)}
          loadingOlder={loadingOlder}
          notice={chat.notice}
          postbackBusy={postbackBusy}
          onPostback={onPostback}
          onNavigate={onNavigate}
        >
          {loadingFirst && <p className="chat-panel__empty">{t('chat.loading')}</p>}
          {chat.history.status === 'failed' && (
            <div className="chat-panel__empty" role="alert">
              <p>{t('chat.loadFailed', { reason: errorText(chat.history.code) })}</p>
              <button type="button" className="button" onClick={() => dispatch(loadHistory(chat.loadedOnce ? 'refresh' : 'latest'))}>
                {t('chat.retry')}
              </button>
            </div>
          )}
          {chat.loadedOnce && items.length === 0 && <p className="chat-panel__empty">{t('chat.empty')}</p>}
        </MessageList>
      )}
      <Composer disabled={!ready} extraError={postbackError} />
      <div className="visually-hidden" aria-live="polite" data-testid="chat-announcement">
        {arrival ? t('chat.announce', { name: arrival.name || t('chat.support'), text: arrival.message }) : ''}
      </div>
    </section>
  );
}
