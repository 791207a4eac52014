import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { useGetWalletQuery } from '../../core/walletApi';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import { GameAccountModal } from './GameAccountModal';
import HomePage from './HomePage';
import { initialLaunchState, launchingTarget } from './launchSlice';
import { serveWallet, walletResponse } from '../../test/support/wallet';

// Issue 40 item 12: a tap that starts something slow answers at once on the button tapped (aria-busy, not usable
// again), not only after the 200 ms loading delay or when the slow part ends.

/** A server answer held until `release` is called. */
function held() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release: () => release() };
}

afterEach(() => jest.restoreAllMocks());

describe('launchingTarget', () => {
  it('names the button of a launch under way, and none otherwise', () => {
    expect(launchingTarget({ status: 'transferring', game: 'pg', target: 'android' })).toBe('android');
    expect(launchingTarget({ status: 'linking', game: 'pg', target: 'web' })).toBe('web');
    expect(launchingTarget({ status: 'opened', game: 'pg', target: 'web' })).toBeNull();
    expect(launchingTarget({ status: 'failed', game: 'pg', target: 'web', code: 'NO_GAME' })).toBeNull();
    expect(launchingTarget(initialLaunchState)).toBeNull();
  });
});

describe('busy at once', () => {
  function Host() {
    const { data } = useGetWalletQuery();
    return data ? <GameAccountModal code="pg" onClose={() => undefined} /> : null;
  }

  it('the play button tapped is busy and disabled from the tap on, until the game opens', async () => {
    const transfer = held();
    serveWallet(() => walletResponse());
    server.use(
      http.get('/api/wallet/account/:code', () => HttpResponse.json({ username: 'pw1', password: 'secret1' })),
      http.post('/api/wallet/transfer', async () => {
        await transfer.gate;
        return HttpResponse.json({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', transferId: 't', amount: 100 });
      }),
      http.get('/api/autoLogin/:game/:username', () => HttpResponse.json({ link: '/sim/games/pg/play?t=tok' })),
    );
    const win = { closed: false, opener: {} as unknown, location: { href: '' }, document: { title: '', body: { textContent: '' } }, close: jest.fn() };
    jest.spyOn(window, 'open').mockImplementation(() => win as unknown as Window);
    const { user } = renderWithProviders(<Host />);
    await screen.findByTestId('game-username');
    await user.type(screen.getByLabelText('Amount to move from your wallet (baht)'), '100');
    const play = screen.getByRole('button', { name: 'Play (web)' });
    expect(play).not.toHaveAttribute('aria-busy');
    await user.click(play);
    // The transfer has not answered: the button already says it is working, and taps on it do nothing.
    expect(play).toHaveAttribute('aria-busy', 'true');
    expect(play).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('game-transfer-only')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('game-transfer-only')).not.toHaveAttribute('aria-busy');
    transfer.release();
    await waitFor(() => expect(win.location.href).toContain('/sim/games/pg/play'));
    expect(screen.queryByRole('button', { name: 'Play (web)' })?.getAttribute('aria-busy') ?? null).toBeNull();
  });

  it('refresh-all is busy and disabled from the tap on, its icon turning, until the balances are back', async () => {
    const refresh = held();
    serveWallet(() => walletResponse());
    let calls = 0;
    server.use(
      http.get('/api/wallet/refresh/slot', async () => {
        calls += 1;
        await refresh.gate;
        return HttpResponse.json(walletResponse());
      }),
    );
    const { user } = renderWithProviders(<HomePage />, { preloadedState: { prefs: { ...initialPrefs, locale: 'en', agreementAccepted: true } }, route: '/user/home' });
    const widget = await screen.findByTestId('widget-refresh-all');
    expect(widget).not.toHaveAttribute('aria-busy');
    await user.click(widget);
    expect(widget).toHaveAttribute('aria-busy', 'true');
    expect(widget).toHaveAttribute('aria-disabled', 'true');
    expect(widget.querySelector('.spin')).not.toBeNull();
    await user.click(widget);
    expect(calls).toBe(1);
    refresh.release();
    await waitFor(() => expect(widget).not.toHaveAttribute('aria-busy'));
    expect(widget).not.toHaveAttribute('aria-disabled');
    expect(widget.querySelector('.spin')).toBeNull();
  });
});
