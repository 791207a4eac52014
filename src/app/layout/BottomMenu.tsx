import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';

export interface MenuLink {
  to: string;
  labelKey: string;
  icon: ReactNode;
}

/** The bottom menu of an area (spec §2); the current page's link carries aria-current="page". */
export function BottomMenu({ links, children }: { links: MenuLink[]; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <nav className="bottom-menu" aria-label={t('nav.menu')}>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} className="bottom-menu__item" end>
              {link.icon}
              <span>{t(link.labelKey)}</span>
            </NavLink>
          </li>
        ))}
        {children}
      </ul>
    </nav>
  );
}
