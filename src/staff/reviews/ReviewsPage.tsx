import { useEffect, useRef, useState } from 'react';

import { useStaffI18n } from '../i18n/I18n';
import { codeOf } from '../requestId';
import { useAnnounce } from '../shell/Announcer';
import { PageHeading } from '../shell/PageHeading';
import { freshly } from '../staffApi';
import { useStaffDispatch } from '../store';
import { isPayoutReview, REVIEW_STATUSES, reviewsApi, useApproveReviewMutation, useRejectReviewMutation, useReviewsQuery, type Review, type ReviewStatus } from './api';
import { ConfirmAction } from './ConfirmAction';
import { formatMoney } from './money';
import './backoffice.css';
import './reviews.css';

type Load = { status: 'loading' } | { status: 'ready'; reviews: Review[] } | { status: 'failed'; code: string };
type Action = 'approve' | 'reject';

const rowButtonId = (id: string) => `review-open-${id}`;

/**
 * /staff/reviews: payments the code recorded for a person to decide (amount mismatch, unmatched slip, late webhook...).
 * A filter (open, approved, rejected), the list, and one payment's details; an open one can be approved (credited
 * once through the ledger by the server) or rejected (the player sees the reason in their statement).
 */
export function ReviewsPage() {
  const { t, errorText, locale } = useStaffI18n();
  const announce = useAnnounce();
  const dispatch = useStaffDispatch();
  const [filter, setFilter] = useState<ReviewStatus>('OPEN');
  // The latest answer for this filter wins (RTK Query); a reload keeps the list, or the failure, until it answers.
  const { currentData, error, refetch } = useReviewsQuery(filter);
  const load: Load = error ? { status: 'failed', code: codeOf(error) } : currentData ? { status: 'ready', reviews: currentData.reviews } : { status: 'loading' };
  const [selected, setSelected] = useState<Review | null>(null);
  const listRegion = useRef<HTMLDivElement>(null);
  /** Where the focus goes once the details close: the row's button, or the list when that row left it. */
  const focusAfterClose = useRef<string | 'list' | null>(null);

  const money = (r: Review) => formatMoney(locale, r.currency, r.amount);

  useEffect(() => {
    if (selected || !focusAfterClose.current) return;
    const target = focusAfterClose.current;
    const row = target === 'list' ? null : document.getElementById(rowButtonId(target));
    if (target === 'list' || row || load.status !== 'loading') {
      focusAfterClose.current = null;
      (row ?? listRegion.current)?.focus();
    }
  }, [selected, load.status, currentData, error]);

  const choose = (status: ReviewStatus) => {
    setSelected(null);
    focusAfterClose.current = null;
    setFilter(status);
  };

  const close = (focus: string | 'list') => {
    focusAfterClose.current = focus;
    setSelected(null);
  };

  // The decision itself reloads the list (its endpoint invalidates it).
  const decided = (answer: Review, action: Action) => {
    focusAfterClose.current = 'list';
    setSelected(null);
    announce(
      action === 'approve'
        ? t(isPayoutReview(answer.kind) ? `reviews.done.approve.${answer.kind}` : 'reviews.done.approve', { amount: money(answer), phone: answer.player?.phone ?? '' })
        : t('reviews.done.reject', { reference: answer.reference }),
    );
  };


  return (
    <div className="reviews">
      <PageHeading>{t('reviews.title')}</PageHeading>
      <fieldset className="bo-filter">
        <legend>{t('reviews.filter')}</legend>
        {REVIEW_STATUSES.map((s) => (
          <label key={s} className="bo-filter__option">
            <input type="radio" name="reviews-filter" value={s} checked={filter === s} onChange={() => choose(s)} />
            {t(`reviews.filter.${s}`)}
          </label>
        ))}
        <button type="button" className="staff-button" onClick={() => void refetch()}>
          {t('reviews.refresh')}
        </button>
      </fieldset>

      <div className={`reviews__layout ${selected ? 'reviews__layout--details' : ''}`}>
        <div className="bo-list" ref={listRegion} role="region" aria-label={t(`reviews.table.${filter}`)} tabIndex={0} aria-busy={load.status === 'loading'}>
          {load.status === 'loading' && (
            <p className="staff-muted" role="status">
              {t('common.loading')}
            </p>
          )}
          {load.status === 'failed' && (
            <div className="staff-alert staff-alert--error" role="alert">
              <p>
                {t('reviews.loadFailed')} {errorText(load.code)}
              </p>
              <button type="button" className="staff-button" onClick={() => void refetch()}>
                {t('common.retry')}
              </button>
            </div>
          )}
          {load.status === 'ready' && load.reviews.length === 0 && <p className="staff-muted">{t(`reviews.empty.${filter}`)}</p>}
          {load.status === 'ready' && load.reviews.length > 0 && (
            <table className="bo-table">
              <caption>{t(`reviews.table.${filter}`)}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('reviews.col.reference')}</th>
                  <th scope="col">{t('reviews.col.kind')}</th>
                  <th scope="col">{t('reviews.col.source')}</th>
                  <th scope="col">{t('reviews.col.player')}</th>
                  <th scope="col">{t('reviews.col.amount')}</th>
                  <th scope="col">{t('reviews.col.received')}</th>
                  <th scope="col">{t('reviews.col.status')}</th>
                </tr>
              </thead>
              <tbody>
                {load.reviews.map((r) => (
                  <ReviewRow key={r.id} review={r} money={money(r)} selected={selected?.id === r.id} onOpen={() => setSelected(r)} />
                ))}
              </tbody>
            </table>
          )}
        </div>

        {selected && (
          <ReviewDetails
            key={selected.id}
            review={selected}
            money={money(selected)}
            onBack={() => close(selected.id)}
            onDecided={decided}
            onRefused={(code) => {
              // Decided by someone else meanwhile (the refusal reloaded the list): show it as it is now (who decided, and why).
              if (code === 'REVIEW_DECIDED') {
                const id = selected.id;
                dispatch(reviewsApi.endpoints.review.initiate(id, freshly)).unwrap().then(
                  (fresh) => setSelected((s) => (s && s.id === id ? fresh : s)),
                  () => undefined,
                );
              }
            }}
          />
        )}
      </div>
    </div>
  );
}

