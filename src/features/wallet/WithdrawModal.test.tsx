import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { useGetWalletQuery } from '../../core/walletApi';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import type { WalletResponse } from '../../core/walletApi';
import { serveWallet, walletResponse } from '../../test/support/wallet';
import { WithdrawModal } from './WithdrawModal';

function Host({ onClose }: { onClose: (changed: boolean) => void }) {
  const { data } = useGetWalletQuery();
  return data ? <WithdrawModal onClose={onClose} /> : null;
}

function serveWithdraw(answer: () => Response) {
  const sent: { body: unknown; key: string | null }[] = [];
  server.use(
    http.get('/api/lookup/withdraw', () => HttpResponse.json({ withdrawMin: 100, withdrawMax: 50000 })),
    http.post('/api/wallet/withdrawAll', async ({ request }) => {
      sent.push({ body: await request.json(), key: request.headers.get('idempotency-key') });
      return answer();
    }),
  );
  return sent;
}

async function setup(current?: () => WalletResponse) {
  const wallet = serveWallet(current);
  const onClose = jest.fn();
  const view = renderWithProviders(<Host onClose={onClose} />);
  await screen.findByRole('dialog', { name: 'Withdraw' });
  await screen.findByText('Minimum 100.00, maximum 50,000.00 baht.');
  return { ...view, wallet, onClose };
}

describe('withdraw modal', () => {
  it('shows the balance and the bank account the money goes to', async () => {
    serveWithdraw(() => errorResponse('NO_DATA', 404));
    await setup();
    expect(screen.getByTestId('withdraw-balance')).toHaveTextContent('1,000.00');
    expect(screen.getByText('111-222-3334').closest('dd')).toHaveTextContent('Kasikorn Bank 111-222-3334');
    expect(screen.getByText('SOMCHAI JAIDEE', { exact: false })).toBeInTheDocument();
  });

  it('names the bound when the amount is below the minimum or above the maximum', async () => {
    const sent = serveWithdraw(() => errorResponse('NO_DATA', 404));
    // A wallet above the maximum: otherwise the balance is the bound that is named (moneyMoments.test.tsx).
    const { user } = await setup(() => walletResponse({ wallet: { amount: 60000 } }));
    const amount = screen.getByLabelText('Amount (baht)');
    await user.type(amount, '99.99');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('The minimum withdrawal is 100.00 baht.')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '50000.01');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('The maximum withdrawal is 50,000.00 baht.')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('requests the withdrawal with an Idempotency-Key and says to wait for the bank transfer', async () => {
    const sent = serveWithdraw(() => HttpResponse.json({ status: 'IN_PROGRESS', message: 'WITHDRAW_IN_PROGRESS', withdrawalId: 'w1', amount: 200 }));
    const { user, wallet, onClose } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '200');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    const receipt = await screen.findByTestId('receipt');
    expect(within(receipt).getByRole('heading', { name: 'Withdrawal receipt' })).toBeInTheDocument();
    expect(within(receipt).getByTestId('receipt-status')).toHaveTextContent('In progress');
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('200.00');
    expect(within(receipt).getByTestId('receipt-from')).toHaveTextContent('Wallet');
    expect(within(receipt).getByTestId('receipt-to')).toHaveTextContent('Kasikorn Bank ···3334');
    expect(within(receipt).getByTestId('receipt-reference')).toHaveTextContent('w1');
    expect(receipt).toHaveTextContent('Your withdrawal request was received. Please wait for the money to reach your bank account.');
    expect(sent).toEqual([{ body: { amount: 200 }, key: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    await waitFor(() => expect(wallet.count).toBe(2));
    await user.click(within(receipt).getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it('shows a refusal such as BONUS_CONDITION in an error alert', async () => {
    serveWithdraw(() => errorResponse('BONUS_CONDITION', 422));
    const { user } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '200');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('The bonus conditions are not met yet.');
  });
});

describe('withdraw review step (issue 40 item 10)', () => {
  it('shows the amount, bank, account number and name before sending anything', async () => {
    const sent = serveWithdraw(() => HttpResponse.json({ status: 'IN_PROGRESS', message: 'WITHDRAW_IN_PROGRESS', withdrawalId: 'w1', amount: 250.5 }));
    const { user } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '250.5');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const review = screen.getByTestId('withdraw-review');
    expect(within(review).getByRole('heading', { name: 'Check your withdrawal' })).toHaveFocus();
    expect(within(review).getByTestId('withdraw-review-amount')).toHaveTextContent('250.50');
    expect(within(review).getByTestId('withdraw-review-bank')).toHaveTextContent('Kasikorn Bank');
    expect(within(review).getByTestId('withdraw-review-account')).toHaveTextContent('111-222-3334');
    expect(within(review).getByTestId('withdraw-review-name')).toHaveTextContent('SOMCHAI JAIDEE');
    expect(screen.queryByLabelText('Amount (baht)')).not.toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.click(within(review).getByRole('button', { name: 'Confirm withdrawal' }));
    await screen.findByTestId('receipt');
    expect(sent).toEqual([{ body: { amount: 250.5 }, key: expect.any(String) }]);
  });

  it('goes back to the form with the amount kept, and sends nothing', async () => {
    const sent = serveWithdraw(() => errorResponse('NO_DATA', 404));
    const { user } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '300');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Amount (baht)')).toHaveValue('300');
    expect(screen.queryByTestId('withdraw-review')).not.toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('keeps a refused amount on the form: no review of an amount that cannot be sent', async () => {
    serveWithdraw(() => errorResponse('NO_DATA', 404));
    const { user } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '50');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.queryByTestId('withdraw-review')).not.toBeInTheDocument();
    expect(screen.getByText('The minimum withdrawal is 100.00 baht.')).toBeInTheDocument();
  });

  it('shows Withdraw all as a secondary action beside the one primary action (issue 40 item 11)', async () => {
    serveWithdraw(() => errorResponse('NO_DATA', 404));
    await setup();
    expect(screen.getByRole('button', { name: 'Withdraw all' })).toHaveClass('button--secondary');
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveClass('button--primary');
  });
});
