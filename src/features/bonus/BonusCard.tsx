import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { localized } from '../../lib/localized';
import type { Bonus } from './bonusApi';
import type { BonusCardState } from './exhaustion';

interface Props {
  bonus: Bonus;
  state: BonusCardState;
  onOpen: (code: string) => void;
}

/**
 * Spec §2 bonus card: its banner image and name. Active shows the current marker; exhausted shows received
 * and cannot be clicked; otherwise a click opens the bonus modal.
 */
export function BonusCard({ bonus, state, onOpen }: Props) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const image = bonus.banners[0]?.image;
  return (
    <li className={`bonus-card bonus-card--${state}`}>
      <button
        type="button"
        className="bonus-card__button"
        onClick={() => onOpen(bonus.code)}
        disabled={state === 'exhausted'}
        aria-haspopup="dialog"
        aria-current={state === 'active' ? 'true' : undefined}
        data-testid={`bonus-card-${bonus.code}`}
      >
        {image && <img className="bonus-card__image" src={image} alt="" loading="lazy" />}
        <span className="bonus-card__body">
          <span className="bonus-card__name">{localized(bonus.name, locale) || bonus.code}</span>
          <span className="bonus-card__limit">{t(`bonus.card.limit.${bonus.type}`, { count: bonus.maxReceived })}</span>
          {state === 'active' && <span className="bonus-card__marker bonus-card__marker--current">{t('bonus.card.current')}</span>}
          {state === 'exhausted' && <span className="bonus-card__marker bonus-card__marker--received">{t('bonus.card.received')}</span>}
        </span>
      </button>
    </li>
  );
}
