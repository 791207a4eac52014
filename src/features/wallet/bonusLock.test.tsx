/**
 * Issue 40 item 3: an active bonus's withdrawal lock is said before the player tries to withdraw: on the home
 * screen, in the withdraw modal before the amount, and a refused withdrawal (BONUS_CONDITION) names what is left.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { useGetWalletQuery } from '../../core/walletApi';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import HomePage from './HomePage';
import { serveWallet, slot, walletResponse } from '../../test/support/wallet';
import { WithdrawModal } from './WithdrawModal';

const name = { th: 'โบนัสต้อนรับ', la: 'ໂບນັດຕ້ອນຮັບ', en: 'Welcome bonus' };
function serveActiveBonus(active = true) {
  const calls = { count: 0 };
  server.use(
    http.get('/api/bonus/check/active', () => {
      calls.count += 1;
      return HttpResponse.json(
        active
          ? {
              status: true,
              type: 'limit',
              progress: { code: 'WELCOME', name, kind: 'bonus', amount: 250, startAmount: 750, turnover: 1250, target: 5000, percentFail: 30, failAt: 225, createdAt: '2026-11-26T03:00:00.000Z' },
            }
          : { status: false, type: null, progress: null },
      );
    }),
  );
  return calls;
}

function Withdraw({ onClose = () => {} }: { onClose?: (changed: boolean) => void }) {
  const { data } = useGetWalletQuery();
  return data ? <WithdrawModal onClose={onClose} /> : null;
}

function serveWithdraw(answer: () => Response) {
  const sent: unknown[] = [];
  server.use(
    http.get('/api/lookup/withdraw', () => HttpResponse.json({ withdrawMin: 100, withdrawMax: 50000 })),
    http.post('/api/wallet/withdrawAll', async ({ request }) => {
      sent.push(await request.json());
      return answer();
    }),
  );
  return sent;
}

describe('the withdraw modal with an active bonus', () => {
  it('counts money parked at a game in what cancelling takes back (issue 39 row 1: a cancel pulls from the games too)', async () => {
    // 100 in the wallet, 400 at a game, a 250 bonus: a cancel takes back all 250, not the wallet's 100.
    serveWallet(() => walletResponse({ wallet: { amount: 100 }, slots: [slot('pg', { isActive: true, amount: 400 }), slot('circus', { amount: 0 })] }));
    serveActiveBonus();
    serveWithdraw(() => errorResponse('BONUS_CONDITION', 422));
    renderWithProviders(<Withdraw />);
    const lock = await screen.findByTestId('withdraw-bonus-lock');
    expect(within(lock).getByTestId('withdraw-bonus-lock-takes-back')).toHaveTextContent('takes back 250.00 baht');
  });

  it('says the lock before the amount: what is left to wager and what cancelling would take back', async () => {
    serveWallet();
    serveActiveBonus();
    const sent = serveWithdraw(() => errorResponse('BONUS_CONDITION', 422));
    renderWithProviders(<Withdraw />);
    const lock = await screen.findByTestId('withdraw-bonus-lock');
    expect(within(lock).getByTestId('withdraw-bonus-lock-remaining')).toHaveTextContent('Left to wager before you can withdraw: 3,750.00 baht');
    // The wallet holds 1,000 and the bonus was 250: cancelling takes back 250.
    expect(within(lock).getByTestId('withdraw-bonus-lock-takes-back')).toHaveTextContent('Cancelling the bonus instead takes back 250.00 baht from your wallet and game accounts.');
    const bar = within(lock).getByRole('progressbar', { name: 'Turnover of Welcome bonus' });
    expect(bar).toHaveAttribute('aria-valuenow', '1250');
    expect(bar).toHaveAttribute('aria-valuemax', '5000');
    expect(bar).toHaveAttribute('aria-valuetext', '1,250.00 of 5,000.00 baht wagered (25%)');
    expect(within(lock).getByRole('link', { name: 'See the bonus' })).toHaveAttribute('href', '/user/bonus');
    // Before the amount field, in reading order.
    expect(lock.compareDocumentPosition(screen.getByTestId('withdraw-amount')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('closes the modal when the player follows the link to the bonus page', async () => {
    serveWallet();
    serveActiveBonus();
    serveWithdraw(() => errorResponse('BONUS_CONDITION', 422));
    const onClose = jest.fn();
    const { user } = renderWithProviders(<Withdraw onClose={onClose} />);
    await user.click(await screen.findByRole('link', { name: 'See the bonus' }));
    expect(onClose).toHaveBeenCalledWith(false);
  });

  it('says nothing of a bonus when none is active', async () => {
    serveWallet();
    const calls = serveActiveBonus(false);
    serveWithdraw(() => errorResponse('NO_DATA', 404));
    renderWithProviders(<Withdraw />);
    await screen.findByText('Minimum 100.00, maximum 50,000.00 baht.');
    await waitFor(() => expect(calls.count).toBe(1));
    expect(screen.queryByTestId('withdraw-bonus-lock')).not.toBeInTheDocument();
  });

  it('a refused withdrawal (BONUS_CONDITION) names the turnover left and links to the bonus page', async () => {
    serveWallet();
    const calls = serveActiveBonus();
    serveWithdraw(() => errorResponse('BONUS_CONDITION', 422));
    const { user } = renderWithProviders(<Withdraw />);
    await screen.findByTestId('withdraw-bonus-lock');
    await user.type(screen.getByTestId('withdraw-amount'), '200');
    await user.click(screen.getByTestId('withdraw-submit'));
    await user.click(await screen.findByTestId('withdraw-confirm'));
    const alert = await screen.findByTestId('move-alert');
    expect(alert).toHaveTextContent('You can withdraw once 3,750.00 baht more has been wagered for your bonus.');
    expect(within(alert).getByRole('link', { name: 'See the bonus' })).toHaveAttribute('href', '/user/bonus');
    // The refusal asks for the bonus again: the lock it names is the server's latest.
    await waitFor(() => expect(calls.count).toBe(2));
  });
});

describe('the home screen with an active bonus', () => {
  it('shows its turnover progress and a link to the bonus page', async () => {
    serveWallet();
    serveActiveBonus();
    renderWithProviders(<HomePage />, { preloadedState: { prefs: { ...initialPrefs, locale: 'en', agreementAccepted: true } }, route: '/user/home' });
    const lock = await screen.findByTestId('home-bonus-lock');
    expect(within(lock).getByRole('progressbar', { name: 'Turnover of Welcome bonus' })).toHaveAttribute('aria-valuenow', '1250');
    expect(lock).toHaveTextContent('Left to wager before you can withdraw: 3,750.00 baht');
    expect(within(lock).getByRole('link', { name: 'See the bonus' })).toHaveAttribute('href', '/user/bonus');
  });

  it('shows nothing of a bonus when none is active', async () => {
    serveWallet();
    const calls = serveActiveBonus(false);
    renderWithProviders(<HomePage />, { preloadedState: { prefs: { ...initialPrefs, locale: 'en', agreementAccepted: true } }, route: '/user/home' });
    await screen.findByTestId('home-limits');
    await waitFor(() => expect(calls.count).toBe(1));
    expect(screen.queryByTestId('home-bonus-lock')).not.toBeInTheDocument();
  });
});
