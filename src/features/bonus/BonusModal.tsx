import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { useGetWalletQuery } from '../../core/walletApi';
import { BannerCarousel } from '../../components/BannerCarousel';
import { BonusLockNotice } from '../../components/BonusLockNotice';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/SafeHtml';
import { useBonusLock } from '../../components/useBonusLock';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useFormatAmount } from '../../components/useFormatAmount';
import { lockOnReceiving } from '../../lib/bonusLock';
import { localized } from '../../lib/localized';
import { activationLeft } from './activationFlow';
import type { Bonus } from './bonusApi';
import { bonusReceived, selectActivationFlow } from './bonusStore';
import { fillNotice } from './bonusRules';
import '../../components/forms.css';

/** The bonus modal's id in the modal stack. */
export const BONUS_MODAL = 'bonus';

interface Props {
  bonus: Bonus;
  /** This bonus is the player's active one: OK instead of receive. */
  active: boolean;
  onClose: () => void;
}

/**
 * Spec §2 bonus modal: a banner carousel, the notice (%percentFail% replaced, sanitized) and receive, or OK
 * when the bonus is already active. A refused activation shows an error alert with the error text; success
 * shows the success alert (spec §8), naming the amount credited rather than a bare "saved" (issue 40 item 11).
 */
export function BonusModal({ bonus, active, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const format = useFormatAmount();
  const dispatch = useAppDispatch();
  const flow = useAppSelector(selectActivationFlow);
  const showActivating = useDelayedFlag(flow.status === 'activating');
  const okButton = useRef<HTMLButtonElement>(null);
  const name = localized(bonus.name, locale) || bonus.code;
  // Issue 40: what receiving locks, said before receiving: another bonus's lock when one is active, else this one's
  // turnover target as the server will compute it from the wallet now.
  const other = useBonusLock();
  const balance = useGetWalletQuery(undefined, { selectFromResult: (r) => ({ amount: r.data?.wallet.amount }) }).amount;
  const willLock = balance === undefined ? null : lockOnReceiving(bonus, balance);

  // The receive button is gone: the alert's OK takes the focus so the result is read and can be closed.
  useEffect(() => {
    if (flow.status === 'activated') okButton.current?.focus();
  }, [flow.status]);
  // The flow lives in the store: the next opening of a bonus starts afresh.
  useEffect(() => () => void dispatch(activationLeft()), [dispatch]);

  return (
    <Modal id={BONUS_MODAL} title={name} onClose={onClose}>
      <div className="bonus-modal" data-testid="bonus-modal">
        <BannerCarousel banners={bonus.banners} label={t('bonus.modal.banners', { name })} />
        <dl className="bonus-facts">
          <div>
            <dt>{t('bonus.modal.amount')}</dt>
            <dd>{t('bonus.modal.amountValue', { percent: bonus.percent, cap: format(bonus.cap) })}</dd>
          </div>
          <div>
            <dt>{t('bonus.modal.turnover')}</dt>
            <dd>{t('bonus.modal.turnoverValue', { multiple: bonus.turnoverMultiple })}</dd>
          </div>
          <div>
            <dt>{t('bonus.modal.fail')}</dt>
            <dd>{t('bonus.modal.failValue', { percent: bonus.percentFail })}</dd>
          </div>
          <div>
            <dt>{t('bonus.modal.limit')}</dt>
            <dd>{t(`bonus.card.limit.${bonus.type}`, { count: bonus.maxReceived })}</dd>
          </div>
        </dl>
        <SafeHtml html={fillNotice(localized(bonus.notice, locale), bonus.percentFail)} className="bonus-notice" />
        {flow.status === 'activated' ? (
          <>
            <div className="alert alert--success" role="alert" data-testid="bonus-saved">
              <strong>{t('bonus.modal.received')}</strong>
              <p>{t('bonus.modal.credited', { amount: format(flow.amount) })}</p>
            </div>
            <button ref={okButton} type="button" className="button button--primary bonus-modal__action" onClick={onClose}>
              {t('bonus.ok')}
            </button>
          </>
        ) : active ? (
          <button type="button" className="button button--primary bonus-modal__action" onClick={onClose} data-testid="bonus-ok">
            {t('bonus.ok')}
          </button>
        ) : (
          <>
            {other.lock ? (
              <BonusLockNotice lock={other.lock} name={other.name} onLeave={onClose} testId="bonus-modal-lock" />
            ) : (
              <p className="bonus-modal__lock" data-testid="bonus-receive-lock">
                {willLock ? t('bonusLock.onReceive', { target: format(willLock.target) }) : t('bonusLock.onReceivePromotion')}
              </p>
            )}
            {flow.status === 'failed' && (
              <div className="alert alert--error" role="alert" data-testid="bonus-failed">
                <strong>{t('bonus.modal.failed')}</strong>
                <p>{errorText(flow.error)}</p>
              </div>
            )}
            <button
              type="button"
              className="button button--primary bonus-modal__action"
              onClick={() => void dispatch(bonusReceived(bonus.code))}
              disabled={flow.status === 'activating'}
              aria-busy={flow.status === 'activating'}
              data-testid="bonus-receive"
            >
              {showActivating ? t('bonus.modal.receiving') : t('bonus.modal.receive')}
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}
