import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';

import { useStaffI18n } from '../i18n/I18n';
import { useLive, useLiveEvent } from '../live/Live';
import { codeOf, nextRequestId } from '../requestId';
import { useAnnounce } from '../shell/Announcer';
import { PageHeading } from '../shell/PageHeading';
import { useStaffSession } from '../session/Session';
import { freshly, staffApi } from '../staffApi';
import { useStaffDispatch } from '../store';
import type { ConversationFilter, ConversationSummary } from '../types';
import { conversationListReducer, initialConversationList, selectTotalUnread } from './conversationList';
import { ConversationView } from './ConversationView';
import { customerLabel, customerOf } from './participants';

const FILTERS: readonly ConversationFilter[] = ['open', 'closed'];

const filterOf = (value: string | null): ConversationFilter => (value === 'closed' ? 'closed' : 'open');

/**
 * /staff/conversations[/<id>][?status=open|closed]: the list (live through `conversation` events) beside the
 * open conversation; on a narrow screen one or the other.
 */
export function ConversationsPage() {
  const { t, errorText, formatDateTime } = useStaffI18n();
  const storeDispatch = useStaffDispatch();
  const { session } = useStaffSession();
  const { reconnects } = useLive();
  const announce = useAnnounce();
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params.get('status'));
  const selected = useParams()['*'] || null;
  const [list, dispatch] = useReducer(conversationListReducer, filter, (f) => initialConversationList(f, ''));
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const requestId = nextRequestId();
    dispatch({ type: 'conversations/loadStarted', filter, requestId });
    storeDispatch(staffApi.endpoints.conversations.initiate(filter, freshly)).unwrap().then(
      ({ conversations }) => dispatch({ type: 'conversations/loaded', requestId, conversations }),
      (e: unknown) => dispatch({ type: 'conversations/loadFailed', requestId, code: codeOf(e) }),
    );
  }, [filter, reconnects, attempt, storeDispatch]);

  // A conversation not on screen that has new unread messages is read out; the open one reads its own.
  const known = useRef(new Map<string, number>());
  useEffect(() => {
    if (list.status === 'ready') known.current = new Map(list.items.map((c) => [String(c.id), c.unread]));
  }, [list]);
  useLiveEvent('conversation', (c) => {
    const before = known.current.get(String(c.id)) ?? 0;
    if (String(c.id) !== selected && c.unread > before && c.status !== 'closed') {
      announce(t('announce.newMessage', { name: customerLabel(customerOf(c), t), text: c.lastMessage ?? '' }));
    }
    dispatch({ type: 'conversations/conversationChanged', conversation: c });
  });

  const totalUnread = selectTotalUnread(list);
  useEffect(() => {
    const title = t('app.title');
    document.title = totalUnread > 0 ? `(${totalUnread}) ${title}` : title;
  }, [totalUnread, t]);

  const onRead = useCallback((id: string) => dispatch({ type: 'conversations/markedRead', id }), []);

  const query = filter === 'closed' ? '?status=closed' : '';
  const summary = list.status === 'ready' && selected ? list.items.find((c) => String(c.id) === selected) : undefined;
  const staff = session.status === 'signedIn' ? session.staff : null;

  return (
    <div className={`conversations${selected ? ' conversations--viewing' : ''}`}>
      <section className="conversations__list" aria-labelledby="conversations-title">
        <PageHeading>
          <span id="conversations-title">{t('conversations.title')}</span>
        </PageHeading>
        <fieldset className="segmented">
          <legend>{t('conversations.filter')}</legend>
          {FILTERS.map((f) => (
            <label key={f} className={f === filter ? 'segmented__on' : undefined}>
              <input
                type="radio"
                name="conversation-filter"
                value={f}
                checked={f === filter}
                onChange={() => setParams(f === 'open' ? {} : { status: f }, { replace: true })}
              />
              {t(`conversations.filter.${f}`)}
            </label>
          ))}
        </fieldset>

        {list.status === 'loading' && (
          <p className="staff-muted" role="status">
            {t('common.loading')}
          </p>
        )}
        {list.status === 'failed' && (
          <div className="staff-alert staff-alert--error" role="alert">
            <p>{t('conversations.loadFailed')}</p>
            <p>{errorText(list.code)}</p>
            <button type="button" className="staff-button" onClick={() => setAttempt((n) => n + 1)}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {list.status === 'ready' && list.items.length === 0 && <p className="staff-muted">{t(`conversations.empty.${filter}`)}</p>}
        {list.status === 'ready' && list.items.length > 0 && (
          <ul className="conversation-list" aria-label={t('conversations.list')}>
            {list.items.map((c) => (
              <ConversationItem key={String(c.id)} conversation={c} current={String(c.id) === selected} to={`/conversations/${encodeURIComponent(String(c.id))}${query}`} when={formatDateTime(c.lastAt)} />
            ))}
          </ul>
        )}
      </section>
      <div className="conversations__view">
        {selected && staff ? (
          <ConversationView key={selected} id={selected} summary={summary} staff={staff} backTo={`/conversations${query}`} onRead={onRead} />
        ) : (
          <p className="conversations__choose staff-muted">{t('conversations.choose')}</p>
        )}
      </div>
    </div>
  );
}

function ConversationItem({ conversation: c, current, to, when }: { conversation: ConversationSummary; current: boolean; to: string; when: string }) {
  const { t } = useStaffI18n();
  return (
    <li className={`conversation-item conversation-item--${c.status}${c.unread > 0 ? ' conversation-item--unread' : ''}`}>
      <Link to={to} aria-current={current ? 'page' : undefined} className="conversation-item__link">
        <span className="conversation-item__top">
          <span className="conversation-item__who">{customerLabel(customerOf(c), t)}</span>
          {c.unread > 0 && <span className="badge">{t('conversations.unread', { count: c.unread })}</span>}
        </span>
        <span className="conversation-item__last">{c.lastMessage || t('conversations.noMessage')}</span>
        <span className="conversation-item__bottom">
          <time dateTime={c.lastAt}>{when}</time>
          <span className={`status status--${c.status}`}>{t(`conversations.status.${c.status}`)}</span>
        </span>
      </Link>
    </li>
  );
}
