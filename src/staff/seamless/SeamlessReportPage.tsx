import { useId, useState, type FormEvent } from 'react';

import { useStaffI18n } from '../i18n/I18n';
import { codeOf } from '../requestId';
import { formatMoney } from '../reviews/money';
import { PageHeading } from '../shell/PageHeading';
import { useSeamlessReportQuery, type ReportRange, type SeamlessReportRow } from './api';
import './seamless.css';

/** A UTC day (YYYY-MM-DD) `days` before today's. */
function utcDay(daysBack = 0): string {
  return new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10);
}

/**
 * /staff/seamless (payments, admin): the seamless games' rounds per game and UTC day of a period (the last 7 days at
 * first), each row checked against the ledger (the game's seamless_house accounts must move by bets - wins -
 * rollbacks that day). A mismatch is written out in its row, never shown by colour alone.
 */
export function SeamlessReportPage() {
  const { t, errorText, locale } = useStaffI18n();
  const [from, setFrom] = useState(() => utcDay(6));
  const [to, setTo] = useState(() => utcDay());
  const [range, setRange] = useState<ReportRange>({ from, to });
  // The latest answer for this range wins (RTK Query); a refused range shows its code until another is asked.
  const { currentData, error, isFetching, refetch } = useSeamlessReportQuery(range);
  const hintId = useId();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (range.from === from && range.to === to) void refetch();
    else setRange({ from, to });
  };

  const failed = !!error && !isFetching;
  const report = failed ? undefined : currentData;
  const caption = report ? t('seamless.report.table', { from: report.from, to: report.to }) : '';

  return (
    <div className="seamless-report">
      <PageHeading>{t('seamless.report.title')}</PageHeading>
      <p className="staff-muted">{t('seamless.report.intro')}</p>
      <form className="seamless-report__form" onSubmit={onSubmit} noValidate>
        <fieldset className="seamless-report__range" aria-describedby={hintId}>
          <legend>{t('seamless.report.range')}</legend>
          <div className="staff-field">
            <label htmlFor="seamless-from">{t('seamless.report.from')}</label>
            <input id="seamless-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />
          </div>
          <div className="staff-field">
            <label htmlFor="seamless-to">{t('seamless.report.to')}</label>
            <input id="seamless-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} required />
          </div>
          <span id={hintId} className="staff-muted">
            {t('seamless.report.rangeHint')}
          </span>
        </fieldset>
        <button type="submit" className="staff-button staff-button--primary" disabled={isFetching} aria-busy={isFetching}>
          {t('seamless.report.submit')}
        </button>
      </form>

      {isFetching && (
        <p className="staff-muted" role="status">
          {t('common.loading')}
        </p>
      )}
      {failed && (
        <div className="staff-alert staff-alert--error" role="alert">
          <p>
            {t('seamless.report.loadFailed')} {errorText(codeOf(error))}
          </p>
          <button type="button" className="staff-button" onClick={() => void refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {report && !isFetching && report.rows.length === 0 && <p className="staff-muted">{t('seamless.report.empty')}</p>}
      {report && !isFetching && report.rows.length > 0 && (
        <>
          {report.mismatches > 0 ? (
            <p className="staff-alert staff-alert--error seamless-report__summary" role="alert">
              {t('seamless.report.mismatches', { count: report.mismatches })}
            </p>
          ) : (
            <p className="staff-alert staff-alert--info seamless-report__summary" role="status">
              {t('seamless.report.allMatch')}
            </p>
          )}
          {/* Focusable, so the table can be scrolled sideways from the keyboard when a narrow window cuts it. */}
          <div className="seamless-table-wrap" role="region" aria-label={caption} tabIndex={0}>
            <table className="seamless-table">
              <caption>{caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('seamless.report.col.day')}</th>
                  <th scope="col">{t('seamless.report.col.game')}</th>
                  <th scope="col">{t('seamless.report.col.rounds')}</th>
                  <th scope="col">{t('seamless.report.col.betCount')}</th>
                  <th scope="col">{t('seamless.report.col.bets')}</th>
                  <th scope="col">{t('seamless.report.col.wins')}</th>
                  <th scope="col">{t('seamless.report.col.rollbacks')}</th>
                  <th scope="col">{t('seamless.report.col.net')}</th>
                  <th scope="col">{t('seamless.report.col.ledger')}</th>
                  <th scope="col">{t('seamless.report.col.check')}</th>
                </tr>
              </thead>
              <tbody>
                {report.rows.map((r) => (
                  <ReportLine key={`${r.day}:${r.gameCode}:${r.currency}`} row={r} money={(amount) => formatMoney(locale, r.currency, amount)} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

function ReportLine({ row: r, money }: { row: SeamlessReportRow; money: (amount: number) => string }) {
  const { t } = useStaffI18n();
  return (
    <tr className={r.mismatch ? 'seamless-report__mismatch-row' : undefined}>
      <td data-label={t('seamless.report.col.day')}>
        <time dateTime={r.day}>{r.day}</time>
      </td>
      <td data-label={t('seamless.report.col.game')}>{r.gameName}</td>
      <td data-label={t('seamless.report.col.rounds')} className="seamless-table__amount">
        {r.rounds}
      </td>
      <td data-label={t('seamless.report.col.betCount')} className="seamless-table__amount">
        {r.bets.count}
      </td>
      <td data-label={t('seamless.report.col.bets')} className="seamless-table__amount">
        {money(r.bets.amount)}
      </td>
      <td data-label={t('seamless.report.col.wins')} className="seamless-table__amount">
        {money(r.wins.amount)}
      </td>
      <td data-label={t('seamless.report.col.rollbacks')} className="seamless-table__amount">
        {money(r.rollbacks.amount)}
      </td>
      <td data-label={t('seamless.report.col.net')} className="seamless-table__amount">
        {money(r.net)}
      </td>
      <td data-label={t('seamless.report.col.ledger')} className="seamless-table__amount">
        {money(r.ledger)}
      </td>
      <td data-label={t('seamless.report.col.check')}>
        {r.mismatch ? (
          <>
            <span className="seamless-check seamless-check--mismatch">{t('seamless.report.mismatch')}</span>
            <span className="seamless-check__difference">{t('seamless.report.difference', { amount: money(r.difference) })}</span>
          </>
        ) : (
          <span className="seamless-check seamless-check--ok">{t('seamless.report.match')}</span>
        )}
      </td>
    </tr>
  );
}
