import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { formatDateTime } from '../../lib/format';
import { renderWithProviders } from '../../test/support/render';
import { limitsAnswer, server } from '../../test/support/server';
import HomePage from './HomePage';
import { serveWallet } from '../../test/support/wallet';

const accepted = { prefs: { ...initialPrefs, locale: 'en' as const, agreementAccepted: true } };
const ENDS = '2026-12-03T10:00:00.000Z';

/** GET /api/limits with `restriction` running (or none); records the banner and activation calls. */
function serve(restriction: 'TIMEOUT' | 'EXCLUSION' | null) {
  serveWallet();
  const calls = { banners: 0, activations: 0 };
  server.use(
    http.get('/api/limits', () =>
      HttpResponse.json(limitsAnswer({ restriction: restriction && { kind: restriction, period: '7d', startsAt: '2026-11-26T10:00:00.000Z', endsAt: ENDS } })),
    ),
    http.get('/api/invite/banners', () => {
      calls.banners += 1;
      return HttpResponse.json({ banners: [{ image: '/banners/invite.png', html: { th: 'ชวน', la: 'ຊວນ', en: 'Invite and earn' } }] });
    }),
    http.post('/api/wallet/activate/:code', () => {
      calls.activations += 1;
      return HttpResponse.json({});
    }),
  );
  return calls;
}

function renderHome() {
  return renderWithProviders(<HomePage />, { preloadedState: accepted, route: '/user/home' });
}

describe('home screen during a time-out or self-exclusion (issue 15)', () => {
  it.each([
    ['TIMEOUT' as const, 'Time-out until'],
    ['EXCLUSION' as const, 'Self-exclusion until'],
  ])('says a running %s on arrival, before any button is tried, with its end and the limits page (issue 40 item 11)', async (kind, words) => {
    serve(kind);
    renderHome();
    const notice = await screen.findByTestId('play-restriction');
    expect(notice).toHaveAttribute('role', 'status');
    expect(notice).toHaveTextContent(`${words} ${formatDateTime(ENDS)}: deposits, transfers and games are closed`);
    expect(within(notice).getByRole('link', { name: 'Play limits and breaks' })).toHaveAttribute('href', '/user/limits');
  });

  it('the deposit button says the time-out and its end instead of opening the deposit modal', async () => {
    serve('TIMEOUT');
    const { user, store } = renderHome();
    await screen.findByTestId('game-card-pg');
    await waitFor(() => expect(store.getState().api.queries['getLimits(undefined)']?.status).toBe('fulfilled'));
    await user.click(screen.getByTestId('widget-deposit'));
    const refusal = await screen.findByTestId('play-refusal');
    expect(refusal).toHaveAttribute('role', 'alert');
    expect(refusal).toHaveTextContent(`You are on a time-out. You can only see your balance and statement and withdraw. It ends on ${formatDateTime(ENDS)}.`);
    expect(refusal).toHaveFocus();
    expect(store.getState().modals.stack).toEqual([]);
  });

  it('the transfer and game buttons refuse the same way (self-exclusion), and no game account is opened', async () => {
    const calls = serve('EXCLUSION');
    const { user, store } = renderHome();
    const circus = await screen.findByTestId('game-card-circus');
    await waitFor(() => expect(store.getState().api.queries['getLimits(undefined)']?.status).toBe('fulfilled'));
    await user.click(screen.getByTestId('open-transfer'));
    expect(await screen.findByTestId('play-refusal')).toHaveTextContent('You have excluded yourself from play.');
    await user.click(within(circus).getByRole('button', { name: 'Open account: Circus Slot' }));
    await user.click(within(screen.getByTestId('game-card-pg')).getByRole('button', { name: 'View data: PG Soft' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.activations).toBe(0);
    expect(store.getState().modals.stack).toEqual([]);
  });

  it('hides the marketing banners: the invite widget opens its modal without fetching them', async () => {
    const calls = serve('TIMEOUT');
    const { user, store } = renderHome();
    await waitFor(() => expect(store.getState().api.queries['getLimits(undefined)']?.status).toBe('fulfilled'));
    await user.click(await screen.findByRole('button', { name: 'Invite friends' }));
    await waitFor(() => expect(store.getState().modals.stack).toEqual(['invite']));
    expect(calls.banners).toBe(0);
  });

  it('without a restriction the deposit button opens its modal, and the limits link is at the bottom', async () => {
    const calls = serve(null);
    const { user, store } = renderHome();
    await waitFor(() => expect(store.getState().api.queries['getLimits(undefined)']?.status).toBe('fulfilled'));
    await user.click(await screen.findByTestId('widget-deposit'));
    expect(store.getState().modals.stack).toEqual(['deposit']);
    expect(screen.queryByTestId('play-refusal')).not.toBeInTheDocument();
    expect(screen.queryByTestId('play-restriction')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Play limits and breaks' })).toHaveAttribute('href', '/user/limits');
    expect(calls.banners).toBe(0);
  });
});
