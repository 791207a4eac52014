import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { useGetSiteInfoQuery } from '../../core/lookupApi';

/**
 * The bar at the top of every layout: the operator's logo and name from the info lookup (the app's own name
 * until it answers or when it fails), then the controls the layout puts there.
 */
export function TopBar({ home, children }: { home: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const info = useGetSiteInfoQuery().data;
  return (
    <header className="top-bar">
      <Link to={home} className="top-bar__brand" data-testid="brand">
        {info?.logo && <img className="top-bar__logo" src={info.logo} alt="" />}
        {info?.name || t('app.name')}
      </Link>
      <div className="top-bar__actions">{children}</div>
    </header>
  );
}