function ReviewRow({ review: r, money, selected, onOpen }: { review: Review; money: string; selected: boolean; onOpen: () => void }) {
  const { t, formatDateTime } = useStaffI18n();
  return (
    <tr className={selected ? 'bo-table__selected' : undefined} aria-current={selected || undefined}>
      <td data-label={t('reviews.col.reference')}>
        <button id={rowButtonId(r.id)} type="button" className="staff-button bo-table__open" onClick={onOpen}>
          <span className="visually-hidden">{t('reviews.details')}: </span>
          {r.reference}
        </button>
      </td>
      <td data-label={t('reviews.col.kind')}>{t(`reviews.kind.${r.kind}`)}</td>
      <td data-label={t('reviews.col.source')}>{t(`reviews.source.${r.source}`)}</td>
      <td data-label={t('reviews.col.player')}>{r.player ? `${r.player.phone} ${r.player.name}` : t('reviews.noPlayer')}</td>
      <td data-label={t('reviews.col.amount')} className="bo-table__amount">
        {money}
      </td>
      <td data-label={t('reviews.col.received')}>
        <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
      </td>
      <td data-label={t('reviews.col.status')}>
        <span className={`bo-badge bo-badge--${r.status}`}>{t(`reviews.status.${r.status}`)}</span>
      </td>
    </tr>
  );
}

interface DetailsProps {
  review: Review;
  money: string;
  onBack: () => void;
  onDecided: (answer: Review, action: Action) => void;
  onRefused: (code: string) => void;
}

