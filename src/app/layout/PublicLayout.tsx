import { Outlet, useLocation } from 'react-router-dom';

import { ContactIcon, HowtoIcon, LoginIcon, RegisterIcon } from '../../components/icons';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { ChatLauncher } from '../../features/chat/ChatLauncher';
import { BottomMenu, type MenuLink } from './BottomMenu';
import { TopBar } from './TopBar';
import { useTopOffset } from './useTopOffset';

const links: MenuLink[] = [
  { to: '/login', labelKey: 'nav.login', icon: <LoginIcon /> },
  { to: '/register', labelKey: 'nav.register', icon: <RegisterIcon /> },
  { to: '/howto', labelKey: 'nav.howto', icon: <HowtoIcon /> },
  { to: '/contact', labelKey: 'nav.contact', icon: <ContactIcon /> },
];

/** The visitor's area: login, register, how-to, contact. */
export default function PublicLayout() {
  const { pathname } = useLocation();
  const offset = useTopOffset();
  return (
    <div className="layout layout--public">
      {/* The login screen carries its own language dropdown (spec §2); one switcher per page. */}
      <TopBar home="/login">{pathname !== '/login' && <LanguageSwitcher />}</TopBar>
      <main id="main" className={`layout__main public-main${offset ? ' layout__main--offset' : ''}`}>
        <Outlet />
      </main>
      <BottomMenu links={links} />
      <ChatLauncher />
    </div>
  );
}
