import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/SafeHtml';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { localized } from '../../lib/localized';
import type { PromotionFlow } from './promotionFlow';

/** The promotion modal's id in the modal stack. */
export const PROMOTION_MODAL = 'promotion';

interface Props {
  flow: Exclude<PromotionFlow, { status: 'idle' }>;
  onReceive: () => void;
  onSearchAgain: () => void;
  onClose: () => void;
}

/**
 * Spec §2 promotion modal: the promotion's fail percentage, its description and a receive button; or the
 * searching or not-found message. Activation failures show in an error alert with the error text (spec §8).
 */
export function PromotionModal({ flow, onReceive, onSearchAgain, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const showReceiving = useDelayedFlag(flow.status === 'receiving');

  return (
    <Modal id={PROMOTION_MODAL} title={t('bonus.promotion.title')} onClose={onClose}>
      <div className="promotion" data-testid="promotion-modal">
        <p className="promotion__code">
          {t('bonus.promotion.code')}: <strong data-testid="promotion-modal-code">{flow.code}</strong>
        </p>
        {flow.status === 'searching' && (
          <p role="status" data-testid="promotion-searching">
            {t('bonus.promotion.searching')}
          </p>
        )}
        {flow.status === 'notFound' && (
          <>
            <p role="status" className="promotion__not-found" data-testid="promotion-not-found">
              {t('bonus.promotion.notFound')}
            </p>
            <button type="button" className="button button--primary" onClick={onClose}>
              {t('bonus.ok')}
            </button>
          </>
        )}
        {flow.status === 'searchFailed' && (
          <>
            <div className="alert alert--error" role="alert" data-testid="promotion-search-failed">
              {errorText(flow.error)}
            </div>
            <button type="button" className="button button--primary promotion__action" onClick={onSearchAgain}>
              {t('bonus.promotion.searchAgain')}
            </button>
          </>
        )}
        {(flow.status === 'found' || flow.status === 'receiving' || flow.status === 'receiveFailed') && (
          <>
            <p className="promotion__fail" data-testid="promotion-percent-fail">
              {t('bonus.promotion.percentFail', { percent: flow.promotion.percentFail })}
            </p>
            <SafeHtml html={localized(flow.promotion.description, locale)} className="promotion__description" />
            {/* Issue 40: the lock receiving brings, said before receiving (the find answer carries no terms to name its target). */}
            <p className="promotion__lock" data-testid="promotion-receive-lock">
              {t('bonusLock.onReceivePromotion')}
            </p>
            {flow.status === 'receiveFailed' && (
              <div className="alert alert--error" role="alert" data-testid="promotion-receive-failed">
                <strong>{t('bonus.modal.failed')}</strong>
                <p>{errorText(flow.error)}</p>
              </div>
            )}
            <button
              type="button"
              className="button button--primary promotion__action"
              onClick={onReceive}
              disabled={flow.status === 'receiving'}
              aria-busy={flow.status === 'receiving'}
              data-testid="promotion-receive"
            >
              {showReceiving ? t('bonus.modal.receiving') : t('bonus.modal.receive')}
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}
