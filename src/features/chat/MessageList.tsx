import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { formatChatDay } from '../../lib/chatDay';
import { useMomentLocale } from '../../core/momentLocale';
import type { ChatButton, ChatMessage } from './chatApi';
import { anchoredScrollTop, isNearBottom, isNearTop, offersQuickReplies, offersTalkToStaff, type ChatItem, type ScrollBox } from './chatRules';
import { viewerMoved } from './chatSlice';
import { loadHistory } from './chatThunks';
import { LocalMediaBubble } from './LocalMediaBubble';
import { MessageBubble } from './MessageBubble';

interface MessageListProps {
  items: ChatItem[];
  messages: readonly ChatMessage[];
  /** Messages of local media messages that succeeded: they show as sent. */
  sentIds: ReadonlySet<string>;
  hasOlder: boolean;
  loadingOlder: boolean;
  notice: boolean;
  postbackBusy: boolean;
  onPostback: (button: ChatButton) => void;
  onNavigate: () => void;
  /** Loading, failure and empty lines, under the list. */
  children?: ReactNode;
}

const measure = (el: HTMLElement): ScrollBox => ({ scrollTop: el.scrollTop, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight });

/**
 * The history, scrolled by the player: older pages load near the top (or with the button above the list)
 * and are put above what is read without moving it; at the end (60 px) new messages scroll into view, above it
 * the new-message notice shows instead.
 */
export function MessageList({ items, messages, sentIds, hasOlder, loadingOlder, notice, postbackBusy, onPostback, onNavigate, children }: MessageListProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  useMomentLocale();
  const box = useRef<HTMLDivElement>(null);
  /** The list as it was after the last render or scroll: what a change is measured against. */
  const last = useRef<{ box: ScrollBox | null; first: string | null; end: string | null; near: boolean }>({ box: null, first: null, end: null, near: true });

  const firstKey = items.find((item) => item.kind === 'message')?.key ?? null;
  const endKey = items.length > 0 ? items[items.length - 1].key : null;
  const endIsOwn = (() => {
    const item = items[items.length - 1];
    return item?.kind === 'local' || (item?.kind === 'message' && item.message.sender === 'customer');
  })();

  // Opening shows the end of the conversation.
  useLayoutEffect(() => {
    dispatch(viewerMoved({ nearBottom: true }));
  }, [dispatch]);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const before = last.current;
    if (before.box && before.first !== null && firstKey !== before.first && endKey === before.end) {
      // Older messages came in above: keep what the player reads where it was.
      el.scrollTop = anchoredScrollTop(before.box, el.scrollHeight);
    } else if (endKey !== before.end && (before.end === null || before.near || endIsOwn)) {
      el.scrollTop = el.scrollHeight;
    }
    const now = measure(el);
    last.current = { box: now, first: firstKey, end: endKey, near: isNearBottom(now) };
  }, [firstKey, endKey, endIsOwn, items]);

  // Pictures, videos and cards get their height only once loaded, after the scroll to the end (on opening, or a
  // new message): the end would drift out of view, so reopening the chat showed an older message. While the reader
  // is at the end, keep them there: when a medium loads (load events do not bubble, so capture them) and, where
  // the browser has it, whenever the list changes size.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const keepEnd = () => {
      if (!last.current.near) return;
      el.scrollTop = el.scrollHeight;
      last.current = { ...last.current, box: measure(el) };
    };
    const events = ['load', 'loadedmetadata'] as const;
    events.forEach((name) => el.addEventListener(name, keepEnd, true));
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(keepEnd) : null;
    const list = el.querySelector('.chat-history__list');
    if (observer && list) observer.observe(list);
    return () => {
      events.forEach((name) => el.removeEventListener(name, keepEnd, true));
      observer?.disconnect();
    };
  }, []);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    const now = measure(el);
    const near = isNearBottom(now);
    if (near !== last.current.near) dispatch(viewerMoved({ nearBottom: near }));
    last.current = { ...last.current, box: now, near };
    if (isNearTop(now) && hasOlder && !loadingOlder && now.scrollHeight > now.clientHeight) dispatch(loadHistory('older'));
  };

  const toEnd = useCallback(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
    dispatch(viewerMoved({ nearBottom: true }));
    el?.focus();
  }, [dispatch]);

  return (
    <div className="chat-history-wrap">
      <div ref={box} className="chat-history" role="region" aria-label={t('chat.history')} tabIndex={0} onScroll={onScroll} data-testid="chat-history">
        {hasOlder && (
          <div className="chat-history__older">
            <button type="button" className="button button--small" aria-disabled={loadingOlder} onClick={() => !loadingOlder && dispatch(loadHistory('older'))}>
              {loadingOlder ? t('chat.loadingOlder') : t('chat.loadOlder')}
            </button>
          </div>
        )}
        <ol className="chat-history__list">
          {items.map((item) => {
            if (item.kind === 'day') {
              return (
                <li key={item.key} className="chat-day">
                  <time dateTime={item.at}>{formatChatDay(item.at, locale)}</time>
                </li>
              );
            }
            if (item.kind === 'end') {
              return (
                <li key={item.key} className="chat-end" data-testid="chat-end">
                  <span>{t('chat.ended')}</span>
                </li>
              );
            }
            if (item.kind === 'local') return <LocalMediaBubble key={item.key} media={item.media} />;
            return (
              <MessageBubble
                key={item.key}
                message={item.message}
                quickReplies={offersQuickReplies(messages, item.message)}
                talkToStaff={offersTalkToStaff(messages, item.message)}
                sent={sentIds.has(item.message._id)}
                postbackBusy={postbackBusy}
                onPostback={onPostback}
                onNavigate={onNavigate}
              />
            );
          })}
        </ol>
        {children}
      </div>
      {notice && (
        <button type="button" className="chat-notice" onClick={toEnd} data-testid="chat-notice">
          {t('chat.newMessages')} <span aria-hidden="true">↓</span>
        </button>
      )}
    </div>
  );
}
