import { useEffect, useRef, useState } from 'react';

import { useStaffI18n } from '../i18n/I18n';
import { codeOf } from '../requestId';
import { ConfirmAction } from '../reviews/ConfirmAction';
import { formatMoney } from '../reviews/money';
import { useAnnounce } from '../shell/Announcer';
import { PageHeading } from '../shell/PageHeading';
import { useFailPayoutMutation, usePayoutsQuery, useSettlePayoutMutation, type Payout } from './api';
import '../reviews/backoffice.css';
import './payouts.css';

type Load = { status: 'loading' } | { status: 'ready'; payouts: Payout[] } | { status: 'failed'; code: string };
type Action = 'settle' | 'fail';
interface Pending {
  payout: Payout;
  action: Action;
}

const actionButtonId = (action: Action, id: string) => `payout-${action}-${id}`;

/**
 * /staff/payouts: withdrawals still in progress (overdue ones by default, or all), each with what the provider says
 * about it; settle one as paid or fail it (the server returns the money to the wallet), with a reason.
 */
export function PayoutsPage() {
  const { t, errorText, locale } = useStaffI18n();
  const announce = useAnnounce();
  const [all, setAll] = useState(false);
  // The latest answer for this filter wins (RTK Query); a reload keeps the list, or the failure, until it answers.
  const { currentData, error, refetch } = usePayoutsQuery(!all);
  const load: Load = error ? { status: 'failed', code: codeOf(error) } : currentData ? { status: 'ready', payouts: currentData.payouts } : { status: 'loading' };
  const [settle] = useSettlePayoutMutation();
  const [fail] = useFailPayoutMutation();
  const [pending, setPending] = useState<Pending | null>(null);
  const listRegion = useRef<HTMLDivElement>(null);
  /** Where the focus goes once a confirmation closes: the button that opened it, or the list when that row left. */
  const focusAfter = useRef<string | 'list' | null>(null);

  const money = (p: Payout) => formatMoney(locale, p.currency, p.amount);

  useEffect(() => {
    if (pending || !focusAfter.current) return;
    const target = focusAfter.current;
    const button = target === 'list' ? null : document.getElementById(target);
    if (target === 'list' || button || load.status !== 'loading') {
      focusAfter.current = null;
      (button ?? listRegion.current)?.focus();
    }
  }, [pending, load.status, currentData, error]);

  const open = (payout: Payout, action: Action) => setPending({ payout, action });
  const cancel = () => {
    if (pending) focusAfter.current = actionButtonId(pending.action, pending.payout.id);
    setPending(null);
  };

  const send = async (reason: string) => {
    if (!pending) return;
    const { payout, action } = pending;
    // The decision itself reloads the list (its endpoint invalidates it).
    await (action === 'settle' ? settle : fail)({ id: payout.id, reason }).unwrap();
    focusAfter.current = 'list';
    setPending(null);
    announce(t(action === 'settle' ? 'payouts.done.settle' : 'payouts.done.fail', { amount: money(payout), phone: payout.player.phone }));
  };

  const caption = all ? t('payouts.table.all') : t('payouts.table.overdue');

  return (
    <div className="payouts">
      <PageHeading>{t('payouts.title')}</PageHeading>
      <div className="bo-filter">
        <label className="bo-filter__option">
          <input
            type="checkbox"
            checked={all}
            onChange={(e) => {
              setPending(null);
              setAll(e.target.checked);
            }}
          />
          {t('payouts.showAll')}
        </label>
        <button type="button" className="staff-button" onClick={() => void refetch()}>
          {t('payouts.refresh')}
        </button>
      </div>
      <p className="staff-muted payouts__hint">{all ? t('payouts.hint.all') : t('payouts.hint.overdue')}</p>

      <div className="bo-list" ref={listRegion} role="region" aria-label={caption} tabIndex={0} aria-busy={load.status === 'loading'}>
        {load.status === 'loading' && (
          <p className="staff-muted" role="status">
            {t('common.loading')}
          </p>
        )}
        {load.status === 'failed' && (
          <div className="staff-alert staff-alert--error" role="alert">
            <p>
              {t('payouts.loadFailed')} {errorText(load.code)}
            </p>
            <button type="button" className="staff-button" onClick={() => void refetch()}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {load.status === 'ready' && load.payouts.length === 0 && <p className="staff-muted">{all ? t('payouts.empty.all') : t('payouts.empty.overdue')}</p>}
        {load.status === 'ready' && load.payouts.length > 0 && (
          <table className="bo-table">
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t('payouts.col.player')}</th>
                <th scope="col">{t('payouts.col.amount')}</th>
                <th scope="col">{t('payouts.col.bank')}</th>
                <th scope="col">{t('payouts.col.requested')}</th>
                <th scope="col">{t('payouts.col.age')}</th>
                <th scope="col">{t('payouts.col.provider')}</th>
                <th scope="col">{t('payouts.col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {load.payouts.map((p) => (
                <PayoutRow key={p.id} payout={p} money={money(p)} chosen={pending?.payout.id === p.id ? pending.action : null} onAction={(a) => open(p, a)} />
              ))}
            </tbody>
          </table>
        )}
      </div>

      {pending && (
        <section className="bo-details payouts__confirm" aria-labelledby="payout-confirm-title">
          <h2 id="payout-confirm-title">
            {t(pending.action === 'settle' ? 'payouts.settleTitle' : 'payouts.failTitle', { name: pending.payout.player.name, phone: pending.payout.player.phone })}
          </h2>
          <ConfirmAction
            key={`${pending.action}-${pending.payout.id}`}
            question={t(pending.action === 'settle' ? 'payouts.confirmSettle' : 'payouts.confirmFail', {
              amount: money(pending.payout),
              phone: pending.payout.player.phone,
            })}
            reasonLabel={t('payouts.reasonLabel')}
            confirmLabel={t(pending.action === 'settle' ? 'payouts.confirmSettleButton' : 'payouts.confirmFailButton')}
            busyLabel={t('payouts.saving')}
            danger={pending.action === 'fail'}
            onConfirm={send}
            onCancel={cancel}
          />
        </section>
      )}
    </div>
  );
}

