import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { useGetWalletQuery } from '../../core/walletApi';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { GameAccountModal } from './GameAccountModal';
import { serveWallet, slot, walletResponse } from '../../test/support/wallet';

function Host({ code, onClose }: { code: string; onClose: (changed: boolean) => void }) {
  const { data } = useGetWalletQuery();
  return data ? <GameAccountModal code={code} onClose={onClose} /> : null;
}

/** The order in which the game calls reached the server. */
function serveGame({ transfer = () => HttpResponse.json({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', transferId: 't', amount: 1 }) as Response } = {}) {
  const calls: string[] = [];
  const transfers: unknown[] = [];
  let password = 'secret1';
  server.use(
    http.get('/api/wallet/account/:code', ({ params }) => {
      calls.push(`account:${params.code}`);
      return HttpResponse.json({ username: 'pw1', password });
    }),
    http.get('/api/wallet/resetpassword/:code', () => {
      calls.push('reset');
      password = 'secret2';
      return HttpResponse.json({ username: 'pw1', password });
    }),
    http.post('/api/wallet/transfer', async ({ request }) => {
      calls.push(`transfer:${jest.isMockFunction(window.open) ? (window.open as jest.Mock).mock.calls.length : 'no window'}`);
      transfers.push(await request.json());
      return transfer();
    }),
    http.get('/api/autoLogin/:game/:username', ({ params }) => {
      calls.push(`autoLogin:${params.game}/${params.username}`);
      return HttpResponse.json({ link: '/sim/games/pg/play?t=tok' });
    }),
  );
  return { calls, transfers };
}

function fakeWindow() {
  const win = {
    closed: false,
    opener: {} as unknown,
    location: { href: '' },
    document: { title: '', body: { textContent: '' } },
    close: jest.fn(() => {
      win.closed = true;
    }),
  };
  jest.spyOn(window, 'open').mockImplementation(() => win as unknown as Window);
  return win;
}

afterEach(() => jest.restoreAllMocks());

async function setup(code = 'pg', wallet = walletResponse()) {
  serveWallet(() => wallet);
  const onClose = jest.fn();
  const view = renderWithProviders(<Host code={code} onClose={onClose} />);
  await screen.findByTestId('game-username');
  return { ...view, onClose };
}

describe('game account modal', () => {
  it('shows the credentials, the balance and the provider credit', async () => {
    serveGame();
    const { user } = await setup('joker2', walletResponse({ slots: [slot('joker2', { name: 'Joker Gaming', isActive: true, amount: 0.2, ftWalletSlot: 10 })] }));
    expect(screen.getByRole('dialog', { name: 'Joker Gaming' })).toBeInTheDocument();
    expect(screen.getByTestId('game-username')).toHaveTextContent('pw1');
    expect(screen.getByTestId('game-password')).not.toHaveTextContent('secret1');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByTestId('game-password')).toHaveTextContent('secret1');
    expect(screen.getByTestId('game-account-balance')).toHaveTextContent('0.20');
    expect(screen.getByText('Joker Gaming credit').nextSibling).toHaveTextContent('2.00');
  });

  it("'transfer only' with no amount focuses the amount field and sends nothing", async () => {
    const { transfers } = serveGame();
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Transfer only' }));
    const amount = screen.getByLabelText('Amount to move from your wallet (baht)');
    expect(amount).toHaveFocus();
    expect(screen.getByText('Enter an amount above 0 to transfer.')).toBeInTheDocument();
    await user.type(amount, '0');
    await user.click(screen.getByRole('button', { name: 'Transfer only' }));
    expect(amount).toHaveFocus();
    expect(transfers).toHaveLength(0);
  });

  it("'transfer only' moves the amount from the wallet to this game", async () => {
    const { transfers } = serveGame();
    const { user, onClose } = await setup();
    await user.type(screen.getByLabelText('Amount to move from your wallet (baht)'), '50');
    await user.click(screen.getByRole('button', { name: 'Transfer only' }));
    const receipt = await screen.findByTestId('receipt');
    expect(receipt).toHaveTextContent('The money has been transferred.');
    expect(within(receipt).getByTestId('receipt-to')).toHaveTextContent('PG Soft');
    expect(transfers).toEqual([{ from: 'WALLET', to: 'pg', amount: 50 }]);
    await user.click(within(receipt).getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it('play at zero skips the transfer and opens the game in the window opened on click, in the player\'s language', async () => {
    const { calls } = serveGame();
    const win = fakeWindow();
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Play (web)' }));
    await waitFor(() => expect(win.location.href).toBe('http://localhost/sim/games/pg/play?t=tok&lang=en'));
    expect(window.open).toHaveBeenCalledWith('', '_blank');
    expect(win.opener).toBeNull();
    expect(calls).toEqual(['account:pg', 'autoLogin:pg/pw1']);
  });

  it('play with an amount transfers it first, then opens the game', async () => {
    const { calls, transfers } = serveGame();
    const win = fakeWindow();
    const { user, store } = await setup();
    await user.type(screen.getByLabelText('Amount to move from your wallet (baht)'), '100');
    await user.click(screen.getByRole('button', { name: 'Play (web)' }));
    await waitFor(() => expect(win.location.href).toContain('/sim/games/pg/play?t=tok&lang=en'));
    expect(transfers).toEqual([{ from: 'WALLET', to: 'pg', amount: 100 }]);
    // The window was already open when the transfer was sent (opened in the click, for popup blockers).
    expect(calls.filter((call) => !call.startsWith('account'))).toEqual(['transfer:1', 'autoLogin:pg/pw1']);
    expect(await screen.findByTestId('receipt')).toHaveTextContent('The money has been transferred.');
    expect(store.getState().gameLaunch).toEqual({ status: 'opened', game: 'pg', target: 'web' });
  });

  it('a refused transfer closes the waiting window and does not open the game', async () => {
    const { calls } = serveGame({ transfer: () => errorResponse('MONEY_NOT_ENOUGH', 422) });
    const win = fakeWindow();
    const { user } = await setup();
    await user.type(screen.getByLabelText('Amount to move from your wallet (baht)'), '5000');
    await user.click(screen.getByRole('button', { name: 'Play (web)' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Your balance is not enough.'));
    expect(win.close).toHaveBeenCalled();
    expect(win.location.href).toBe('');
    expect(calls.some((call) => call.startsWith('autoLogin'))).toBe(false);
  });

  it('offers a link when the browser blocked the new window', async () => {
    serveGame();
    jest.spyOn(window, 'open').mockImplementation(() => null);
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Play (web)' }));
    expect(await screen.findByRole('link', { name: 'Open the game' })).toHaveAttribute('href', 'http://localhost/sim/games/pg/play?t=tok&lang=en');
  });

  it('resets the password and shows the new one', async () => {
    const { calls } = serveGame();
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(screen.getByTestId('game-password')).toHaveTextContent('secret2'));
    expect(screen.getByText('The password was reset.')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call === 'account:pg')).toHaveLength(2));
  });

  it("shows huayhd's event form state", async () => {
    server.use(
      http.get('/api/wallet/account/huayhd', () =>
        HttpResponse.json({ username: 'pw1', password: 'lotto9', event: { formState: { username: 'pw1', password: 'lotto9' } } }),
      ),
    );
    const { user } = await setup('huayhd', walletResponse({ slots: [slot('huayhd', { name: 'Huay HD', category: 'lotto', isActive: true, web: '/api/autoLogin/huayhd/pw1/lotto9' })] }));
    const event = screen.getByTestId('game-event');
    expect(event).toHaveTextContent('Lottery sign-in form');
    expect(within(event).getByText('Username').nextSibling).toHaveTextContent('pw1');
    expect(event).not.toHaveTextContent('lotto9');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(event).toHaveTextContent('lotto9');
  });
});
