import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { createMemoryRouter } from 'react-router-dom';

import { prefetch as homePrefetch } from '../features/wallet/HomePage';
import { loggedInSession } from '../features/session/sessionSlice';
import { renderApp } from '../test/support/render';
import { server } from '../test/support/server';
import { serveUserArea } from '../test/support/userArea';
import { TERMINATED_CLASS } from './guard';
import { buildRoutes, startRouteImports } from './router';
import { makeStore } from './store';

// The home module, counted: its prefetch runs once per arrival of the module.
jest.mock('../features/wallet/HomePage', () => {
  const actual = jest.requireActual<typeof import('../features/wallet/HomePage')>('../features/wallet/HomePage');
  return { __esModule: true, ...actual, prefetch: jest.fn(actual.prefetch) };
});

const loggedIn = { session: loggedInSession('tok') };
const siteGone = () => server.use(http.get('/api/lookup/active', () => HttpResponse.json({ terminated: 'gone' })));
const path = (router: { state: { location: { pathname: string; search: string } } }) =>
  router.state.location.pathname + router.state.location.search;

describe('routes and the navigation guard (spec §2)', () => {
  // The pages load their data on arrival; answer it so no request goes unhandled.
  beforeEach(() => {
    serveUserArea();
    server.use(
      http.get('/api/lookup/howto', () => HttpResponse.json({ videos: [] })),
      http.get('/api/lookup/contact', () => HttpResponse.json({ contactText: '<p>Hi</p>', lineLink: '', lineName: '', lineQR: null })),
      http.get('/api/lookup/enableChatWidget', () => HttpResponse.json({ enableChatWidget: false })),
    );
  });

  it.each([
    ['/', '/login?next=%2Fuser'],
    ['/user', '/login?next=%2Fuser%2Fhome'],
  ])('sends a visitor from %s to %s', async (url, landing) => {
    const { router } = renderApp(url);
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(path(router)).toBe(landing);
  });

  it.each(['/user/home', '/user/profile', '/user/bonus', '/user/statement', '/user/contact'])(
    'keeps a visitor out of %s: /login?next=<url>',
    async (url) => {
      const { router } = renderApp(`${url}?tab=2`);
      await screen.findByRole('heading', { name: 'Log in' });
      expect(path(router)).toBe(`/login?next=${encodeURIComponent(`${url}?tab=2`)}`);
    },
  );

  it.each([
    ['/', '/user/home', 'Home'],
    ['/user', '/user/home', 'Home'],
    ['/user/profile', '/user/profile', 'Profile'],
    ['/user/bonus', '/user/bonus', 'Bonus and promotions'],
    ['/user/statement', '/user/statement', 'Statement'],
    ['/user/contact', '/user/contact', 'Contact us'],
  ])('lets a player with a token open %s (lands on %s)', async (url, landing, title) => {
    const { router } = renderApp(url, { preloadedState: loggedIn });
    expect(await screen.findByTestId('page-title')).toHaveTextContent(title);
    expect(router.state.location.pathname).toBe(landing);
    expect(screen.getByTestId('logout')).toBeInTheDocument();
  });

  it('shows the register screen to a visitor, at its first step', async () => {
    server.use(http.get('/api/lookup/registerOTP', () => HttpResponse.json({ registerOTP: false })));
    renderApp('/register');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Register');
    expect(screen.getByRole('heading', { level: 2, name: 'Phone number' })).toBeInTheDocument();
    expect(screen.getByLabelText('Phone number')).toBeInTheDocument();
  });

  it.each([
    ['/howto', 'How to use', 'howto-wallet'],
    ['/contact', 'Contact us', 'app-version'],
  ])('shows the public page %s to a visitor', async (url, title, content) => {
    renderApp(url);
    expect(await screen.findByTestId('page-title')).toHaveTextContent(title);
    expect(screen.getByTestId(content)).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/login', '/register', '/howto', '/contact']);
  });

  it('pads /user/contact below the top bar but not /contact', async () => {
    const { unmount } = renderApp('/contact');
    await screen.findByTestId('page-title');
    expect(screen.getByRole('main')).not.toHaveClass('layout__main--offset');
    unmount();
    renderApp('/user/contact', { preloadedState: loggedIn });
    await screen.findByTestId('page-title');
    expect(screen.getByRole('main')).toHaveClass('layout__main--offset');
  });

  it('clears the stored session when a public page is visited with a token, revoking it on the server (spec §4)', async () => {
    const revoked: (string | null)[] = [];
    server.use(
      http.post('/api/logout', ({ request }) => {
        revoked.push(request.headers.get('authorization'));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { store } = renderApp('/howto', { preloadedState: loggedIn });
    await screen.findByTestId('page-title');
    expect(store.getState().session.token).toBeNull();
    expect(revoked).toEqual(['Bearer tok']);
  });

  it('sends every route to /terminated when the site is gone, and keeps the terminated style on /login', async () => {
    siteGone();
    const { router } = renderApp('/login');
    expect(await screen.findByTestId('terminated')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/terminated');
    expect(document.body).toHaveClass(TERMINATED_CLASS);
  });

  it.each(['/user/home', '/register', '/nowhere'])('sends %s to /terminated when the site is gone', async (url) => {
    siteGone();
    const { router } = renderApp(url, { preloadedState: loggedIn });
    expect(await screen.findByTestId('terminated')).toHaveTextContent('Service unavailable');
    expect(router.state.location.pathname).toBe('/terminated');
  });

  it('clears the terminated style once the site answers it is active', async () => {
    document.body.classList.add(TERMINATED_CLASS);
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(document.body).not.toHaveClass(TERMINATED_CLASS);
  });

  it('puts the terminated style on while /login is being checked', async () => {
    let seen: boolean | undefined;
    server.use(
      http.get('/api/lookup/active', () => {
        seen = document.body.classList.contains(TERMINATED_CLASS);
        return HttpResponse.json({ terminated: null });
      }),
    );
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(seen).toBe(true);
  });

  it('checks the site on every navigation', async () => {
    let calls = 0;
    server.use(
      http.get('/api/lookup/active', () => {
        calls += 1;
        return HttpResponse.json({ terminated: null });
      }),
    );
    const { router, user } = renderApp('/user/home', { preloadedState: loggedIn });
    await screen.findByTestId('page-title');
    const before = calls;
    await user.click(screen.getByRole('link', { name: 'Statement' }));
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent('Statement'));
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent('Profile'));
    expect(calls).toBe(before + 2);
    expect(router.state.location.pathname).toBe('/user/profile');
  });

  it("requests the home's data before the home is drawn, once each (prefetchOnArrival, issue 13)", async () => {
    const asked: { url: string; drawn: boolean }[] = [];
    const record = (request: Request) => {
      asked.push({ url: new URL(request.url).pathname, drawn: screen.queryByTestId('page-title') !== null });
    };
    server.events.on('request:start', ({ request }) => record(request));
    try {
      renderApp('/user/home', { preloadedState: loggedIn });
      expect(await screen.findByTestId('page-title')).toHaveTextContent('Home');
      await waitFor(() => expect(asked.map((a) => a.url)).toEqual(expect.arrayContaining(['/api/wallet', '/api/spinwheel/active', '/api/limits'])));
      const home = asked.filter((a) => ['/api/wallet', '/api/spinwheel/active', '/api/limits'].includes(a.url));
      expect(home).toHaveLength(3);
      expect(home.filter((a) => a.drawn)).toEqual([]);
    } finally {
      server.events.removeAllListeners('request:start');
    }
  });

  it("starts the first route's imports before the router, which then finds them started (one import each)", async () => {
    jest.mocked(homePrefetch).mockClear();
    const store = makeStore({ session: loggedInSession('tok') });
    const routes = buildRoutes(store);
    startRouteImports(routes, '/user/home');
    await waitFor(() => expect(homePrefetch).toHaveBeenCalledTimes(1));
    const router = createMemoryRouter(routes, { initialEntries: ['/user/home'] });
    await waitFor(() => expect(router.state.initialized).toBe(true));
    expect(router.state.location.pathname).toBe('/user/home');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(homePrefetch).toHaveBeenCalledTimes(1);
    router.dispose();
  });

  it('requests nothing for the home of a visitor (on the way to /login)', async () => {
    const asked: string[] = [];
    server.events.on('request:start', ({ request }) => void asked.push(new URL(request.url).pathname));
    try {
      renderApp('/user/home');
      await screen.findByRole('heading', { name: 'Log in' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(asked.filter((url) => ['/api/wallet', '/api/spinwheel/active', '/api/limits'].includes(url))).toEqual([]);
    } finally {
      server.events.removeAllListeners('request:start');
    }
  });

  it('still opens the app when the site-active check fails', async () => {
    server.use(http.get('/api/lookup/active', () => HttpResponse.error()));
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
  });

  it("shows 'Page Not Found' for any other path, translated, with that document title in every language", async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Page Not Found');
    expect(document.title).toBe('Page Not Found');
  });

  it("keeps the document title 'Page Not Found' in Lao", async () => {
    renderApp('/missing', { preloadedState: { prefs: { locale: 'la', inviteCode: null, guestId: null, lastSync: null, agreementAccepted: false } } });
    expect(await screen.findByRole('heading', { name: 'ບໍ່ພົບໜ້າທີ່ຕ້ອງການ' })).toBeInTheDocument();
    expect(document.title).toBe('Page Not Found');
  });
});
