import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { useGetWalletQuery } from '../../core/walletApi';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveWallet } from '../../test/support/wallet';
import { TransferModal } from './TransferModal';

type Sent = { body: unknown; key: string | null };

/** POST /api/wallet/transfer answering with each of `answers` in turn; records bodies and Idempotency-Keys. */
function serveTransfer(...answers: (() => Response)[]) {
  const sent: Sent[] = [];
  server.use(
    http.post('/api/wallet/transfer', async ({ request }) => {
      sent.push({ body: await request.json(), key: request.headers.get('idempotency-key') });
      return answers[Math.min(sent.length, answers.length) - 1]();
    }),
  );
  return sent;
}

const ok = () => HttpResponse.json({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', transferId: 't1', amount: 100 });
const waiting = () => HttpResponse.json({ status: 'IN_PROGRESS', message: 'TRANSFER_IN_PROGRESS', transferId: 't1', amount: 100 }, { status: 202 });

function Host({ onClose, to = 'pg' }: { onClose: (changed: boolean) => void; to?: string }) {
  const { data } = useGetWalletQuery();
  return data ? <TransferModal onClose={onClose} initialTo={to} /> : null;
}

async function setup(to?: string) {
  const wallet = serveWallet();
  const onClose = jest.fn();
  const view = renderWithProviders(<Host onClose={onClose} to={to} />);
  const dialog = await screen.findByRole('dialog', { name: 'Transfer' });
  return { ...view, wallet, onClose, dialog };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('transfer modal', () => {
  it('offers the wallet and the open game accounts with their balances', async () => {
    const { dialog } = await setup();
    const from = within(dialog).getByLabelText('From') as HTMLSelectElement;
    expect(Array.from(from.options).map((o) => o.textContent)).toEqual([
      'Choose an account',
      'Wallet (1,000.00)',
      'PG Soft (0.10)',
      'Joker Gaming (0.20)',
    ]);
    expect(from.value).toBe('WALLET');
    expect((within(dialog).getByLabelText('To') as HTMLSelectElement).value).toBe('pg');
  });

  it('transfers with an Idempotency-Key, shows the receipt, reloads the wallet and closes with true', async () => {
    const sent = serveTransfer(ok);
    const { user, wallet, onClose } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '100');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    const receipt = await screen.findByTestId('receipt');
    expect(within(receipt).getByRole('heading', { name: 'Transfer receipt' })).toHaveFocus();
    expect(within(receipt).getByTestId('receipt-status')).toHaveTextContent('Success');
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('100.00 baht');
    expect(within(receipt).getByTestId('receipt-from')).toHaveTextContent('Wallet');
    expect(within(receipt).getByTestId('receipt-to')).toHaveTextContent('PG Soft');
    expect(within(receipt).getByTestId('receipt-reference')).toHaveTextContent('t1');
    expect(within(receipt).getByTestId('receipt-time')).toHaveAttribute('dateTime', expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(receipt).toHaveTextContent('The money has been transferred.');
    expect(sent).toEqual([{ body: { from: 'WALLET', to: 'pg', amount: 100 }, key: expect.stringMatching(UUID) }]);
    await waitFor(() => expect(wallet.count).toBe(2));
    await user.click(within(receipt).getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it('shows the wait-for-transfer message when the provider is still working (202)', async () => {
    serveTransfer(waiting);
    const { user } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '100');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    const receipt = await screen.findByTestId('receipt');
    expect(within(receipt).getByTestId('receipt-status')).toHaveTextContent('In progress');
    expect(receipt).toHaveTextContent('Your transfer is being processed. Please wait a moment for it to arrive.');
  });

  it('shows MONEY_NOT_ENOUGH in an error alert; the next submission is a new attempt with a new key', async () => {
    const sent = serveTransfer(() => errorResponse('MONEY_NOT_ENOUGH', 422), ok);
    const { user, onClose } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '5000');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('Your balance is not enough.');
    await user.click(within(alert).getByRole('button', { name: 'OK' }));
    const amount = screen.getByLabelText('Amount (baht)');
    await waitFor(() => expect(amount).toHaveFocus());
    expect(amount).toHaveValue('5000');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    await screen.findByText('The money has been transferred.');
    expect(sent).toHaveLength(2);
    expect(sent[1].key).not.toBe(sent[0].key);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it('retries an unanswered attempt with the same key, and uses a new one once the amount changed', async () => {
    const sent = serveTransfer(() => HttpResponse.error(), () => HttpResponse.error(), ok);
    const { user } = await setup();
    const amount = screen.getByLabelText('Amount (baht)');
    await user.type(amount, '100');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the server.'));
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(sent[1].key).toBe(sent[0].key);
    await user.clear(screen.getByLabelText('Amount (baht)'));
    await user.type(screen.getByLabelText('Amount (baht)'), '90');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    await screen.findByText('The money has been transferred.');
    expect(sent[2]).toEqual({ body: { from: 'WALLET', to: 'pg', amount: 90 }, key: expect.stringMatching(UUID) });
    expect(sent[2].key).not.toBe(sent[0].key);
  });

  it('checks the rules of spec §5 before sending anything', async () => {
    const sent = serveTransfer(ok);
    const { user, onClose } = await setup('');
    const to = screen.getByLabelText('To');
    const amount = screen.getByLabelText('Amount (baht)');
    await user.type(amount, '10');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(screen.getByText('Please choose the account to transfer from and the account to transfer to.')).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');

    await user.selectOptions(to, 'WALLET');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(screen.getByText('You cannot transfer to the same account.')).toBeInTheDocument();

    await user.selectOptions(to, 'joker2');
    await user.clear(amount);
    await user.type(amount, '0.99');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(screen.getByText('The minimum transfer is 1 baht.')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledWith(false);
  });

  it('fills the whole balance of a game account with All (an amount, not the whole-wallet transfer)', async () => {
    const { user } = await setup();
    await user.selectOptions(screen.getByLabelText('From'), 'joker2');
    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(screen.getByLabelText('Amount (baht)')).toHaveValue('0.20');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('moves the whole wallet to a game with All through transferAll (the server reads the balance)', async () => {
    const sent = serveTransfer(ok);
    const all: Sent[] = [];
    server.use(
      http.post('/api/wallet/transferAll', async ({ request }) => {
        all.push({ body: await request.json(), key: request.headers.get('idempotency-key') });
        return HttpResponse.json({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', transferId: 't-all', amount: 1000.5 });
      }),
    );
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(screen.getByLabelText('Amount (baht)')).toHaveValue('1,000');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Your whole wallet balance moves, as it is at the moment of the transfer.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    const receipt = await screen.findByTestId('receipt');
    expect(all).toEqual([{ body: { to: 'pg' }, key: expect.stringMatching(UUID) }]);
    expect(sent).toHaveLength(0);
    // The receipt shows what the server moved, not what the form read.
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('1,000.50');
    expect(within(receipt).getByTestId('receipt-reference')).toHaveTextContent('t-all');
  });

  it('sends an amount typed after All as a plain transfer', async () => {
    const sent = serveTransfer(ok);
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'All' }));
    await user.clear(screen.getByLabelText('Amount (baht)'));
    await user.type(screen.getByLabelText('Amount (baht)'), '10');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    await screen.findByTestId('receipt');
    expect(sent.map((s) => s.body)).toEqual([{ from: 'WALLET', to: 'pg', amount: 10 }]);
  });

  it('keeps only digits and the language\'s two marks as the amount is typed (issue 40 item 10)', async () => {
    const { user } = await setup();
    await user.type(screen.getByLabelText('Amount (baht)'), '1 2a3-4.5\u00a00+');
    expect(screen.getByLabelText('Amount (baht)')).toHaveValue('1234.50');
  });

  it('shows All as a secondary action beside the one primary Transfer (issue 40 item 11)', async () => {
    await setup();
    expect(screen.getByRole('button', { name: 'All' })).toHaveClass('button--secondary');
    expect(screen.getByRole('button', { name: 'All' })).not.toHaveClass('button--primary');
    expect(screen.getByRole('button', { name: 'Transfer' })).toHaveClass('button--primary');
  });
});
