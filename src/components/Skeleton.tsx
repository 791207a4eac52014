import { useTranslation } from 'react-i18next';
import './looks.css';

/**
 * Grey placeholder blocks in the shape of what is loading, instead of a "Loading..." line. A status region
 * says "Loading" to assistive technology (aria-busy); the blocks themselves are hidden from it.
 */
export function Skeleton({ rows = 3, variant = 'line', testId = 'skeleton' }: { rows?: number; variant?: 'line' | 'card'; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className={`skeleton skeleton--${variant}`} role="status" aria-busy="true" data-testid={testId}>
      <span className="visually-hidden">{t('common.loading')}</span>
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} className="skeleton__block" aria-hidden="true" />
      ))}
    </div>
  );
}
