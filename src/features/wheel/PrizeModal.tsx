import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/SafeHtml';
import { localized } from '../../lib/localized';
import { labelIn, type SpinPrize, type WheelSlice } from './wheelApi';

export const SPIN_PRIZE_MODAL = 'spinPrize';

interface Props {
  prize: SpinPrize;
  /** The slice the wheel stopped on, for its description (none when the setup no longer has it). */
  slice: WheelSlice | undefined;
  onClose: () => void;
}

/**
 * Spec §2: the prize modal after a spin: what was won, the slice's description (operator HTML in the player's
 * language, sanitized), and the coins left. The prize became a coupon, claimed from the coupon list.
 */
export function PrizeModal({ prize, slice, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  return (
    <Modal id={SPIN_PRIZE_MODAL} title={t('wheel.prize.title')} onClose={onClose}>
      <div className="wheel-prize" data-testid="wheel-prize">
        <p className="wheel-prize__won">{t('wheel.prize.won', { label: labelIn(prize, locale) })}</p>
        {slice && <SafeHtml html={localized(slice.prize?.htmlDescription, locale)} className="wheel-prize__description" />}
        {prize.couponId && <p>{t('wheel.prize.coupon')}</p>}
        <p className="muted" data-testid="wheel-prize-coins">
          {t('wheel.prize.coinsLeft', { count: prize.remainingCoin })}
        </p>
        <button type="button" className="button button--primary wheel-prize__ok" onClick={onClose}>
          {t('wheel.ok')}
        </button>
      </div>
    </Modal>
  );
}
