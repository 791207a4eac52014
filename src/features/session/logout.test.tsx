import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderApp } from '../../test/render';
import { server } from '../../test/server';
import { serveUserArea } from '../../test/userArea';
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