function PayoutRow({ payout: p, money, chosen, onAction }: { payout: Payout; money: string; chosen: Action | null; onAction: (a: Action) => void }) {
  const { t, formatDateTime } = useStaffI18n();
  const hours = Math.floor(p.ageMinutes / 60);
  const age = hours > 0 ? t('payouts.age.hours', { hours, minutes: p.ageMinutes % 60 }) : t('payouts.age.minutes', { minutes: p.ageMinutes });
  const who = `${p.player.name} ${p.player.phone}`;
  return (
    <tr className={chosen ? 'bo-table__selected' : undefined}>
      <td data-label={t('payouts.col.player')}>
        <span className="payouts__who">
          {p.player.name}
          <br />
          {p.player.phone}
        </span>
      </td>
      <td data-label={t('payouts.col.amount')} className="bo-table__amount">
        {money}
      </td>
      <td data-label={t('payouts.col.bank')}>
        {p.bankCode} {p.bankAccountNo}
        <br />
        {p.bankAccountName}
      </td>
      <td data-label={t('payouts.col.requested')}>
        <time dateTime={p.requestedAt}>{formatDateTime(p.requestedAt)}</time>
      </td>
      <td data-label={t('payouts.col.age')}>{age}</td>
      <td data-label={t('payouts.col.provider')}>
        <span className={`bo-badge bo-badge--${p.providerStatus}`}>
          <span className="visually-hidden">{t('payouts.col.provider')}: </span>
          {t(`payouts.provider.${p.providerStatus}`)}
        </span>
      </td>
      <td data-label={t('payouts.col.actions')}>
        <span className="payouts__actions">
          <button id={actionButtonId('settle', p.id)} type="button" className="staff-button" aria-label={`${t('payouts.settle')}: ${who}`} onClick={() => onAction('settle')}>
            {t('payouts.settle')}
          </button>
          <button id={actionButtonId('fail', p.id)} type="button" className="staff-button staff-button--danger" aria-label={`${t('payouts.fail')}: ${who}`} onClick={() => onAction('fail')}>
            {t('payouts.fail')}
          </button>
        </span>
      </td>
    </tr>
  );
}
