import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import type { BonusLock } from '../lib/bonusLock';
import { useFormatAmount } from './useFormatAmount';
import './bonusLock.css';

interface Props {
  lock: BonusLock;
  /** The bonus's name in the player's language. */
  name: string;
  /** Also say what cancelling would take back (the withdraw modal, where the player weighs it). */
  showTakesBack?: boolean;
  /** Following the link leaves a modal: it closes first. */
  onLeave?: () => void;
  testId?: string;
}

/**
 * Issue 40: an active bonus locks withdrawals until its turnover reaches the target. Said where the player would
 * otherwise find out only after trying: its progress (a progressbar with its values, for screen readers too),
 * what is left to wager, optionally what cancelling takes back, and a link to the bonus page.
 */
export function BonusLockNotice({ lock, name, showTakesBack = false, onLeave, testId = 'bonus-lock' }: Props) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const titleId = useId();
  const labelId = useId();
  const values = { done: format(lock.done), target: format(lock.target), percent: lock.percent, remaining: format(lock.remaining), name };
  return (
    <section className="bonus-lock" aria-labelledby={titleId} data-testid={testId}>
      <p id={titleId} className="bonus-lock__title">
        {t('bonusLock.title')}
      </p>
      <p id={labelId} className="bonus-lock__label">
        {t('bonusLock.label', { name })}
      </p>
      <div
        className="bonus-lock__track"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={lock.target}
        aria-valuenow={lock.done}
        aria-valuetext={t('bonusLock.valueText', values)}
        data-testid={`${testId}-progress`}
      >
        <div className="bonus-lock__bar" style={{ width: `${lock.percent}%` }} />
      </div>
      <p className="bonus-lock__numbers">{t('bonusLock.valueText', values)}</p>
      <p className="bonus-lock__remaining" data-testid={`${testId}-remaining`}>
        {t('bonusLock.remaining', values)}
      </p>
      {showTakesBack && (
        <p className="bonus-lock__takes-back" data-testid={`${testId}-takes-back`}>
          {t('bonusLock.cancelTakes', { amount: format(lock.takesBack) })}
        </p>
      )}
      <Link className="bonus-lock__link" to="/user/bonus" onClick={onLeave} data-testid={`${testId}-link`}>
        {t('bonusLock.link')}
      </Link>
    </section>
  );
}
