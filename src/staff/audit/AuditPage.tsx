import { useEffect, useMemo, useRef, useState } from 'react';

import { useStaffI18n } from '../i18n/I18n';
import { TEXTS, type TextKey } from '../i18n/texts';
import { codeOf } from '../requestId';
import { PageHeading } from '../shell/PageHeading';
import { selectAuditEntries, useAuditLogInfiniteQuery, type AuditEntry } from './api';
import './audit.css';

type Log =
  | { status: 'loading' }
  | { status: 'failed'; code: string }
  | { status: 'ready'; entries: AuditEntry[]; hasOlder: boolean; older: { status: 'idle' } | { status: 'loading' } | { status: 'failed'; code: string } };

/** focusRow's value for "no older entry came". */
const NONE = -1;

const known = (key: string): key is TextKey => key in TEXTS.en;

/**
 * /staff/audit (admin): every staff action, newest first, 50 at a time; "Load older" continues below the oldest
 * entry shown (`before` its id), so entries written meanwhile never shift the pages.
 */
export function AuditPage() {
  const { t, errorText, formatDateTime } = useStaffI18n();
  // The pages of the log, and "Load older" as the next page (RTK Query's infinite query: the latest answer wins).
  const { data, error, isFetching, isFetchingNextPage, isFetchNextPageError, hasNextPage, fetchNextPage, refetch } = useAuditLogInfiniteQuery();
  const entries = useMemo(() => (data ? selectAuditEntries(data) : []), [data]);
  const log: Log = !data
    ? error && !isFetching
      ? { status: 'failed', code: codeOf(error) }
      : { status: 'loading' }
    : {
        status: 'ready',
        entries,
        hasOlder: hasNextPage,
        older: isFetchingNextPage ? { status: 'loading' } : isFetchNextPageError ? { status: 'failed', code: codeOf(error) } : { status: 'idle' },
      };
  const [focusAsked, setFocusAsked] = useState(0);
  const focusRow = useRef<number | null>(null);
  const table = useRef<HTMLTableSectionElement>(null);
  const startNote = useRef<HTMLParagraphElement>(null);

  // After "Load older", the first of the older entries takes the focus (the reader continues from there), or the
  // "start of the log" note when there were none (the button it replaces had the focus).
  useEffect(() => {
    if (focusRow.current === null) return;
    if (focusRow.current === NONE) startNote.current?.focus();
    else table.current?.querySelector<HTMLElement>(`[data-entry="${focusRow.current}"]`)?.focus();
    focusRow.current = null;
  }, [focusAsked]);

  const loadOlder = async () => {
    if (log.status !== 'ready' || log.older.status === 'loading' || log.entries.length === 0) return;
    const result = await fetchNextPage();
    if (result.isError || !result.data) return;
    const { pages } = result.data;
    focusRow.current = pages[pages.length - 1].entries[0]?.id ?? NONE;
    setFocusAsked((n) => n + 1);
  };

  const actionText = (e: AuditEntry) => {
    const key = `audit.action.${e.action}`;
    const base = known(key) ? t(key) : e.action;
    const from = e.detail?.from;
    const to = e.detail?.to;
    if (e.action === 'player.status' && typeof from === 'string' && typeof to === 'string') {
      const status = (s: string) => {
        const k = `players.status.${s}`;
        return known(k) ? t(k) : s;
      };
      return `${base}: ${t('audit.statusChange', { from: status(from), to: status(to) })}`;
    }
    return base;
  };
  const subjectText = (e: AuditEntry) => {
    const key = `audit.subject.${e.subjectType}`;
    return known(key) ? t(key, { id: e.subjectId }) : `${e.subjectType} ${e.subjectId}`;
  };

  return (
    <div className="audit">
      <PageHeading>{t('audit.title')}</PageHeading>
      {log.status === 'loading' && (
        <p className="staff-muted" role="status">
          {t('common.loading')}
        </p>
      )}
      {log.status === 'failed' && (
        <div className="staff-alert staff-alert--error" role="alert">
          <p>{t('audit.loadFailed')}</p>
          <p>{errorText(log.code)}</p>
          <button type="button" className="staff-button" onClick={() => void refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {log.status === 'ready' && log.entries.length === 0 && <p className="staff-muted">{t('audit.empty')}</p>}
      {log.status === 'ready' && log.entries.length > 0 && (
        <>
          {/* Focusable, so the log can be scrolled from the keyboard (sideways too, when a narrow window cuts the table). */}
          <div className="audit-table-wrap" role="region" aria-label={t('audit.table')} tabIndex={0}>
            <table className="audit-table">
              <caption>{t('audit.table')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('audit.col.when')}</th>
                  <th scope="col">{t('audit.col.who')}</th>
                  <th scope="col">{t('audit.col.action')}</th>
                  <th scope="col">{t('audit.col.subject')}</th>
                  <th scope="col">{t('audit.col.reason')}</th>
                </tr>
              </thead>
              <tbody ref={table}>
                {log.entries.map((e) => (
                  <tr key={e.id} data-entry={e.id} tabIndex={-1}>
                    <td data-label={t('audit.col.when')}>
                      <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                    </td>
                    <td data-label={t('audit.col.who')}>
                      {e.staff.name} <span className="staff-muted">({e.staff.username})</span>
                    </td>
                    <td data-label={t('audit.col.action')}>{actionText(e)}</td>
                    <td data-label={t('audit.col.subject')}>{subjectText(e)}</td>
                    <td data-label={t('audit.col.reason')} className="audit-table__reason">
                      {e.reason || t('audit.noReason')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="audit__older">
            {log.hasOlder ? (
              <button type="button" className="staff-button" onClick={() => void loadOlder()} disabled={log.older.status === 'loading'} aria-busy={log.older.status === 'loading'}>
                {log.older.status === 'loading' ? t('audit.loadingOlder') : t('audit.loadOlder')}
              </button>
            ) : (
              <p className="staff-muted" ref={startNote} tabIndex={-1}>
                {t('audit.start')}
              </p>
            )}
            {log.older.status === 'failed' && (
              <p className="staff-alert staff-alert--error" role="alert">
                {errorText(log.older.code)}
              </p>
            )}
          </div>
        </>
      )}
    </div>
  );
}
