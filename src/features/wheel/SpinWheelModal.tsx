import { lazy, Suspense, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { api } from '../../core/api';
import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useModalWhile } from '../../components/useModalWhile';
import { localized } from '../../lib/localized';
import { CouponList } from './CouponList';
import { landingIndex } from './landing';
import { PrizeModal, SPIN_PRIZE_MODAL } from './PrizeModal';
import { canSpin, failureDismissed, prizeDismissed, selectCoins, selectSpin, spinRequested, spinSkipped, wheelClosed, wheelLanded } from './spinSlice';
import { labelIn, useGetSpinSetupQuery } from './wheelApi';
import { Skeleton } from '../../components/Skeleton';
import '../../components/forms.css';
import './wheel.css';

/** The wheel modal's id in the modal stack; home's spin widget opens it. */
export const SPIN_WHEEL_MODAL = 'spinWheel';

// The canvas and its animation are their own chunk (ARCHITECTURE.md: the wheel canvas loads lazily).
const WheelCanvas = lazy(() => import(/* webpackChunkName: "spin-wheel-canvas" */ './WheelCanvas'));

/**
 * Spec §2 spin wheel modal: the wheel, the coin count and a spin action; the prize modal after a spin; the coupon
 * list. The spin is the store's spin machine (spinSlice). A failed spin is an error alert with the translated code
 * (spec §8). Closing the modal reloads the wallet (spec §2, §4).
 */
export default function SpinWheelModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const setup = useGetSpinSetupQuery(undefined, { refetchOnMountOrArgChange: true });
  const spin = useAppSelector(selectSpin);
  const coins = useAppSelector(selectCoins);
  const showLoading = useDelayedFlag(setup.isLoading);
  const showSpinning = useDelayedFlag(spin.status === 'spinning');
  useModalWhile(SPIN_PRIZE_MODAL, spin.status === 'prize');

  const wheel = setup.data?.result?.activeSpinwheel ?? null;
  // Each slice drawn and listed with its label in the player's language (issue 40 item 13).
  const slices = useMemo(() => (wheel?.slices ?? []).map((slice) => ({ ...slice, label: labelIn(slice, locale) })), [wheel, locale]);
  const landing = spin.status === 'spinning' && spin.landing ? { requestId: spin.requestId, index: landingIndex(slices, spin.landing.code) } : null;
  const allowed = canSpin(spin, coins);
  const onStopped = useCallback((requestId: string) => dispatch(wheelLanded(requestId)), [dispatch]);
  const skipped = spin.status === 'spinning' && spin.skipped === true;

  const close = () => {
    dispatch(wheelClosed());
    dispatch(api.util.invalidateTags(['Wallet']));
    onClose();
  };

  const announcement =
    spin.status === 'spinning' ? (showSpinning || spin.landing ? t('wheel.announce.spinning') : '') : spin.status === 'prize' ? t('wheel.announce.won', { label: labelIn(spin.prize, locale) }) : '';
  const name = wheel ? localized(wheel.name, locale) : '';

  return (
    <>
      <Modal id={SPIN_WHEEL_MODAL} title={t('wheel.title')} onClose={close}>
        <div className="wheel" data-testid="spin-wheel">
          {setup.isLoading && showLoading && (
            <Skeleton testId="wheel-loading" />
          )}
          {setup.isError && !setup.data && (
            <p className="wheel__failed" data-testid="wheel-load-failed">
              {t('wheel.loadFailed')}{' '}
              <button type="button" className="link-button" onClick={() => void setup.refetch()}>
                {t('wheel.retry')}
              </button>
            </p>
          )}
          {setup.data && !wheel && (
            <p className="wheel__inactive" data-testid="wheel-inactive">
              {t('wheel.inactive')}
            </p>
          )}
          {wheel && (
            <>
              {name && <p className="wheel__name">{name}</p>}
              <p className="wheel__coins" data-testid="wheel-coins">
                {t('wheel.coins', { count: coins ?? 0 })}
              </p>
              <div className="wheel__stage">
                <span className="wheel__pointer" aria-hidden="true" />
                <div className="wheel__disc">
                  <Suspense fallback={<div className="wheel__placeholder" aria-hidden="true" />}>
                    <WheelCanvas slices={slices} landing={landing} onStopped={onStopped} skip={skipped} label={t('wheel.canvasLabel', { name: name || t('wheel.title') })} describedBy="wheel-prizes" />
                  </Suspense>
                </div>
              </div>
              <ul id="wheel-prizes" className="visually-hidden" aria-label={t('wheel.prizesLabel')}>
                {slices.map((slice, index) => (
                  <li key={`${slice.code}-${index}`}>{slice.label}</li>
                ))}
              </ul>
              <p className="visually-hidden" role="status" data-testid="wheel-announcement">
                {announcement}
              </p>
              {spin.status === 'failed' && (
                <div className="alert alert--error wheel__alert" role="alert" data-testid="spin-failed">
                  <p className="wheel-alert__title">{t('wheel.errorTitle')}</p>
                  <p>{errorText(spin.code)}</p>
                  <button type="button" className="button" onClick={() => dispatch(failureDismissed())}>
                    {t('wheel.ok')}
                  </button>
                </div>
              )}
              <button
                type="button"
                className="button button--primary wheel__spin"
                onClick={() => void dispatch(spinRequested())}
                aria-disabled={!allowed || undefined}
                aria-busy={spin.status === 'spinning'}
                aria-describedby={coins === 0 ? 'wheel-no-coins' : undefined}
                data-testid="wheel-spin"
              >
                {showSpinning ? t('wheel.spinning') : t('wheel.spin')}
              </button>
              {spin.status === 'spinning' && !skipped && (
                <button type="button" className="link-button wheel__skip" onClick={() => dispatch(spinSkipped())} data-testid="wheel-skip">
                  {t('wheel.skip')}
                </button>
              )}
              {coins === 0 && spin.status === 'idle' && (
                <p id="wheel-no-coins" className="muted wheel__hint">
                  {t('wheel.noCoins')}
                </p>
              )}
            </>
          )}
          <CouponList />
        </div>
      </Modal>
      {spin.status === 'prize' && <PrizeModal prize={spin.prize} slice={slices.find((slice) => slice.code === spin.prize.code)} onClose={() => dispatch(prizeDismissed())} />}
    </>
  );
}
