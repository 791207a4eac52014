import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { useGetWalletQuery } from '../../core/walletApi';
import { formatDateTime } from '../../lib/format';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveWallet } from '../../test/support/wallet';
import { WithdrawModal } from './WithdrawModal';

/** Issue 39 row 6: a withdrawal during the hold after a bank change is refused; the modal says why and until when. */
const HOLD = '2026-12-02T10:00:00.000Z';

function Host() {
  const { data } = useGetWalletQuery();
  return data ? <WithdrawModal onClose={() => undefined} /> : null;
}

it('a withdrawal refused with BANK_CHANGE_COOLDOWN says why and when withdrawals open again', async () => {
  serveWallet();
  const profileReads: number[] = [];
  server.use(
    http.get('/api/lookup/withdraw', () => HttpResponse.json({ withdrawMin: 100, withdrawMax: 50000 })),
    http.post('/api/wallet/withdrawAll', () => errorResponse('BANK_CHANGE_COOLDOWN', 422)),
    http.get('/api/account/profile', () => {
      profileReads.push(1);
      return HttpResponse.json({
        profile: { _id: '1', username: '0812345678', name: 'Somchai', createdAt: '2026-11-25T10:00:00.000Z' },
        bankAccount: { bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '1112223334', bankCode: 'KBANK', bank: { nameTH: 'กสิกร', nameEN: 'Kasikorn Bank' }, withdrawHoldUntil: HOLD },
      });
    }),
  );
  const { user } = renderWithProviders(<Host />);
  await screen.findByText('Minimum 100.00, maximum 50,000.00 baht.');
  // The profile is read only when a withdrawal is refused for the hold.
  expect(profileReads).toEqual([]);
  await user.type(screen.getByLabelText('Amount (baht)'), '200');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
  const alert = await screen.findByTestId('move-alert');
  expect(alert).toHaveAttribute('role', 'alert');
  expect(alert).toHaveTextContent('Your bank account was changed recently. For your safety, withdrawals to the new account wait for a while.');
  expect(await screen.findByTestId('withdraw-bank-hold')).toHaveTextContent(`Withdrawals to your new bank account open on ${formatDateTime(HOLD)}.`);
});
