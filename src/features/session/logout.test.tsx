import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import { loggedInSession } from './sessionSlice';

describe('logout', () => {
  beforeEach(serveUserArea);

  it('revokes the token on the server, forgets it and goes to /login', async () => {
    let authorization: string | null = null;
    server.use(
      http.post('/api/logout', ({ request }) => {
        authorization = request.headers.get('authorization');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, router, store } = renderApp('/user/home', { preloadedState: { session: loggedInSession('tok-out', true) } });
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(authorization).toBe('Bearer tok-out');
    expect(store.getState().session.token).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
  });

  it('still logs out locally when the server call fails', async () => {
    server.use(http.post('/api/logout', () => HttpResponse.error()));
    const { user, router, store } = renderApp('/user/profile', { preloadedState: { session: loggedInSession('tok-out') } });
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().session.token).toBeNull();
    expect(screen.queryByRole('alert', { name: /./ })).not.toBeInTheDocument();
  });

  it('cannot reach the user area afterwards', async () => {
    server.use(http.post('/api/logout', () => new HttpResponse(null, { status: 204 })));
    const { user, router } = renderApp('/user/home', { preloadedState: { session: loggedInSession('tok-out') } });
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await act(() => router.navigate('/user/profile'));
    await waitFor(() => expect(router.state.location.search).toBe('?next=%2Fuser%2Fprofile'));
  });
});

describe('a public page visited with a token (spec §4)', () => {
  const copiedSession = { session: loggedInSession('tok-copied', true) };

  it('revokes the token on the server with that token, then forgets it on the device', async () => {
    const seen: { authorization: string | null; tokenOnDevice: string | null }[] = [];
    const rendered: { view?: ReturnType<typeof renderApp> } = {};
    server.use(
      http.post('/api/logout', ({ request }) => {
        seen.push({ authorization: request.headers.get('authorization'), tokenOnDevice: rendered.view?.store.getState().session.token ?? null });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const view = (rendered.view = renderApp('/howto', { preloadedState: copiedSession, persist: true }));
    expect(await screen.findByTestId('page-title')).toHaveTextContent('How to use');
    expect(seen).toEqual([{ authorization: 'Bearer tok-copied', tokenOnDevice: 'tok-copied' }]);
    expect(view.store.getState().session.token).toBeNull();
    await view.persistor!.flush();
    expect(window.localStorage.getItem('persist:token') ?? '').not.toContain('tok-copied');
    expect(window.sessionStorage.getItem('persist:token') ?? '').not.toContain('tok-copied');
  });

  it('forgets the token even when the server cannot be reached, without an error', async () => {
    let calls = 0;
    server.use(
      http.post('/api/logout', () => {
        calls += 1;
        return HttpResponse.error();
      }),
      // The page's own details answer: the only alert that could show is then the logout's. (Unanswered, the
      // page's own "could not be loaded" alert raced the check below and won whenever MSW answered first.)
      http.get('/api/lookup/contact', () => HttpResponse.json({ contactText: '<p>24 hours</p>', lineLink: '', lineName: '', lineQR: null })),
    );
    const { store, router } = renderApp('/contact', { preloadedState: copiedSession });
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Contact us');
    expect(calls).toBe(1);
    expect(store.getState().session.token).toBeNull();
    expect(router.state.location.pathname).toBe('/contact');
    expect(screen.queryAllByRole('alert').filter((alert) => alert.textContent !== '')).toEqual([]);
  });

  it('stays on the public page when the server says the token is dead already (401)', async () => {
    let calls = 0;
    server.use(
      http.post('/api/logout', () => {
        calls += 1;
        return HttpResponse.json({ message: 'invalid-token' }, { status: 401 });
      }),
      http.get('/api/lookup/registerOTP', () => HttpResponse.json({ registerOTP: false })),
    );
    const { store, router } = renderApp('/register', { preloadedState: copiedSession });
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Register');
    expect(calls).toBe(1);
    expect(store.getState().session.token).toBeNull();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('asks nothing of the server without a token', async () => {
    let calls = 0;
    server.use(
      http.post('/api/logout', () => {
        calls += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp('/howto');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('How to use');
    expect(calls).toBe(0);
  });
});
