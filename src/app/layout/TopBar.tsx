import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The bar at the top of every layout: the app name, then the controls the layout puts there. */
export function TopBar({ home, children }: { home: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="top-bar">
      <Link to={home} className="top-bar__brand">
        {t('app.name')}
      </Link>
      <div className="top-bar__actions">{children}</div>
    </header>
  );
}
