import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';

import { ConditionsIcon, ContactIcon, HomeIcon, LogoutIcon, ProfileIcon, StatementIcon } from '../../components/icons';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { useAfterPaint } from '../../components/useAfterPaint';
import { useModal } from '../../components/useModal';
import { ChatLauncher } from '../../features/chat/ChatLauncher';
import { logout } from '../../features/session/logout';
import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectHostHidden, type HostControl } from '../host/hostSlice';
import { ModalHost } from '../ModalHost';
import { retryableLazy } from '../../components/retryableLazy';
import { prefetchLiveConfig, useWalletPush } from '../useWalletPush';
import { BottomMenu, type MenuLink } from './BottomMenu';
import { CONDITIONS_MODAL } from './conditionsModalId';
import { TopBar } from './TopBar';
import { useTopOffset } from './useTopOffset';

/**
 * The reality check and the session limit's dialog (issue 15), loaded once the layout is on screen: requested during
 * the first render, it was the one file a third round trip away (after main, then the layout), and Lighthouse
 * counted it towards /user/home's LCP. Its dialogs come minutes into a session.
 */
const PlayWatch = lazy(() => import(/* webpackChunkName: "play-watch" */ '../../features/limits/PlayWatch'));
/** Loaded when first opened: it shows server HTML, and its sanitizer (DOMPurify, ~11 KB gzip) is not for the first screen. */
const ConditionsModal = retryableLazy(CONDITIONS_MODAL, () => import(/* webpackChunkName: "modal-conditions" */ './ConditionsModal'));

const links: MenuLink[] = [
  { to: '/user/home', labelKey: 'nav.home', icon: <HomeIcon /> },
  { to: '/user/profile', labelKey: 'nav.profile', icon: <ProfileIcon /> },
  { to: '/user/statement', labelKey: 'nav.statement', icon: <StatementIcon /> },
  { to: '/user/contact', labelKey: 'nav.contact', icon: <ContactIcon /> },
];

const NONE: HostControl[] = [];

/** What the layout's first render asks for, before React renders it (app/router.tsx, prefetchOnArrival). */
export const prefetch = prefetchLiveConfig;

/** The logged-in player's area; the guard keeps visitors out. */
export default function UserLayout() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const conditions = useModal(CONDITIONS_MODAL);
  const offset = useTopOffset();
  useWalletPush();
  const painted = useAfterPaint();
  // The mobile/iframe build's host app may show these itself (app/host); the web build always shows them.
  const hostHides = useAppSelector((state) => (process.env.VARIANT === 'mobile' ? selectHostHidden(state) : NONE));
  const hostHidesLanguage = hostHides.includes('language');
  const hostHidesLogout = hostHides.includes('logout');
  return (
    <div className="layout layout--user">
      <TopBar home="/user/home">
        {!hostHidesLanguage && <LanguageSwitcher />}
        {!hostHidesLogout && (
          <button
            type="button"
            className="icon-button"
            data-testid="logout"
            aria-label={t('nav.logout')}
            title={t('nav.logout')}
            onClick={() => void dispatch(logout())}
          >
            <LogoutIcon />
          </button>
        )}
      </TopBar>
      <main id="main" className={`layout__main${offset ? ' layout__main--offset' : ''}`}>
        <Outlet />
      </main>
      <BottomMenu links={links}>
        <li>
          <button type="button" className="bottom-menu__item" onClick={conditions.open} aria-haspopup="dialog">
            <ConditionsIcon />
            <span>{t('nav.conditions')}</span>
          </button>
        </li>
      </BottomMenu>
      {conditions.isOpen && (
        <Suspense fallback={null}>
          <ConditionsModal onClose={conditions.close} />
        </Suspense>
      )}
      <ChatLauncher />
      <ModalHost />
      {painted && (
        <Suspense fallback={null}>
          <PlayWatch onLogout={() => void dispatch(logout())} />
        </Suspense>
      )}
    </div>
  );
}
