import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Link } from 'react-router-dom';

import { useStaffI18n } from '../i18n/I18n';
import { useLive, useLiveEvent } from '../live/Live';
import { codeOf, nextRequestId } from '../requestId';
import { useAnnounce } from '../shell/Announcer';
import { freshly, staffApi, untracked, type ReplyBody } from '../staffApi';
import { useStaffDispatch } from '../store';
import type { ChatMessage, ConversationSummary, StaffProfile } from '../types';
import { Composer } from './Composer';
import { HISTORY_PAGE_SIZE, historyReducer, initialHistory, selectHasOlder, selectOlderSkip } from './history';
import { MessageBody } from './MessageBody';
import { messagePreview, messageView } from './messageParts';
import { customerFromMessages, customerLabel, customerOf, senderOf } from './participants';

/** Messages shown are marked read this long after they arrive (a burst is one call), while the page is visible. */
export const READ_DELAY_MS = 1000;
/** Within this distance of the bottom the view follows new messages (the widget's threshold). */
const NEAR_BOTTOM_PX = 60;

interface Props {
  id: string;
  summary: ConversationSummary | undefined;
  staff: StaffProfile;
  backTo: string;
  onRead: (id: string) => void;
}

type CloseFlow = { status: 'idle' } | { status: 'confirming' } | { status: 'closing' } | { status: 'failed'; code: string };

