import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { useRefreshGameBalancesMutation } from '../../core/walletApi';
import { Modal } from '../../components/Modal';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useModalWhile } from '../../components/useModalWhile';
import { localized } from '../../lib/localized';
import type { ActiveBonus } from './bonusApi';
import { BonusProgressView } from './BonusProgress';
import { cancelConfirmed, selectCancelFlow } from './bonusStore';
import { cancelAsked, cancelDeclined, cancelLeft, failureDismissed } from './cancelFlow';

export const CANCEL_CONFIRM_MODAL = 'bonusCancelConfirm';
export const CANCEL_FAILED_MODAL = 'bonusCancelFailed';

/**
 * Spec §2: the active bonus's type and a cancel button (a confirm dialog first; a failure shows a danger
 * dialog; success toasts the server's message and the active state and list reload through their tags).
 * Beyond the spec: its progress, and a refresh that asks the game providers for their balances again.
 */
export function ActiveBonusPanel({ active }: { active: ActiveBonus }) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const dispatch = useAppDispatch();
  const [refresh, refreshing] = useRefreshGameBalancesMutation();
  const showRefreshing = useDelayedFlag(refreshing.isLoading);
  const flow = useAppSelector(selectCancelFlow);
  const showClearing = useDelayedFlag(flow.status === 'clearing');
  const confirming = flow.status === 'confirming' || flow.status === 'clearing';
  useModalWhile(CANCEL_CONFIRM_MODAL, confirming);
  useModalWhile(CANCEL_FAILED_MODAL, flow.status === 'failed');

  // The flow lives in the store: when the panel goes (the bonus ended, the screen was left) its dialogs go too.
  useEffect(() => () => void dispatch(cancelLeft()), [dispatch]);

  const name = active.progress ? localized(active.progress.name, locale) : '';
  return (
    <section className="bonus-active" aria-labelledby="bonus-active-title" data-testid="bonus-active">
      <h2 id="bonus-active-title" className="bonus-section-title">
        {t('bonus.active.title')}
      </h2>
      <p className="bonus-active__type" data-testid="bonus-active-type">
        {t(`bonus.types.${active.type ?? 'bonus'}`)}
        {name && (
          <>
            {': '}
            <strong>{name}</strong>
          </>
        )}
      </p>
      {active.progress && <BonusProgressView progress={active.progress} />}
      <div className="bonus-active__actions">
        <button type="button" className="button" onClick={() => !refreshing.isLoading && void refresh()} aria-busy={refreshing.isLoading} data-testid="bonus-refresh">
          {showRefreshing ? t('bonus.progress.refreshing') : t('bonus.progress.refresh')}
        </button>
        <button type="button" className="button button--danger" onClick={() => dispatch(cancelAsked())} aria-haspopup="dialog" data-testid="bonus-cancel">
          {t('bonus.cancel')}
        </button>
      </div>

      {confirming && (
        <Modal id={CANCEL_CONFIRM_MODAL} title={t('bonus.cancelConfirm.title')} onClose={() => dispatch(cancelDeclined())}>
          <p>{t('bonus.cancelConfirm.body')}</p>
          <div className="bonus-dialog__actions">
            <button type="button" className="button" onClick={() => dispatch(cancelDeclined())} disabled={flow.status === 'clearing'}>
              {t('bonus.cancelConfirm.no')}
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => void dispatch(cancelConfirmed())}
              disabled={flow.status === 'clearing'}
              aria-busy={flow.status === 'clearing'}
              data-testid="bonus-cancel-confirm"
            >
              {showClearing ? t('bonus.cancelConfirm.cancelling') : t('bonus.cancelConfirm.yes')}
            </button>
          </div>
        </Modal>
      )}
      {flow.status === 'failed' && (
        <Modal id={CANCEL_FAILED_MODAL} title={t('bonus.cancelFailed.title')} onClose={() => dispatch(failureDismissed())}>
          <div className="alert alert--error bonus-danger" role="alert" data-testid="bonus-cancel-failed">
            {errorText(flow.error)}
          </div>
          <button type="button" className="button button--primary bonus-dialog__ok" onClick={() => dispatch(failureDismissed())}>
            {t('bonus.ok')}
          </button>
        </Modal>
      )}
    </section>
  );
}
