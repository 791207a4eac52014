import { Navigate, NavLink, Route, Routes } from 'react-router-dom';

import { LanguageSelect } from '../i18n/LanguageSelect';
import { useStaffI18n } from '../i18n/I18n';
import { useLive } from '../live/Live';
import { pagesFor } from '../pages';
import { useStaffSession } from '../session/Session';
import type { StaffProfile } from '../types';

function LiveStatusBadge() {
  const { t } = useStaffI18n();
  const { status } = useLive();
  return (
    <span className={`staff-live staff-live--${status}`} role="status">
      {t(`shell.live.${status}`)}
    </span>
  );
}

/** The signed-in console: header (navigation from the page list, connection, language, who, log out) and the pages. */
export function Shell({ staff }: { staff: StaffProfile }) {
  const { t } = useStaffI18n();
  const { signOut } = useStaffSession();
  const pages = pagesFor(staff.role);
  return (
    <div className="staff-shell">
      <a className="staff-skip" href="#staff-main">
        {t('shell.skip')}
      </a>
      <header className="staff-header">
        <span className="staff-header__brand">{t('app.title')}</span>
        <nav aria-label={t('shell.nav')} className="staff-nav">
          <ul>
            {pages.map((p) => (
              <li key={p.path}>
                <NavLink to={`/${p.path}`}>{t(p.navKey)}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="staff-header__tools">
          <LiveStatusBadge />
          <LanguageSelect />
          <span className="staff-header__who">{t('shell.signedInAs', { name: staff.name || staff.username })}</span>
          <button type="button" className="staff-button staff-button--quiet" onClick={() => void signOut()}>
            {t('shell.logout')}
          </button>
        </div>
      </header>
      <main id="staff-main" className="staff-main" tabIndex={-1}>
        <Routes>
          {pages.map(({ path, Page }) => (
            <Route key={path} path={`${path}/*`} element={<Page />} />
          ))}
          <Route path="*" element={pages.length > 0 ? <Navigate to={`/${pages[0].path}`} replace /> : null} />
        </Routes>
      </main>
    </div>
  );
}