export function ConversationView({ id, summary, staff, backTo, onRead }: Props) {
  const { t, errorText, formatDateTime } = useStaffI18n();
  const { reconnects } = useLive();
  const announce = useAnnounce();
  const storeDispatch = useStaffDispatch();
  const [state, dispatch] = useReducer(historyReducer, '', initialHistory);
  const [attempt, setAttempt] = useState(0);
  const [closeFlow, setCloseFlow] = useState<CloseFlow>({ status: 'idle' });
  const heading = useRef<HTMLHeadingElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const followNext = useRef(false);
  const shown = useRef<{ first?: string; last?: string; height: number }>({ height: 0 });
  const closeButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const closedNote = useRef<HTMLParagraphElement>(null);

  const messages = useMemo(() => (state.status === 'ready' ? state.messages : []), [state]);
  const customer = customerOf(summary ?? customerFromMessages(messages));
  const customerName = customerLabel(customer, t);
  const words = { image: t('message.image'), video: t('message.video'), file: t('message.file') };

  useEffect(() => heading.current?.focus(), []);

  // The newest page on open, on a retry, and after a reconnect (events may have been missed meanwhile).
  useEffect(() => {
    const requestId = nextRequestId();
    shown.current = { height: 0 };
    dispatch({ type: 'history/loadStarted', requestId });
    storeDispatch(staffApi.endpoints.history.initiate({ id, limit: HISTORY_PAGE_SIZE, skip: 0 }, freshly)).unwrap().then(
      (page) => dispatch({ type: 'history/loaded', requestId, page }),
      (e: unknown) => dispatch({ type: 'history/loadFailed', requestId, code: codeOf(e) }),
    );
  }, [id, reconnects, attempt, storeDispatch]);

  const readTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pendingRead = useRef(false);
  const markRead = useCallback(() => {
    pendingRead.current = true;
    if (document.visibilityState === 'hidden' || readTimer.current) return;
    readTimer.current = setTimeout(() => {
      readTimer.current = null;
      pendingRead.current = false;
      storeDispatch(staffApi.endpoints.markRead.initiate(id, untracked)).unwrap().then(
        () => onRead(id),
        () => undefined, // the badge stays; the next view or message tries again
      );
    }, READ_DELAY_MS);
  }, [id, onRead, storeDispatch]);
  useEffect(() => {
    const onVisible = () => document.visibilityState === 'visible' && pendingRead.current && markRead();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      if (readTimer.current) clearTimeout(readTimer.current);
      readTimer.current = null;
    };
  }, [markRead]);

  const ready = state.status === 'ready';
  const unreadHere = summary ? summary.unread > 0 : true;
  useEffect(() => {
    if (ready && unreadHere) markRead();
  }, [ready, unreadHere, markRead]);

  useLiveEvent('messaging', ({ conversationId, message }) => {
    if (String(conversationId) !== id) return;
    dispatch({ type: 'history/messageArrived', message });
    if (message.sender === 'customer') {
      announce(t('announce.newMessage', { name: customerName, text: messagePreview(messageView(message), words) }));
      markRead();
    }
  });
  useLiveEvent('conversation', (c) => {
    if (String(c.id) === id && c.status === 'closed') dispatch({ type: 'history/closed' });
  });

  // Keep the reader's place: the first page and the reader's own replies go to the bottom, a page of older
  // messages keeps what was on screen where it was, new messages are followed only from near the bottom.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || state.status !== 'ready') return;
    const first = state.messages[0]?._id;
    const last = state.messages[state.messages.length - 1]?._id;
    const before = shown.current;
    if (before.height === 0) el.scrollTop = el.scrollHeight;
    else if (first !== before.first && last === before.last) el.scrollTop += el.scrollHeight - before.height;
    else if (last !== before.last && (nearBottom.current || followNext.current)) el.scrollTop = el.scrollHeight;
    followNext.current = false;
    shown.current = { first, last, height: el.scrollHeight || 1 };
  }, [state]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM_PX;
  };

  const loadOlder = () => {
    if (state.status !== 'ready' || state.older.status === 'loading' || !selectHasOlder(state)) return;
    const requestId = nextRequestId();
    dispatch({ type: 'history/olderStarted', requestId });
    storeDispatch(staffApi.endpoints.history.initiate({ id, limit: HISTORY_PAGE_SIZE, skip: selectOlderSkip(state) }, freshly)).unwrap().then(
      (page) => dispatch({ type: 'history/olderLoaded', requestId, page }),
      (e: unknown) => dispatch({ type: 'history/olderFailed', requestId, code: codeOf(e) }),
    );
  };

  const lastSession = messages[messages.length - 1]?.session_id ?? '';
  const send = async (body: ReplyBody) => {
    const answer = await storeDispatch(staffApi.endpoints.reply.initiate({ id, body }, untracked)).unwrap();
    // Shown at once; the server's `messaging` copy of it has the same _id and is not added again.
    const own: ChatMessage = {
      _id: answer._id,
      sender: 'other',
      message: body.message,
      message_type: body.message_type,
      payload: body.payload ?? null,
      userId: null,
      guestId: null,
      username: staff.username,
      name: staff.name,
      createdAt: answer.createdAt,
      session_id: lastSession,
      read: false,
    };
    followNext.current = true;
    dispatch({ type: 'history/messageArrived', message: own });
  };

  const askClose = () => {
    setCloseFlow({ status: 'confirming' });
  };
  useEffect(() => {
    if (closeFlow.status === 'confirming') cancelButton.current?.focus();
  }, [closeFlow.status]);
  const cancelClose = () => {
    setCloseFlow({ status: 'idle' });
    requestAnimationFrame(() => closeButton.current?.focus());
  };
  const confirmClose = async () => {
    setCloseFlow({ status: 'closing' });
    try {
      await storeDispatch(staffApi.endpoints.close.initiate(id, untracked)).unwrap();
      dispatch({ type: 'history/closed' });
      setCloseFlow({ status: 'idle' });
      requestAnimationFrame(() => closedNote.current?.focus());
    } catch (e) {
      setCloseFlow({ status: 'failed', code: codeOf(e) });
    }
  };

  const closed = state.status === 'ready' && state.closed;
  return (
    <section className="conversation" aria-labelledby={`conversation-${id}`}>
      <header className="conversation__header">
        <Link to={backTo} className="conversation__back">
          ← {t('conversations.back')}
        </Link>
        <h2 id={`conversation-${id}`} ref={heading} tabIndex={-1}>
          {customerName}
        </h2>
        {state.status === 'ready' && !closed && closeFlow.status !== 'confirming' && (
          <button ref={closeButton} type="button" className="staff-button staff-button--danger" onClick={askClose} disabled={closeFlow.status === 'closing'}>
            {closeFlow.status === 'closing' ? t('view.closing') : t('view.close')}
          </button>
        )}
      </header>
      {closeFlow.status === 'confirming' && (
        <div className="staff-confirm" role="alertdialog" aria-labelledby={`close-${id}`} onKeyDown={(e) => e.key === 'Escape' && cancelClose()}>
          <p id={`close-${id}`}>{t('view.closeConfirm')}</p>
          <div className="staff-confirm__actions">
            <button type="button" className="staff-button staff-button--danger" onClick={() => void confirmClose()}>
              {t('view.closeYes')}
            </button>
            <button ref={cancelButton} type="button" className="staff-button" onClick={cancelClose}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      )}
      {closeFlow.status === 'failed' && (
        <p className="staff-alert staff-alert--error" role="alert">
          {errorText(closeFlow.code)}
        </p>
      )}

      {/* Focusable so the history scrolls from the keyboard too (arrow keys, Page Up). */}
      <div className="conversation__scroll" ref={scroller} onScroll={onScroll} tabIndex={0} role="region" aria-label={t('view.history')}>
        {state.status === 'loading' && (
          <p className="staff-muted" role="status">
            {t('common.loading')}
          </p>
        )}
        {state.status === 'failed' && (
          <div className="staff-alert staff-alert--error" role="alert">
            <p>{t('view.loadFailed')}</p>
            <p>{errorText(state.code)}</p>
            <button type="button" className="staff-button" onClick={() => setAttempt((n) => n + 1)}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {state.status === 'ready' && (
          <>
            <div className="conversation__older">
              {selectHasOlder(state) ? (
                <button type="button" className="staff-button" onClick={loadOlder} disabled={state.older.status === 'loading'} aria-busy={state.older.status === 'loading'}>
                  {state.older.status === 'loading' ? t('view.loadingOlder') : t('view.loadOlder')}
                </button>
              ) : (
                <p className="staff-muted">{t('view.start')}</p>
              )}
              {state.older.status === 'failed' && (
                <p className="staff-alert staff-alert--error" role="alert">
                  {errorText(state.older.code)}
                </p>
              )}
            </div>
            <ol className="messages" aria-label={t('view.messages')}>
              {state.messages.map((m, i) => {
                const sender = senderOf(m);
                const who =
                  sender.kind === 'customer' ? customerName : sender.kind === 'bot' ? (sender.name ?? t('sender.bot')) : (sender.name ?? t('sender.staff'));
                const newSession = i > 0 && m.session_id !== state.messages[i - 1].session_id;
                return (
                  <Fragment key={m._id}>
                    {newSession && (
                      <li className="messages__divider">
                        <span>{t('view.newSession')}</span>
                      </li>
                    )}
                    <li className={`msg msg--${sender.kind}`}>
                      <p className="msg__meta">
                        <span className="msg__who">{who}</span> <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                      </p>
                      <MessageBody view={messageView(m)} />
                    </li>
                  </Fragment>
                );
              })}
            </ol>
            {closed && (
              <p className="conversation__closed" ref={closedNote} tabIndex={-1}>
                {t('view.closedNotice')}
              </p>
            )}
          </>
        )}
      </div>
      {/* Always there, so a draft survives the reload after a reconnect. */}
      <Composer onSend={send} />
    </section>
  );
}
