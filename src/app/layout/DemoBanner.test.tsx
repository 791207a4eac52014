import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { loggedInSession } from '../../features/session/sessionSlice';
import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import { initialPrefs } from '../../core/prefs';

/** GET /api/lookup/info as the server answers it; `demo` is DEMO on the server. */
function serveInfo(demo: boolean) {
  const calls = { count: 0 };
  server.use(
    http.get('/api/lookup/info', () => {
      calls.count += 1;
      return HttpResponse.json({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo });
    }),
  );
  return calls;
}

const banner = () => screen.queryByRole('complementary', { name: 'Demo mode' });

describe('demo banner', () => {
  beforeEach(serveUserArea);

  it.each(['/login', '/register', '/howto', '/contact'])('says on the public page %s that payments are simulated, with a link to the demo bank', async (url) => {
    server.use(http.get('/api/lookup/registerOTP', () => HttpResponse.json({ registerOTP: false })));
    serveInfo(true);
    renderApp(url);
    const region = await screen.findByRole('complementary', { name: 'Demo mode' });
    expect(region).toHaveTextContent('Demo mode: payments here are simulated and no real money moves.');
    const link = within(region).getByRole('link', { name: /Demo bank/ });
    expect(link).toHaveAttribute('href', '/demo/bank');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleName('Demo bank (opens in a new tab)');
    // Above the page in the document flow (not fixed over it): the first thing on the page.
    const layout = document.querySelector('.layout');
    expect(layout).not.toBeNull();
    expect(region.compareDocumentPosition(layout!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(layout!.contains(region)).toBe(false);
  });

  it('shows on every page of the logged-in area', async () => {
    serveInfo(true);
    const { user } = renderApp('/user/home', { preloadedState: { session: loggedInSession('tok') } });
    expect(await screen.findByRole('complementary', { name: 'Demo mode' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent('Profile'));
    expect(screen.getAllByRole('complementary', { name: 'Demo mode' })).toHaveLength(1);
  });

  it('stays when the session ends (the API cache is cleared on logout)', async () => {
    serveInfo(true);
    server.use(http.post('/api/logout', () => new HttpResponse(null, { status: 204 })));
    const { user } = renderApp('/user/home', { preloadedState: { session: loggedInSession('tok') } });
    await user.click(await screen.findByTestId('logout'));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(await screen.findByRole('complementary', { name: 'Demo mode' })).toBeInTheDocument();
  });

  it('is in the player language', async () => {
    serveInfo(true);
    renderApp('/login', { preloadedState: { prefs: { ...initialPrefs, locale: 'th' } } });
    const region = await screen.findByRole('complementary', { name: 'โหมดทดลอง' });
    expect(within(region).getByRole('link', { name: /ธนาคารจำลอง/ })).toHaveAttribute('href', '/demo/bank');
  });

  it('is not there when demo mode is off', async () => {
    const calls = serveInfo(false);
    const { store } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Log in' });
    await waitFor(() => expect(calls.count).toBe(1));
    await waitFor(() => expect(store.getState().api.queries['getSiteInfo(undefined)']?.status).toBe('fulfilled'));
    expect(banner()).not.toBeInTheDocument();
  });

  it('is not there when the lookup fails, and no error is shown', async () => {
    server.use(http.get('/api/lookup/info', () => HttpResponse.json({ message: 'INTERNAL_SERVER_ERROR' }, { status: 500 })));
    const { store } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Log in' });
    await waitFor(() => expect(store.getState().api.queries['getSiteInfo(undefined)']?.status).toBe('rejected'));
    expect(banner()).not.toBeInTheDocument();
    // The login form's (empty) error line is an alert too; no alert says anything.
    expect(screen.queryAllByRole('alert').map((alert) => alert.textContent)).toEqual(['']);
  });
});
