import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderApp } from '../../test/support/render';
import { errorResponse, limitsAnswer, server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import { initialReality } from './realitySlice';

const session = { token: 'tok', remember: true, login: { status: 'loggedIn' as const } };
const MIN = 60_000;

/** GET /api/limits for a session that started `minutesAgo` minutes ago; each answer's net result from `nets`. */
function sessionOf(minutesAgo: number, { nets = [-100], realityMinutes = 60, minuteMs = MIN, sessionLimit = null as number | null } = {}) {
  const startedAt = new Date(Date.now() - minutesAgo * minuteMs).toISOString();
  const calls = { limits: 0, logouts: 0 };
  server.use(
    http.get('/api/limits', () => {
      const netResult = nets[Math.min(calls.limits, nets.length - 1)];
      calls.limits += 1;
      const base = limitsAnswer();
      return HttpResponse.json(
        limitsAnswer({
          realityMinutes,
          limits: { ...base.limits, sessionMinutes: { value: sessionLimit, pending: null } },
          session: { startedAt, now: new Date().toISOString(), minuteMs, netResult },
        }),
      );
    }),
    http.post('/api/logout', () => {
      calls.logouts += 1;
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { startedAt, calls };
}

describe('reality check (user layout)', () => {
  beforeEach(() => serveUserArea());

  it('shows nothing before the first interval', async () => {
    const { calls } = sessionOf(59);
    renderApp('/user/statement', { preloadedState: { session } });
    await screen.findByTestId('page-title');
    await waitFor(() => expect(calls.limits).toBeGreaterThan(0));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('interrupts once due: time played and the net result asked for afresh, no way out but its two buttons', async () => {
    const { calls } = sessionOf(61, { nets: [-100, -150.5] });
    const { user } = renderApp('/user/statement', { preloadedState: { session } });
    const dialog = await screen.findByRole('alertdialog', { name: 'Reality check' });
    expect(within(dialog).getByTestId('reality-played')).toHaveTextContent('You have played for 1 h 1 min in this session.');
    // The figures were asked for again as the dialog opened.
    await waitFor(() => expect(within(dialog).getByTestId('reality-net')).toHaveTextContent('Your net result since you logged in: -150.50 baht.'));
    expect(calls.limits).toBeGreaterThanOrEqual(2);
    expect(within(dialog).queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Continue', 'Log out']);
    expect(within(dialog).getByTestId('reality-continue')).toHaveFocus();

    // Escape and the backdrop do nothing; Tab stays inside.
    await user.keyboard('{Escape}');
    fireEvent.mouseDown(dialog.parentElement as HTMLElement);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await user.tab();
    expect(within(dialog).getByTestId('reality-logout')).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByTestId('reality-continue')).toHaveFocus();
  });

  it('continue acknowledges the check for this session (remembered across a reload); a due one shows again', async () => {
    const { startedAt } = sessionOf(61);
    const first = renderApp('/user/statement', { preloadedState: { session } });
    await first.user.click(await screen.findByTestId('reality-continue'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(first.store.getState().reality).toMatchObject({ startedAt, acknowledged: 1 });
    first.unmount();

    // A reload with the acknowledged count of this session: nothing shows.
    const again = renderApp('/user/statement', { preloadedState: { session, reality: { ...initialReality, startedAt, acknowledged: 1 } } });
    await again.findByTestId('page-title');
    await waitFor(() => expect(again.store.getState().api.queries['getLimits(undefined)']?.status).toBe('fulfilled'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    again.unmount();

    // What was acknowledged in another session does not count for this one.
    renderApp('/user/statement', { preloadedState: { session, reality: { ...initialReality, startedAt: '2026-01-01T00:00:00.000Z', acknowledged: 5 } } });
    expect(await screen.findByRole('alertdialog', { name: 'Reality check' })).toBeInTheDocument();
  });

  it('comes back at the next interval (shortened minutes, as the e2e suite runs them)', async () => {
    // 30 "minutes" of 100 ms: checks at 3 s, 6 s, ... after the start; the first is due now, the next ~2.9 s after
    // the first render. Minutes of 10 ms left 300 ms for the render, the click and its answer: on a busy machine
    // (two jest workers on two cores) the next check was due before the click's assertion.
    sessionOf(31, { realityMinutes: 30, minuteMs: 100 });
    const { user } = renderApp('/user/statement', { preloadedState: { session } });
    await user.click(await screen.findByTestId('reality-continue'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('alertdialog', { name: 'Reality check' }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('log out ends the session', async () => {
    const { calls } = sessionOf(61);
    const { user, router } = renderApp('/user/statement', { preloadedState: { session } });
    await user.click(await screen.findByTestId('reality-logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.logouts).toBe(1);
  });
});

describe('session limit (SESSION_LIMIT)', () => {
  beforeEach(() => serveUserArea());

  it('a call refused with SESSION_LIMIT shows a dialog whose only action is log out', async () => {
    sessionOf(1);
    // Refused while the session holds its token; the request after the logout (no token) is not refused so.
    server.use(
      http.post('/api/statement', ({ request }) =>
        request.headers.get('authorization') ? errorResponse('SESSION_LIMIT', 403) : HttpResponse.json({ total: 0, statements: [] }),
      ),
    );
    const { user, router, store } = renderApp('/user/statement', { preloadedState: { session } });
    const dialog = await screen.findByRole('alertdialog', { name: 'Session time limit reached' });
    expect(dialog).toHaveTextContent('You have reached the session time limit you set.');
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Log out']);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('session-limit-logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(store.getState().reality.sessionLimit).toBe(false);
  });

  it('shows the same dialog once the session is older than the limit, before any call is refused', async () => {
    sessionOf(31, { sessionLimit: 30 });
    renderApp('/user/statement', { preloadedState: { session } });
    expect(await screen.findByRole('alertdialog', { name: 'Session time limit reached' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog', { name: 'Reality check' })).not.toBeInTheDocument();
  });
});
