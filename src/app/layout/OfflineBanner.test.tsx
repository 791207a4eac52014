import { act, screen } from '@testing-library/react';

import { loggedInSession } from '../../features/session/sessionSlice';
import { renderApp } from '../../test/support/render';
import { serveUserArea } from '../../test/support/userArea';
import { initialPrefs } from '../../core/prefs';

const goOffline = (offline: boolean) =>
  act(() => {
    jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline);
    window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
  });

describe('offline banner', () => {
  beforeEach(serveUserArea);
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['the public layout', '/login', {}],
    ['the user layout', '/user/home', { session: loggedInSession('tok') }],
  ])('shows in %s while the browser is offline, as a status, and goes when it is back online', async (_, url, preloadedState) => {
    renderApp(url, { preloadedState });
    await screen.findByTestId('page-title');
    expect(screen.queryByTestId('offline-banner')).not.toBeInTheDocument();

    goOffline(true);
    const banner = screen.getByTestId('offline-banner');
    expect(banner).toHaveTextContent('You are offline. Check your internet connection.');
    expect(banner.closest('[role="status"]')).not.toBeNull();

    goOffline(false);
    expect(screen.queryByTestId('offline-banner')).not.toBeInTheDocument();
  });

  it('shows at once when the app starts offline, in the player\'s language', async () => {
    jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderApp('/login', { preloadedState: { prefs: { ...initialPrefs, locale: 'th' } } });
    expect(await screen.findByTestId('offline-banner')).toHaveTextContent('คุณออฟไลน์อยู่');
  });
});
