import { act, screen, within } from '@testing-library/react';

import { walletPushed, walletSocketChanged } from '../../core/liveSlice';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import DepositModal from './DepositModal';
import { fakeQrServer, playerSession } from '../../test/support/deposit';
import { QR_POLL_MS } from './useQrDeposit';

/** The QR modal with the live balance (docs/client.md "Live balance"): no poll while the socket is live; a push checks the QR. */

afterEach(() => jest.useRealTimers());

async function showQr(live: 'live' | 'down') {
  jest.useFakeTimers({ advanceTimers: true });
  const fake = fakeQrServer();
  server.use(...fake.handlers);
  const view = renderWithProviders(<DepositModal onClose={jest.fn()} />, {
    preloadedState: { ...playerSession, modals: { stack: ['deposit'] }, live: { walletSocket: live, walletPushes: 0 } },
  });
  await view.user.click(await screen.findByRole('tab', { name: 'QR code' }));
  const panel = await screen.findByTestId('qr-KBANK');
  await view.user.click(within(panel).getByRole('button', { name: '500' }));
  await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
  await within(panel).findByRole('timer');
  return { ...view, fake, panel };
}

const wait = (ms: number) =>
  act(async () => {
    jest.advanceTimersByTime(ms);
    await Promise.resolve();
  });

it('while the socket is live the QR is not polled; the pushed wallet event shows it paid', async () => {
  const { fake, panel, store } = await showQr('live');
  const checks = fake.calls.get.KBANK;
  const walletCalls = fake.calls.wallet;
  fake.pay();
  await wait(QR_POLL_MS * 3);
  expect(fake.calls.get.KBANK).toBe(checks);
  expect(fake.calls.wallet).toBe(walletCalls);
  expect(within(panel).queryByTestId('qr-paid')).not.toBeInTheDocument();
  act(() => {
    store.dispatch(walletPushed());
  });
  expect(await within(panel).findByTestId('qr-paid')).toHaveTextContent('Payment received: 500.00 baht');
  expect(fake.calls.get.KBANK).toBe(checks + 1);
});

it('when the socket goes down the poll starts again and finds the payment', async () => {
  const { fake, panel, store } = await showQr('live');
  const checks = fake.calls.get.KBANK;
  fake.pay();
  await wait(QR_POLL_MS * 2);
  expect(fake.calls.get.KBANK).toBe(checks);
  act(() => {
    store.dispatch(walletSocketChanged('down'));
  });
  await wait(QR_POLL_MS);
  expect(await within(panel).findByTestId('qr-paid')).toBeInTheDocument();
  expect(fake.calls.get.KBANK).toBeGreaterThan(checks);
});
