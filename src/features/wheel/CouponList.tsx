import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { Pagination } from '../../components/Pagination';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useFormatAmount } from '../../components/useFormatAmount';
import { useModalWhile } from '../../components/useModalWhile';
import { formatDateTime, pageCount } from '../../lib/format';
import { localized } from '../../lib/localized';
import { claimAsked, claimDeclined, claimDismissed, couponsLeft, type ClaimFlow } from './claimSlice';
import { claimConfirmed, selectClaimFlow } from './claimStore';
import { COUPON_PAGE_SIZE, useGetCouponsQuery, type Coupon } from './wheelApi';
import { EmptyState } from '../../components/EmptyState';
import { Skeleton } from '../../components/Skeleton';

export const COUPON_CLAIM_MODAL = 'couponClaim';

/** What a coupon is worth, in words: baht for cash, coins for a coin prize, nothing for a 'none' prize. */
function usePrizeValue() {
  const { t } = useTranslation();
  const format = useFormatAmount();
  return (coupon: Coupon) =>
    coupon.type === 'cash' ? t('wheel.coupons.cash', { amount: format(coupon.amount) }) : coupon.type === 'coin' ? t('wheel.coupons.coin', { count: coupon.amount }) : '';
}

/**
 * Spec §2 coupon list: 3 a page with the pagination window of spec §9; a claimable coupon is claimed after a
 * confirm dialog; a success says what was added, a failure is an error alert with the translated code (spec §8).
 * A failed list only hides its loader. The claim is the store's machine (claimSlice); this is its view.
 */
export function CouponList() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const value = usePrizeValue();
  const [page, setPage] = useState(1);
  const list = useGetCouponsQuery({ page, limit: COUPON_PAGE_SIZE }, { refetchOnMountOrArgChange: true });
  const showLoading = useDelayedFlag(list.isLoading);
  const pages = pageCount(list.data?.total ?? 0, COUPON_PAGE_SIZE);

  const flow = useAppSelector(selectClaimFlow);
  useModalWhile(COUPON_CLAIM_MODAL, flow.status !== 'idle');
  // A claim belongs to this list: when the list goes, so does its dialog.
  useEffect(() => () => void dispatch(couponsLeft()), [dispatch]);

  const name = (coupon: Coupon) => localized(coupon.prize?.name, locale) || coupon.prize?.label || '';

  return (
    <section className="coupons" aria-labelledby="coupons-title" aria-busy={list.isFetching}>
      <h3 id="coupons-title" className="coupons__title">
        {t('wheel.coupons.title')}
      </h3>
      {list.isLoading && showLoading && (
        <Skeleton variant="card" testId="coupons-loading" />
      )}
      {list.data &&
        (list.data.coupons.length === 0 ? (
          <EmptyState text={t('wheel.coupons.empty')} testId="coupons-empty" />
        ) : (
          <ul className="coupons__list">
            {list.data.coupons.map((coupon) => (
              <li key={coupon._id} className={`coupon coupon--${coupon.status.toLowerCase()}`} data-testid="coupon">
                <div className="coupon__text">
                  <p className="coupon__name">{name(coupon)}</p>
                  {coupon.prize?.label && coupon.prize.label !== name(coupon) && <p className="coupon__label">{coupon.prize.label}</p>}
                  {value(coupon) && <p className="coupon__value">{value(coupon)}</p>}
                  <p className="coupon__meta">
                    <span className="coupon__status">{t(`wheel.coupons.status.${coupon.status}`, { defaultValue: coupon.status })}</span>
                    {coupon.status === 'CLAIMABLE' && <span> · {t('wheel.coupons.expires', { date: formatDateTime(coupon.expiresAt) })}</span>}
                  </p>
                </div>
                {coupon.status === 'CLAIMABLE' && coupon.type !== 'none' && (
                  <button
                    type="button"
                    className="button button--primary coupon__claim"
                    onClick={() => dispatch(claimAsked(coupon))}
                    aria-haspopup="dialog"
                    aria-label={t('wheel.coupons.claimOf', { name: name(coupon) })}
                  >
                    {t('wheel.coupons.claim')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
      <Pagination page={page} pages={pages} onPage={setPage} label={t('wheel.coupons.pages')} />
      {flow.status !== 'idle' && (
        <ClaimDialog flow={flow} name={name(flow.coupon)} value={value(flow.coupon)} onConfirm={() => void dispatch(claimConfirmed())} onDecline={() => dispatch(claimDeclined())} onDismiss={() => dispatch(claimDismissed())} />
      )}
    </section>
  );
}

interface DialogProps {
  flow: Exclude<ClaimFlow, { status: 'idle' }>;
  name: string;
  value: string;
  onConfirm: () => void;
  onDecline: () => void;
  onDismiss: () => void;
}

/** The claim's confirm dialog, which then shows how the claim ended (its OK button takes focus to be read). */
function ClaimDialog({ flow, name, value, onConfirm, onDecline, onDismiss }: DialogProps) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const ok = useRef<HTMLButtonElement>(null);
  const ended = flow.status === 'claimed' || flow.status === 'failed';
  const showClaiming = useDelayedFlag(flow.status === 'claiming');
  useEffect(() => {
    if (ended) ok.current?.focus();
  }, [ended]);

  const onClose = ended ? onDismiss : flow.status === 'confirming' ? onDecline : () => undefined;
  const coupon = flow.coupon;
  const added =
    coupon.type === 'cash'
      ? t('wheel.claim.cash', { amount: format(coupon.amount) })
      : coupon.type === 'coin'
        ? t('wheel.claim.coin', { count: coupon.amount })
        : t('wheel.claim.done');

  return (
    <Modal id={COUPON_CLAIM_MODAL} title={t('wheel.claim.title')} onClose={onClose}>
      {(flow.status === 'confirming' || flow.status === 'claiming') && (
        <>
          <p data-testid="claim-question">{t('wheel.claim.question', { name })}</p>
          {value && <p className="coupon__value">{value}</p>}
          <div className="wheel-dialog__actions">
            <button type="button" className="button" onClick={onDecline} disabled={flow.status === 'claiming'}>
              {t('wheel.claim.no')}
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={onConfirm}
              aria-disabled={flow.status === 'claiming' || undefined}
              aria-busy={flow.status === 'claiming'}
              data-testid="claim-confirm"
            >
              {showClaiming ? t('wheel.claim.claiming') : t('wheel.claim.yes')}
            </button>
          </div>
        </>
      )}
      {flow.status === 'claimed' && (
        <div className="alert alert--success" role="status" data-testid="claim-done">
          <p className="wheel-alert__title">{t('wheel.claim.successTitle')}</p>
          <p>{added}</p>
        </div>
      )}
      {flow.status === 'failed' && (
        <div className="alert alert--error" role="alert" data-testid="claim-failed">
          <p className="wheel-alert__title">{t('wheel.claim.errorTitle')}</p>
          <p>{errorText(flow.code)}</p>
        </div>
      )}
      {ended && (
        <button ref={ok} type="button" className="button button--primary wheel-dialog__ok" onClick={onDismiss}>
          {t('wheel.ok')}
        </button>
      )}
    </Modal>
  );
}
