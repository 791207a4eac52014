import { useState } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';

import { StaffI18nProvider, useStaffI18n } from './i18n/I18n';
import { LanguageSelect } from './i18n/LanguageSelect';
import { LiveProvider } from './live/Live';
import { connectStaffSocket, type ConnectStaffSocket } from './live/socket';
import { LoginPage } from './login/LoginPage';
import { AnnouncerProvider } from './shell/Announcer';
import { Shell } from './shell/Shell';
import { StaffSessionProvider, useStaffSession } from './session/Session';
import { makeStaffStore } from './store';

/**
 * Signed out, any /staff URL shows the sign-in form and stays where it is, so a deep link opens once signed in.
 * Signed in, the shell with one /staff socket for every page.
 */
function Gate({ connect }: { connect: ConnectStaffSocket }) {
  const { t, errorText } = useStaffI18n();
  const { session, recheck } = useStaffSession();
  switch (session.status) {
    case 'checking':
      return (
        <p className="staff-centered" role="status">
          {t('common.loading')}
        </p>
      );
    case 'unreachable':
      return (
        <div className="staff-centered">
          <LanguageSelect />
          <p role="alert">{errorText(session.code)}</p>
          <button type="button" className="staff-button" onClick={recheck}>
            {t('common.retry')}
          </button>
        </div>
      );
    case 'signedOut':
      return <LoginPage ended={session.ended} />;
    case 'signedIn':
      return (
        <LiveProvider token={session.token} connect={connect}>
          <Shell staff={session.staff} />
        </LiveProvider>
      );
  }
}

export function StaffApp({ connect = connectStaffSocket }: { connect?: ConnectStaffSocket }) {
  const [store] = useState(makeStaffStore);
  return (
    <Provider store={store}>
      <StaffI18nProvider>
        <AnnouncerProvider>
          <StaffSessionProvider>
            <BrowserRouter basename="/staff">
              <Gate connect={connect} />
            </BrowserRouter>
          </StaffSessionProvider>
        </AnnouncerProvider>
      </StaffI18nProvider>
    </Provider>
  );
}