function ReviewDetails({ review: r, money, onBack, onDecided, onRefused }: DetailsProps) {
  const { t, formatDateTime, errorText } = useStaffI18n();
  const [action, setAction] = useState<Action | null>(null);
  const [approve] = useApproveReviewMutation();
  const [reject] = useRejectReviewMutation();
  const heading = useRef<HTMLHeadingElement>(null);
  const approveButton = useRef<HTMLButtonElement>(null);
  const rejectButton = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<Action | null>(null);
  const payout = isPayoutReview(r.kind);

  // Opened: the heading takes the focus, so a screen reader starts reading the payment.
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (action || !returnTo.current) return;
    (returnTo.current === 'approve' ? approveButton : rejectButton).current?.focus();
    returnTo.current = null;
  }, [action]);

  const cancel = () => {
    returnTo.current = action;
    setAction(null);
  };

  // Decided elsewhere while this console was confirming: the confirmation goes, an alert says why, the heading takes the focus.
  const decidedMeanwhile = action !== null && r.status !== 'OPEN';
  useEffect(() => {
    if (decidedMeanwhile) heading.current?.focus();
  }, [decidedMeanwhile]);

  const send = async (reason: string) => {
    if (!action) return;
    const answer = await (action === 'approve' ? approve : reject)({ id: r.id, reason }).unwrap();
    onDecided(answer, action);
  };

  return (
    <section className="bo-details" aria-labelledby="review-details-title" onKeyDown={(e) => e.key === 'Escape' && !action && onBack()}>
      <h2 id="review-details-title" ref={heading} tabIndex={-1}>
        {t('reviews.detailsTitle', { reference: r.reference })}
      </h2>
      <dl className="bo-facts">
        <div>
          <dt>{t('reviews.col.kind')}</dt>
          <dd>{t(`reviews.kind.${r.kind}`)}</dd>
        </div>
        <div>
          <dt>{t('reviews.col.source')}</dt>
          <dd>{t(`reviews.source.${r.source}`)}</dd>
        </div>
        <div>
          <dt>{t('reviews.col.reference')}</dt>
          <dd>{r.reference}</dd>
        </div>
        <div>
          <dt>{t('reviews.col.player')}</dt>
          <dd>{r.player ? `${r.player.phone} ${r.player.name} (${t('reviews.playerId', { id: r.player.id })})` : t('reviews.noPlayer')}</dd>
        </div>
        <div>
          <dt>{t('reviews.col.amount')}</dt>
          <dd className="bo-facts__money">{money}</dd>
        </div>
        <div>
          <dt>{t('reviews.col.received')}</dt>
          <dd>
            <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('reviews.col.status')}</dt>
          <dd>
            <span className={`bo-badge bo-badge--${r.status}`}>{t(`reviews.status.${r.status}`)}</span>
          </dd>
        </div>
        {r.decidedBy && (
          <div>
            <dt>{t('reviews.decidedBy')}</dt>
            <dd>
              {r.decidedBy.name} ({r.decidedBy.username})
              {r.decidedAt && (
                <>
                  , <time dateTime={r.decidedAt}>{formatDateTime(r.decidedAt)}</time>
                </>
              )}
            </dd>
          </div>
        )}
        {r.reason && (
          <div>
            <dt>{t('reviews.reason')}</dt>
            <dd>{r.reason}</dd>
          </div>
        )}
      </dl>

      {decidedMeanwhile && (
        <p className="staff-alert staff-alert--error" role="alert">
          {errorText('REVIEW_DECIDED')}
        </p>
      )}
      {r.status === 'OPEN' && !r.player && <p className="staff-alert staff-alert--info">{t('reviews.noPlayerNote')}</p>}
      {r.status === 'OPEN' && !action && (
        <div className="bo-actions">
          {r.player && (
            <button ref={approveButton} type="button" className="staff-button staff-button--primary" onClick={() => setAction('approve')}>
              {t('reviews.approve')}
            </button>
          )}
          <button ref={rejectButton} type="button" className="staff-button staff-button--danger" onClick={() => setAction('reject')}>
            {t('reviews.reject')}
          </button>
        </div>
      )}
      {r.status === 'OPEN' && action && (
        <ConfirmAction
          question={
            action === 'approve'
              ? t(isPayoutReview(r.kind) ? `reviews.confirmApprove.${r.kind}` : 'reviews.confirmApprove', { amount: money, phone: r.player?.phone ?? '' })
              : t(payout ? 'reviews.confirmReject.payout' : 'reviews.confirmReject')
          }
          reasonLabel={t('reviews.reasonLabel')}
          confirmLabel={action === 'approve' ? t(payout ? 'reviews.confirmApproveButton.payout' : 'reviews.confirmApproveButton') : t('reviews.confirmRejectButton')}
          busyLabel={t('reviews.saving')}
          danger={action === 'reject'}
          onConfirm={send}
          onCancel={cancel}
          onRefused={onRefused}
        />
      )}
      <button type="button" className="staff-button staff-button--quiet bo-back" onClick={onBack}>
        {t('reviews.back')}
      </button>
    </section>
  );
}
