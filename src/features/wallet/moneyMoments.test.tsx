/**
 * Issue 40 item 10: the withdraw modal offers "withdraw all" and checks the balance before sending, and keeps the
 * account number on one line; the game modal copies the game username and password, shows the wallet balance
 * beside the amount and offers quick amounts, in the player's language.
 */
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { useGetWalletQuery } from '../../core/walletApi';
import type { Locale } from '../../lib/locale';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import { GameAccountModal } from './GameAccountModal';
import { serveWallet, walletResponse } from '../../test/support/wallet';
import { WithdrawModal } from './WithdrawModal';

const inLanguage = (locale: Locale) => ({ preloadedState: { prefs: { ...initialPrefs, locale } } });

function record(path: string) {
  const sent: unknown[] = [];
  server.use(
    http.get('/api/lookup/withdraw', () => HttpResponse.json({ withdrawMin: 100, withdrawMax: 50000 })),
    http.get('/api/wallet/account/:code', () => HttpResponse.json({ username: 'pw1', password: 'secret1' })),
    http.post(path, async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json({ status: 'IN_PROGRESS', message: 'WITHDRAW_IN_PROGRESS', withdrawalId: 'w1', transferId: 't1', amount: 1 });
    }),
  );
  return sent;
}

function Withdraw() {
  const { data } = useGetWalletQuery();
  return data ? <WithdrawModal onClose={() => {}} /> : null;
}
function Game() {
  const { data } = useGetWalletQuery();
  return data ? <GameAccountModal code="pg" onClose={() => {}} /> : null;
}

describe('withdraw', () => {
  it('"withdraw all" fills the wallet balance in the player\'s marks', async () => {
    serveWallet(() => walletResponse({ wallet: { amount: 1030.5 } }));
    record('/api/wallet/withdrawAll');
    const { user } = renderWithProviders(<Withdraw />, inLanguage('la'));
    await user.click(await screen.findByTestId('withdraw-all'));
    expect(screen.getByTestId('withdraw-amount')).toHaveValue('1.030,50');
  });

  it('"withdraw all" stops at the maximum', async () => {
    serveWallet(() => walletResponse({ wallet: { amount: 80000 } }));
    record('/api/wallet/withdrawAll');
    const { user } = renderWithProviders(<Withdraw />);
    await screen.findByText('Minimum 100.00, maximum 50,000.00 baht.');
    await user.click(screen.getByTestId('withdraw-all'));
    expect(screen.getByTestId('withdraw-amount')).toHaveValue('50,000');
  });

  it('refuses more than the wallet holds before sending, naming the balance', async () => {
    serveWallet();
    const sent = record('/api/wallet/withdrawAll');
    const { user } = renderWithProviders(<Withdraw />);
    await screen.findByText('Minimum 100.00, maximum 50,000.00 baht.');
    await user.type(screen.getByTestId('withdraw-amount'), '1000.01');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(screen.getByTestId('withdraw-amount')).toHaveAccessibleDescription(expect.stringContaining('Your wallet holds 1,000.00 baht.'));
    expect(sent).toEqual([]);
  });

  it('keeps the account number on one line', async () => {
    serveWallet();
    record('/api/wallet/withdrawAll');
    renderWithProviders(<Withdraw />);
    expect(await screen.findByText('111-222-3334')).toHaveClass('nowrap');
  });
});

describe('game account', () => {
  it('copies the game username and the password (hidden or not)', async () => {
    serveWallet();
    record('/api/wallet/transfer');
    const { user } = renderWithProviders(<Game />);
    const writeText = jest.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await screen.findByTestId('game-username');
    await user.click(screen.getByRole('button', { name: 'Copy username' }));
    expect(writeText).toHaveBeenLastCalledWith('pw1');
    expect(await screen.findByTestId('game-copy-status')).toHaveTextContent('Copied.');
    await user.click(screen.getByRole('button', { name: 'Copy password' }));
    expect(writeText).toHaveBeenLastCalledWith('secret1');
    expect(screen.getByTestId('game-password')).toHaveTextContent('••••••••');
  });

  it('shows the wallet balance beside the amount', async () => {
    serveWallet();
    record('/api/wallet/transfer');
    renderWithProviders(<Game />);
    await screen.findByTestId('game-username');
    expect(screen.getByTestId('game-amount')).toHaveAccessibleDescription(expect.stringContaining('In your wallet: 1,000.00 baht'));
  });

  it('fills a quick amount in the player\'s marks and transfers it', async () => {
    serveWallet();
    const sent = record('/api/wallet/transfer');
    const { user } = renderWithProviders(<Game />, inLanguage('la'));
    await screen.findByTestId('game-username');
    const pick = screen.getByTestId('game-quick-1000');
    expect(pick).toHaveTextContent(/^1\.000$/);
    await user.click(pick);
    expect(screen.getByTestId('game-amount')).toHaveValue('1.000');
    expect(pick).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByTestId('game-transfer-only'));
    await waitFor(() => expect(sent).toEqual([{ from: 'WALLET', to: 'pg', amount: 1000 }]));
  });
});
