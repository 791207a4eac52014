import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import DepositModal from './DepositModal';
import { fakeQrServer, playerSession } from '../../test/support/deposit';
import { QR_POLL_MS } from './useQrDeposit';

/**
 * Issue 12: a live QR is never voided silently (creating a QR at another bank asks first), and a QR paid with
 * another amount (REVIEW) shows its reference, what happens next and how to reach support.
 */

afterEach(() => jest.useRealTimers());

function open(...overrides: Parameters<typeof server.use>) {
  const fake = fakeQrServer();
  server.use(...fake.handlers, ...overrides);
  const onClose = jest.fn();
  const view = renderWithProviders(<DepositModal onClose={onClose} />, { preloadedState: { ...playerSession, modals: { stack: ['deposit'] } } });
  return { ...view, fake, onClose };
}

async function kbankQrThenWwForm(view: ReturnType<typeof open>) {
  await view.user.click(await screen.findByRole('tab', { name: 'QR code' }));
  const kbank = await screen.findByTestId('qr-KBANK');
  await view.user.click(within(kbank).getByRole('button', { name: '100' }));
  await view.user.click(within(kbank).getByRole('button', { name: 'Create QR code' }));
  await within(kbank).findByRole('timer');
  await view.user.click(screen.getByRole('radio', { name: /WW/ }));
  const ww = await screen.findByTestId('qr-WW');
  await view.user.click(within(ww).getByRole('button', { name: '200' }));
  await view.user.click(within(ww).getByRole('button', { name: 'Create QR code' }));
  return ww;
}

describe('creating a QR while another bank has a live QR', () => {
  it('asks first, naming the QR that would be cancelled and its remaining time; "Keep it" creates nothing', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const view = open();
    const ww = await kbankQrThenWwForm(view);
    const dialog = within(ww).getByRole('alertdialog', { name: 'Cancel your other QR code?' });
    expect(dialog).toHaveAccessibleDescription(/You still have a QR code at Kasikornbank for 100\.00 baht\. Creating this one cancels it\. Still payable for 0[45]:\d\d/);
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    expect(within(ww).queryByRole('button', { name: 'Create QR code' })).not.toBeInTheDocument();
    expect(view.fake.calls.post).toEqual([{ bank: 'KBANK', body: { amount: 100 } }]);

    // The remaining time is current: it follows the countdown clock.
    const before = within(dialog).getByRole('timer').textContent;
    act(() => {
      jest.advanceTimersByTime(2000);
    });
    expect(within(dialog).getByRole('timer').textContent).not.toBe(before);

    await view.user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(within(ww).queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(within(ww).getByRole('button', { name: 'Create QR code' })).toHaveFocus();
    expect(view.fake.calls.post).toHaveLength(1);
    expect(view.fake.calls.del).toEqual([]);
    expect(view.store.getState().qrDeposit.KBANK.machine.status).toBe('shown');
    expect(view.store.getState().qrDeposit.WW.machine.status).toBe('none');
  });

  it('"Cancel it and create" creates the new QR (the server ends the other one)', async () => {
    const view = open();
    const ww = await kbankQrThenWwForm(view);
    await view.user.click(within(ww).getByRole('button', { name: 'Cancel it and create' }));
    await within(ww).findByRole('img', { name: 'Wallet QR (WW) QR code for 200.00 baht' });
    expect(view.fake.calls.post).toEqual([
      { bank: 'KBANK', body: { amount: 100 } },
      { bank: 'WW', body: { amount: 200 } },
    ]);
    expect(view.store.getState().qrDeposit.KBANK.machine.status).toBe('none');
  });

  it('does not ask for the same bank or when no other QR is live', async () => {
    const view = open();
    await view.user.click(await screen.findByRole('tab', { name: 'QR code' }));
    const kbank = await screen.findByTestId('qr-KBANK');
    await view.user.click(within(kbank).getByRole('button', { name: '100' }));
    await view.user.click(within(kbank).getByRole('button', { name: 'Create QR code' }));
    await within(kbank).findByRole('timer');
    await view.user.click(within(kbank).getByRole('button', { name: 'Cancel QR' }));
    await within(kbank).findByTestId('qr-cancelled');
    await view.user.click(within(kbank).getByRole('button', { name: '50' }));
    await view.user.click(within(kbank).getByRole('button', { name: 'Create QR code' }));
    await within(kbank).findByRole('timer');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(view.fake.calls.post.map((p) => p.bank)).toEqual(['KBANK', 'KBANK']);
  });
});

describe('a QR paid with another amount (REVIEW)', () => {
  async function review(view: ReturnType<typeof open>) {
    jest.useFakeTimers({ advanceTimers: true });
    await view.user.click(await screen.findByRole('tab', { name: 'QR code' }));
    const panel = await screen.findByTestId('qr-KBANK');
    await view.user.click(within(panel).getByRole('button', { name: '500' }));
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    await within(panel).findByRole('timer');
    view.fake.payOtherAmount();
    act(() => {
      jest.advanceTimersByTime(QR_POLL_MS);
    });
    return within(panel).findByTestId('qr-review-help');
  }

  it('shows the reference, what happens next and the contact page; no chat when the widget is off', async () => {
    const view = open();
    const help = await review(view);
    expect(within(help).getByTestId('qr-review-reference')).toHaveTextContent('qr_1');
    expect(help).toHaveTextContent('Reference: qr_1');
    expect(help).toHaveTextContent('Our staff will check this payment. Nothing has been added to your wallet yet.');
    expect(help).not.toHaveTextContent(/\d+ (minutes?|hours?)/);
    const contact = within(help).getByRole('link', { name: 'Contact support' });
    expect(contact).toHaveAttribute('href', '/user/contact');
    expect(within(help).queryByRole('button', { name: 'Chat with us' })).not.toBeInTheDocument();
    await view.user.click(contact);
    expect(view.onClose).toHaveBeenCalled();
    expect(view.router.state.location.pathname).toBe('/user/contact');
  });

  it('offers "Chat with us" when the chat widget is enabled: it closes the modal and opens the chat', async () => {
    const view = open(http.get('/api/lookup/enableChatWidget', () => HttpResponse.json({ enableChatWidget: true })));
    expect(view.store.getState().chat.open).toBe(false);
    const help = await review(view);
    await view.user.click(await within(help).findByRole('button', { name: 'Chat with us' }));
    expect(view.onClose).toHaveBeenCalled();
    // chatOpened (src/core/chatEvents.ts), the contact page's event: the chat slice opens the widget.
    expect(view.store.getState().chat.open).toBe(true);
  });
});
