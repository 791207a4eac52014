import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { useFormatAmount } from '../../components/useFormatAmount';
import type { BonusProgress } from './bonusApi';
import { turnoverProgress } from './bonusRules';

/**
 * Beyond the spec: where the active bonus stands. The turnover done against its target as a bar and in
 * numbers, the fail line (the total balance at or below which it fails), and the three ways it ends.
 */
export function BonusProgressView({ progress }: { progress: BonusProgress }) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const labelId = useId();
  const { done, target, percent } = turnoverProgress(progress);
  const amounts = { done: format(done), target: format(target), percent };
  return (
    <div className="bonus-progress" data-testid="bonus-progress">
      <p id={labelId} className="bonus-progress__label">
        {t('bonus.progress.turnover')}
      </p>
      <div
        className="bonus-progress__track"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={target}
        aria-valuenow={done}
        aria-valuetext={t('bonus.progress.valueText', amounts)}
      >
        <div className="bonus-progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="bonus-progress__numbers" data-testid="bonus-turnover">
        {t('bonus.progress.numbers', amounts)}
      </p>
      <p className="bonus-progress__fail" data-testid="bonus-fail-line">
        {t('bonus.progress.failLine', { failAt: format(progress.failAt), percent: progress.percentFail, start: format(progress.startAmount) })}
      </p>
      <p className="bonus-progress__ends-title">{t('bonus.progress.endsTitle')}</p>
      <ul className="bonus-progress__ends" data-testid="bonus-ends">
        <li>{t('bonus.progress.endsTarget', { target: format(target) })}</li>
        <li>{t('bonus.progress.endsFail', { failAt: format(progress.failAt) })}</li>
        <li>{t('bonus.progress.endsCancel')}</li>
      </ul>
    </div>
  );
}
