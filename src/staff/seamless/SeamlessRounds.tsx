import { Fragment, useEffect, useId, useMemo, useRef, useState } from 'react';

import { useStaffI18n } from '../i18n/I18n';
import { codeOf } from '../requestId';
import { formatMoney } from '../reviews/money';
import { useSeamlessRoundsInfiniteQuery, type SeamlessRound } from './api';
import './seamless.css';

/** focusRound's value for "no older round came". */
const NONE = '';

const roundKey = (r: SeamlessRound) => `${r.gameCode}:${r.roundId}`;

/**
 * The player view's "Seamless rounds" (issue 42): the player's rounds at seamless games, newest first, 20 at a time;
 * "More rounds" continues below the oldest shown (the server's cursor, so rounds started meanwhile never shift the
 * pages). Each round's transactions open under it with a disclosure button (aria-expanded).
 */
export function SeamlessRounds({ playerId }: { playerId: number }) {
  const { t, errorText, formatDateTime, locale } = useStaffI18n();
  const { data, error, isFetching, isFetchingNextPage, isFetchNextPageError, hasNextPage, fetchNextPage, refetch } = useSeamlessRoundsInfiniteQuery(playerId);
  const rounds = useMemo(() => data?.pages.flatMap((p) => p.rounds) ?? [], [data]);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [focusAsked, setFocusAsked] = useState(0);
  const focusRound = useRef<string | null>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const endNote = useRef<HTMLParagraphElement>(null);
  const titleId = useId();
  const hintId = useId();

  // After "More rounds", the first of the older rounds takes the focus (the reader continues there), or the "no
  // older rounds" note when none came (the button it replaces had the focus).
  useEffect(() => {
    if (focusRound.current === null) return;
    if (focusRound.current === NONE) endNote.current?.focus();
    else {
      // Compared as text, not in a selector: a round id is the aggregator's and may hold any character.
      const key = focusRound.current;
      [...(body.current?.querySelectorAll<HTMLElement>('[data-round]') ?? [])].find((row) => row.dataset.round === key)?.focus();
    }
    focusRound.current = null;
  }, [focusAsked]);

  const more = async () => {
    if (isFetchingNextPage) return;
    const result = await fetchNextPage();
    if (result.isError || !result.data) return;
    const { pages } = result.data;
    const first = pages[pages.length - 1].rounds[0];
    focusRound.current = first ? roundKey(first) : NONE;
    setFocusAsked((n) => n + 1);
  };

  const toggle = (key: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const failed = !data && error && !isFetching;
  const col = {
    game: t('seamless.col.game'),
    round: t('seamless.col.round'),
    started: t('seamless.col.started'),
    last: t('seamless.col.last'),
    bets: t('seamless.col.bets'),
    wins: t('seamless.col.wins'),
    rollbacks: t('seamless.col.rollbacks'),
    net: t('seamless.col.net'),
    state: t('seamless.col.state'),
    transactions: t('seamless.col.transactions'),
  };

  return (
    <section className="seamless-rounds" aria-labelledby={titleId} aria-describedby={hintId}>
      <h3 id={titleId}>{t('seamless.rounds.title')}</h3>
      <p id={hintId} className="staff-muted seamless-rounds__hint">
        {t('seamless.rounds.hint')}
      </p>
      {!data && !failed && (
        <p className="staff-muted" role="status">
          {t('common.loading')}
        </p>
      )}
      {failed && (
        <div className="staff-alert staff-alert--error" role="alert">
          <p>
            {t('seamless.rounds.loadFailed')} {errorText(codeOf(error))}
          </p>
          <button type="button" className="staff-button" onClick={() => void refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {data && rounds.length === 0 && <p className="staff-muted">{t('seamless.rounds.empty')}</p>}
      {data && rounds.length > 0 && (
        <>
          {/* Focusable, so a table wider than a narrow window can be scrolled sideways from the keyboard. */}
          <div className="seamless-table-wrap" role="region" aria-label={t('seamless.rounds.table')} tabIndex={0}>
            <table className="seamless-table">
              <caption>{t('seamless.rounds.table')}</caption>
              <thead>
                <tr>
                  <th scope="col">{col.game}</th>
                  <th scope="col">{col.round}</th>
                  <th scope="col">{col.started}</th>
                  <th scope="col">{col.last}</th>
                  <th scope="col">{col.bets}</th>
                  <th scope="col">{col.wins}</th>
                  <th scope="col">{col.rollbacks}</th>
                  <th scope="col">{col.net}</th>
                  <th scope="col">{col.state}</th>
                  <th scope="col">{col.transactions}</th>
                </tr>
              </thead>
              <tbody ref={body}>
                {rounds.map((r) => {
                  const key = roundKey(r);
                  const expanded = open.has(key);
                  const detailsId = `seamless-tx-${playerId}-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
                  const money = (amount: number) => formatMoney(locale, r.currency, amount);
                  return (
                    <Fragment key={key}>
                      <tr data-round={key} tabIndex={-1}>
                        <td data-label={col.game}>{r.gameName}</td>
                        <td data-label={col.round} className="seamless-table__id">
                          {r.roundId}
                        </td>
                        <td data-label={col.started}>
                          <time dateTime={r.firstAt}>{formatDateTime(r.firstAt)}</time>
                        </td>
                        <td data-label={col.last}>
                          <time dateTime={r.lastAt}>{formatDateTime(r.lastAt)}</time>
                        </td>
                        <td data-label={col.bets} className="seamless-table__amount">
                          {money(r.bets)}
                        </td>
                        <td data-label={col.wins} className="seamless-table__amount">
                          {money(r.wins)}
                        </td>
                        <td data-label={col.rollbacks} className="seamless-table__amount">
                          {money(r.rollbacks)}
                        </td>
                        <td data-label={col.net} className="seamless-table__amount">
                          {money(r.net)}
                        </td>
                        <td data-label={col.state}>
                          <span className={`seamless-state seamless-state--${r.status}`}>{t(`seamless.state.${r.status}`)}</span>
                        </td>
                        <td data-label={col.transactions}>
                          <button type="button" className="staff-button seamless-toggle" aria-expanded={expanded} aria-controls={detailsId} onClick={() => toggle(key)}>
                            {t('seamless.roundTransactions', { round: r.roundId, count: r.transactions.length })}
                          </button>
                        </td>
                      </tr>
                      <tr id={detailsId} className="seamless-table__details" hidden={!expanded}>
                        <td colSpan={10}>
                          {expanded && (
                            <table className="seamless-tx">
                              <caption>{t('seamless.tx.table', { round: r.roundId })}</caption>
                              <thead>
                                <tr>
                                  <th scope="col">{t('seamless.tx.when')}</th>
                                  <th scope="col">{t('seamless.tx.kind')}</th>
                                  <th scope="col">{t('seamless.tx.amount')}</th>
                                  <th scope="col">{t('seamless.tx.status')}</th>
                                  <th scope="col">{t('seamless.tx.uuid')}</th>
                                  <th scope="col">{t('seamless.tx.reference')}</th>
                                </tr>
                              </thead>
                              <tbody>
                                {r.transactions.map((x) => (
                                  <tr key={x.uuid} className={x.status === 'REFUSED' ? 'seamless-tx__refused' : undefined}>
                                    <td data-label={t('seamless.tx.when')}>
                                      <time dateTime={x.createdAt}>{formatDateTime(x.createdAt)}</time>
                                    </td>
                                    <td data-label={t('seamless.tx.kind')}>{t(`seamless.kind.${x.kind}`)}</td>
                                    <td data-label={t('seamless.tx.amount')} className="seamless-table__amount">
                                      {money(x.amount)}
                                    </td>
                                    <td data-label={t('seamless.tx.status')}>{t(`seamless.status.${x.status}`)}</td>
                                    <td data-label={t('seamless.tx.uuid')} className="seamless-table__id">
                                      {x.uuid}
                                    </td>
                                    <td data-label={t('seamless.tx.reference')} className="seamless-table__id">
                                      {x.reference ?? ''}
                                    </td>
                                  </tr>
                                ))}
                              </tbody>
                            </table>
                          )}
                        </td>
                      </tr>
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="seamless-rounds__more">
            {hasNextPage ? (
              <button type="button" className="staff-button" onClick={() => void more()} disabled={isFetchingNextPage} aria-busy={isFetchingNextPage}>
                {isFetchingNextPage ? t('seamless.rounds.loadingMore') : t('seamless.rounds.more')}
              </button>
            ) : (
              <p className="staff-muted" ref={endNote} tabIndex={-1}>
                {t('seamless.rounds.end')}
              </p>
            )}
            {isFetchNextPageError && (
              <p className="staff-alert staff-alert--error" role="alert">
                {errorText(codeOf(error))}
              </p>
            )}
          </div>
        </>
      )}
    </section>
  );
}
