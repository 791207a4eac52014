import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import { loggedInSession } from './sessionSlice';

type LoginBody = { username?: string; password?: string; remember?: unknown };

function acceptLogin(token = 'tok-new') {
  const bodies: LoginBody[] = [];
  server.use(
    http.post('/api/login', async ({ request }) => {
      bodies.push((await request.json()) as LoginBody);
      return HttpResponse.json({ token });
    }),
  );
  return bodies;
}

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], { remember = false } = {}) {
  await user.type(await screen.findByLabelText('Phone number'), '0812345678');
  await user.type(screen.getByLabelText('Password'), 'secret1');
  if (remember) await user.click(screen.getByLabelText('Remember me'));
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

/** The stored session record (redux-persist key `persist:token`) in one storage. */
const stored = (storage: Storage) => {
  const raw = storage.getItem('persist:token');
  return raw ? (JSON.parse(JSON.parse(raw).token) as string | null) : undefined;
};

describe('login screen', () => {
  it('has the fields, remember-me, a register link and the language dropdown', async () => {
    renderApp('/login');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Log in');
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('data-testid', 'login-phone');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Remember me')).not.toBeChecked();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.getAllByTestId('language-switcher')).toHaveLength(1);
    expect(screen.getByTestId('login-submit')).toHaveTextContent('Log in');
    // A first visit is not an ended session: no notice.
    expect(screen.queryByTestId('session-expired')).not.toBeInTheDocument();
  });

  it('logs in with remember-me: token kept in localStorage, then /user', async () => {
    const bodies = acceptLogin('tok-remember');
    const { user, router, store, persistor } = renderApp('/login', { persist: true });
    await fillAndSubmit(user, { remember: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
    expect(store.getState().session).toMatchObject({ token: 'tok-remember', remember: true, login: { status: 'loggedIn' } });
    expect(bodies).toEqual([{ username: '0812345678', password: 'secret1' }]);
    await persistor!.flush();
    expect(stored(window.localStorage)).toBe('tok-remember');
    expect(stored(window.sessionStorage)).toBeUndefined();
  });

  it('logs in without remember-me: token kept for this tab only (sessionStorage)', async () => {
    acceptLogin('tok-tab');
    const { user, router, store, persistor } = renderApp('/login', { persist: true });
    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
    expect(store.getState().session.token).toBe('tok-tab');
    await persistor!.flush();
    expect(stored(window.sessionStorage)).toBe('tok-tab');
    expect(stored(window.localStorage)).toBeUndefined();
  });

  it('goes to the next URL the guard carried', async () => {
    acceptLogin();
    server.use(http.post('/api/statement', () => HttpResponse.json({ total: 0, statements: [] })));
    const { user, router } = renderApp('/user/statement');
    await screen.findByRole('heading', { name: 'Log in' });
    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/statement'));
    expect(await screen.findByRole('heading', { name: 'Statement' })).toHaveAttribute('data-testid', 'page-title');
  });

  it('ignores a next URL that leaves the site', async () => {
    acceptLogin();
    const { user, router } = renderApp('/login?next=//evil.example/x');
    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
  });

  it('shows the error code translated in the error line and stays on /login', async () => {
    server.use(http.post('/api/login', () => errorResponse('WRONG_CREDENTIAL', 401)));
    const { user, router, store } = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(screen.getByTestId('login-error')).toHaveTextContent('Incorrect phone number or password.'));
    expect(router.state.location.pathname).toBe('/login');
    expect(store.getState().session.token).toBeNull();
    expect(screen.getByTestId('login-submit')).toBeEnabled();
  });

  it('shows the error in the player language (Thai)', async () => {
    server.use(http.post('/api/login', () => errorResponse('REQUEST_LIMIT', 429)));
    const { user } = renderApp('/login', { preloadedState: { prefs: { ...initialPrefs, locale: 'th' } } });
    await user.type(await screen.findByLabelText('หมายเลขโทรศัพท์'), '0812345678');
    await user.type(screen.getByLabelText('รหัสผ่าน'), 'secret1');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(screen.getByTestId('login-error')).toHaveTextContent('ทำรายการบ่อยเกินไป กรุณารอสักครู่แล้วลองใหม่'));
  });

  it('asks for both fields before calling the server', async () => {
    const bodies = acceptLogin();
    const { user } = renderApp('/login');
    await user.click(await screen.findByTestId('login-submit'));
    expect(screen.getByTestId('login-error')).toHaveTextContent('Please enter your phone number and password.');
    expect(bodies).toEqual([]);
  });

  it('disables the button while submitting', async () => {
    let release: () => void = () => undefined;
    // It lands on /user/home, whose calls must be answered before the test ends.
    serveUserArea();
    server.use(
      http.post('/api/login', async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json({ token: 't' });
      }),
    );
    const { user, router } = renderApp('/login');
    await fillAndSubmit(user);
    expect(await screen.findByRole('button', { name: 'Logging in…' })).toBeDisabled();
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
  });
});

describe('a session the server ended', () => {
  beforeEach(serveUserArea);

  /** The statement answers 401 EXPIRED_AUTH_TOKEN to the old token and its list to any other. */
  function refuseToken(old: string) {
    server.use(
      http.post('/api/statement', ({ request }) =>
        request.headers.get('authorization') === `Bearer ${old}` ? errorResponse('EXPIRED_AUTH_TOKEN', 401) : HttpResponse.json({ total: 0, statements: [] }),
      ),
    );
  }

  it('says why on /login, keeps the next URL and goes there after logging in', async () => {
    refuseToken('tok-old');
    acceptLogin('tok-new');
    const { user, router, store } = renderApp('/user/statement?page=2', { preloadedState: { session: loggedInSession('tok-old', true) } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/user/statement?page=2');
    expect(store.getState().session.token).toBeNull();
    const notice = await screen.findByTestId('session-expired');
    expect(notice).toHaveTextContent('Your session has expired. Please log in again.');
    expect(notice).toHaveAttribute('role', 'status');

    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/statement'));
    expect(router.state.location.search).toBe('?page=2');
    expect(store.getState().session.token).toBe('tok-new');
    expect(await screen.findByRole('heading', { name: 'Statement' })).toBeInTheDocument();
    expect(screen.queryByTestId('session-expired')).not.toBeInTheDocument();
  });

  it('says it in the player language (Thai)', async () => {
    refuseToken('tok-old');
    const { router } = renderApp('/user/statement', {
      preloadedState: { session: loggedInSession('tok-old'), prefs: { ...initialPrefs, locale: 'th' } },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('session-expired')).toHaveTextContent('เซสชันของคุณหมดอายุแล้ว กรุณาเข้าสู่ระบบอีกครั้ง');
  });

  it('says nothing after the player logged out', async () => {
    server.use(http.post('/api/logout', () => new HttpResponse(null, { status: 204 })));
    const { user, router } = renderApp('/user/home', { preloadedState: { session: loggedInSession('tok-out') } });
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByTestId('session-expired')).not.toBeInTheDocument();
    expect(screen.queryByText('Your session has expired. Please log in again.')).not.toBeInTheDocument();
  });
});
