import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import * as notify from '../../core/notify';
import { localeChosen } from '../../core/prefs';
import { renderApp, renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import DepositModal from './DepositModal';
import { depositLookup, fakeQrServer, playerSession, walletAnswer } from '../../test/support/deposit';
import { QR_POLL_MS } from './useQrDeposit';


function open(fake = fakeQrServer(), ...overrides: Parameters<typeof server.use>) {
  server.use(...fake.handlers);
  server.use(...overrides);
  const onClose = jest.fn();
  const view = renderWithProviders(<DepositModal onClose={onClose} />, { preloadedState: { ...playerSession, modals: { stack: ['deposit'] } } });
  return { ...view, fake, onClose };
}

async function openQrTab(view: ReturnType<typeof open>) {
  await view.user.click(await screen.findByRole('tab', { name: 'QR code' }));
  return screen.findByTestId('qr-KBANK');
}

function setClipboard(value: unknown) {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}

afterEach(() => {
  jest.useRealTimers();
  setClipboard(undefined);
});

describe('deposit modal: methods from the deposit lookup', () => {
  it('shows bank transfer, QR and wallet link as tabs, the bank accounts and the texts of spec §1', async () => {
    const view = open();
    const dialog = await screen.findByRole('dialog', { name: 'Deposit' });
    const tabs = await within(dialog).findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Bank transfer', 'QR code', 'Wallet link']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    // Bank entries are the non-payment banks; payment types only take QRs.
    expect(screen.getByTestId('bank-KBANK')).toHaveTextContent('Kasikornbank');
    expect(screen.getByTestId('bank-KBANK')).toHaveTextContent('012-345-6789');
    expect(screen.getByTestId('bank-KBANK')).toHaveTextContent('Auto');
    expect(screen.getByTestId('bank-SCB')).toHaveTextContent('upload the slip within 60 minutes');
    expect(screen.queryByTestId('bank-WW')).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('KBank or KTB are recommended');
    expect(dialog).toHaveTextContent('about 1 minute');
    // Arrow keys move between tabs.
    tabs[0].focus();
    await view.user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'QR code' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'QR code' })).toHaveFocus();
    await view.user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Wallet link' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('gift-form')).toHaveTextContent('Minimum 2.00 baht');
  });

  it('says when there is nothing to show (a failed lookup is silent) and can try again', async () => {
    let calls = 0;
    const view = open(
      fakeQrServer(),
      http.get('/api/lookup/deposit', () => {
        calls += 1;
        return calls === 1 ? HttpResponse.json({ message: 'NO_DATA' }, { status: 404 }) : HttpResponse.json(depositLookup);
      }),
    );
    await view.user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('tab', { name: 'Bank transfer' })).toBeInTheDocument();
  });
});

describe('copy the account to pay', () => {
  it("copies the account number and says 'Copied: ...'", async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    const view = open();
    // After open(): user-event installs its own clipboard stub at setup.
    setClipboard({ writeText });
    await view.user.click(within(await screen.findByTestId('bank-SCB')).getByRole('button', { name: /Copy/ }));
    expect(writeText).toHaveBeenCalledWith('4061234567');
    expect(await within(screen.getByTestId('bank-SCB')).findByRole('status')).toHaveTextContent('Copied: 4061234567');
  });

  it("falls back to a selected text when the Clipboard API refuses, and says 'Failed to copy' when that fails too", async () => {
    const execCommand = jest.fn().mockReturnValueOnce(true).mockReturnValueOnce(false);
    Object.assign(document, { execCommand });
    const view = open();
    // After open(): user-event installs its own clipboard stub at setup.
    setClipboard({ writeText: jest.fn().mockRejectedValue(new Error('denied')) });
    const card = await screen.findByTestId('bank-KBANK');
    await view.user.click(within(card).getByRole('button', { name: /Copy/ }));
    expect(await within(card).findByText('Copied: Kasikornbank 0123456789 DEMO WALLET')).toBeInTheDocument();
    expect(execCommand).toHaveBeenCalledWith('copy');
    await view.user.click(within(card).getByRole('button', { name: /Copy/ }));
    expect(await within(card).findByText('Failed to copy')).toBeInTheDocument();
  });

  it('KBANK auto deposit for a KTB player with a non-English name: edit the name first, then copy', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    const puts: unknown[] = [];
    const view = open(
      fakeQrServer(),
      http.get('/api/wallet', () => HttpResponse.json(walletAnswer(1000, { bankCode: 'KTB', bankAccountName: 'สมชาย ใจดี' }))),
      http.put('/api/account/bankAccountName', async ({ request }) => {
        puts.push(await request.json());
        return HttpResponse.json({
          profile: { _id: '1', username: '0812345678', name: 'Demo', createdAt: '2026-01-01T00:00:00Z' },
          bankAccount: { bankCode: 'KTB', bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '1112223334', bank: { nameTH: 'กรุงไทย', nameEN: 'Krungthai' } },
        });
      }),
    );
    // After open(): user-event installs its own clipboard stub at setup.
    setClipboard({ writeText });
    const card = await screen.findByTestId('bank-KBANK');
    await waitFor(() => expect(view.store.getState().api.queries['getWallet(undefined)']?.status).toBe('fulfilled'));
    await view.user.click(within(card).getByRole('button', { name: /Copy/ }));
    const editor = await screen.findByRole('dialog', { name: 'Edit bank account name' });
    expect(writeText).not.toHaveBeenCalled();
    const input = within(editor).getByTestId('bank-name-input');
    await view.user.clear(input);
    await view.user.type(input, 'somchai jaidee');
    await view.user.click(within(editor).getByTestId('bank-name-save'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('Kasikornbank\n0123456789\nDEMO WALLET'));
    expect(puts).toEqual([{ bankCode: 'KTB', bankAccountName: 'SOMCHAI JAIDEE' }]);
    expect(screen.queryByRole('dialog', { name: 'Edit bank account name' })).not.toBeInTheDocument();
    expect(await within(card).findByText('Copied: Kasikornbank 0123456789 DEMO WALLET')).toBeInTheDocument();
    // Other banks' accounts are copied directly.
    await view.user.click(within(screen.getByTestId('bank-SCB')).getByRole('button', { name: /Copy/ }));
    expect(writeText).toHaveBeenLastCalledWith('4061234567');
  });

  it('copies KBANK directly for a KTB player whose name is already English', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    const view = open(fakeQrServer(), http.get('/api/wallet', () => HttpResponse.json(walletAnswer(1000, { bankCode: 'KTB', bankAccountName: 'SOMCHAI JAIDEE' }))));
    // After open(): user-event installs its own clipboard stub at setup.
    setClipboard({ writeText });
    await waitFor(() => expect(view.store.getState().api.queries['getWallet(undefined)']?.status).toBe('fulfilled'));
    await view.user.click(within(await screen.findByTestId('bank-KBANK')).getByRole('button', { name: /Copy/ }));
    expect(writeText).toHaveBeenCalledWith('Kasikornbank\n0123456789\nDEMO WALLET');
    expect(screen.queryByRole('dialog', { name: 'Edit bank account name' })).not.toBeInTheDocument();
  });

  it('KBANK auto deposit copies the account details (bank, number, name; spec §2), in the player language, and says so', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    const view = open();
    setClipboard({ writeText });
    const card = await screen.findByTestId('bank-KBANK');
    const button = within(card).getByRole('button', { name: 'Copy the Kasikornbank account details' });
    expect(button).toHaveTextContent('Copy details');
    // Only the KBANK auto account copies details; the others keep "Copy" and the number alone.
    expect(within(screen.getByTestId('bank-SCB')).getByRole('button', { name: 'Copy the Siam Commercial Bank account number 4061234567' })).toHaveTextContent(/^Copy$/);
    await view.user.click(button);
    expect(writeText).toHaveBeenCalledWith('Kasikornbank\n0123456789\nDEMO WALLET');
    expect(await within(card).findByRole('status')).toHaveTextContent('Copied: Kasikornbank 0123456789 DEMO WALLET');
    // Each bank is marked by its initials on its colour (decorative: the name is written next to it).
    expect(card.querySelector('.bank-mark[aria-hidden="true"]')).toHaveTextContent('K');
    act(() => {
      view.store.dispatch(localeChosen('th'));
    });
    await view.user.click(await within(card).findByRole('button', { name: /กสิกรไทย/ }));
    expect(writeText).toHaveBeenLastCalledWith('ธนาคารกสิกรไทย\n0123456789\nDEMO WALLET');
  });
});

describe('QR deposit', () => {
  it('creates a KBANK QR from a quick pick: sanitized QR, mm:ss countdown, and the other banks reload', async () => {
    const fake = fakeQrServer({ svg: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><path d="M0 0h1v1H0z" onload="alert(2)"/></svg>' });
    const view = open(fake);
    const panel = await openQrTab(view);
    await waitFor(() => expect(fake.calls.get).toEqual({ KBANK: 1, WW: 1, E2P: 1 }));
    await view.user.click(within(panel).getByRole('button', { name: '100' }));
    expect(within(panel).getByRole('button', { name: '100' })).toHaveAttribute('aria-pressed', 'true');
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    const image = await within(panel).findByRole('img', { name: 'Kasikornbank QR code for 100.00 baht' });
    expect(fake.calls.post).toEqual([{ bank: 'KBANK', body: { amount: 100 } }]);
    const src = decodeURIComponent(image.getAttribute('src') ?? '');
    expect(src).toMatch(/^data:image\/svg\+xml/);
    expect(src).toContain('<path');
    expect(src).not.toMatch(/script|onload|alert/);
    expect(within(panel).getByRole('timer')).toHaveTextContent(/^0[45]:\d\d$/);
    // Creating a QR for one bank makes the others reload their state.
    await waitFor(() => expect(fake.calls.get).toEqual({ KBANK: 1, WW: 2, E2P: 2 }));
    expect(view.store.getState().qrDeposit.KBANK.machine.status).toBe('shown');
  });

  it('hides the QR at 00:00 (fake timers)', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    // The fake clock also follows real time (msw and user-event need it), so a stalled machine moves it too:
    // 30 s of validity leaves the checks below many seconds of slack instead of one.
    const view = open(fakeQrServer({ expireIn: 30 }));
    const panel = await openQrTab(view);
    await view.user.type(within(panel).getByLabelText('Amount (baht)'), '20');
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    const timer = await within(panel).findByRole('timer');
    expect(timer).toHaveTextContent(/^00:(2\d|30)$/);
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(within(panel).getByRole('timer')).toHaveTextContent(/^00:[12]\d$/);
    act(() => {
      jest.advanceTimersByTime(30_100);
    });
    expect(await within(panel).findByTestId('qr-expired')).toHaveTextContent('The QR code has expired');
    expect(within(panel).queryByRole('img')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('timer')).not.toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Create QR code' })).toBeEnabled();
  });

  it('sees the payment without a manual refresh: the poll finds the QR paid, then the wallet reloads', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const fake = fakeQrServer();
    const view = open(fake);
    const panel = await openQrTab(view);
    await view.user.click(within(panel).getByRole('button', { name: '500' }));
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    await within(panel).findByRole('timer');
    const walletCalls = fake.calls.wallet;
    const kbankChecks = fake.calls.get.KBANK;
    fake.pay();
    act(() => {
      jest.advanceTimersByTime(QR_POLL_MS);
    });
    expect(await within(panel).findByTestId('qr-paid')).toHaveTextContent('Payment received: 500.00 baht is now in your wallet.');
    // Issue 12: on its receipt, with the QR's id as the reference (the statement line's too).
    const receipt = within(panel).getByTestId('receipt');
    expect(within(receipt).getByRole('heading', { name: 'Deposit receipt' })).toBeInTheDocument();
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('500.00 baht');
    expect(within(receipt).getByTestId('receipt-status')).toHaveTextContent('Success');
    expect(within(receipt).getByTestId('receipt-reference')).toHaveTextContent(/^qr_\d+$/);
    expect(fake.calls.get.KBANK).toBeGreaterThan(kbankChecks);
    await waitFor(() => expect(fake.calls.wallet).toBeGreaterThan(walletCalls));
    expect(view.store.getState().api.queries['getWallet(undefined)']?.data).toMatchObject({ wallet: { amount: 1500 } });
  });

  it('a QR cancelled on another device, or paid with another amount, is not shown as paid', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const fake = fakeQrServer();
    const view = open(fake);
    const panel = await openQrTab(view);
    const showQr = async (amount: string) => {
      await view.user.click(within(panel).getByRole('button', { name: amount }));
      await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
      await within(panel).findByRole('timer');
    };
    const poll = () =>
      act(() => {
        jest.advanceTimersByTime(QR_POLL_MS);
      });
    await showQr('100');
    fake.cancelElsewhere();
    poll();
    expect(await within(panel).findByTestId('qr-cancelled')).toHaveTextContent('The QR code was cancelled.');
    expect(within(panel).queryByTestId('qr-paid')).not.toBeInTheDocument();
    await showQr('500');
    fake.payOtherAmount();
    poll();
    expect(await within(panel).findByTestId('qr-review')).toHaveTextContent('A payment for this QR code arrived, but not for 500.00 baht. It is being checked');
    expect(within(panel).queryByTestId('qr-paid')).not.toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Create QR code' })).toBeEnabled();
  });

  it('cancels: DELETE with the QR id, then the form again', async () => {
    const fake = fakeQrServer();
    const view = open(fake);
    const panel = await openQrTab(view);
    await view.user.click(within(panel).getByRole('button', { name: '50' }));
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    await within(panel).findByRole('timer');
    await view.user.click(within(panel).getByRole('button', { name: 'Cancel QR' }));
    expect(await within(panel).findByTestId('qr-cancelled')).toHaveTextContent('The QR code was cancelled.');
    expect(fake.calls.del).toEqual(['qr_1']);
    expect(within(panel).queryByRole('img')).not.toBeInTheDocument();
  });

  it('hasQrcode false shows the server message as a red toast, translated when it is a code', async () => {
    const fake = fakeQrServer();
    const view = open(fake);
    const panel = await openQrTab(view);
    fake.refuseNext(422, 'QR_FAIL');
    await view.user.type(within(panel).getByLabelText('Amount (baht)'), '10');
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    expect(await screen.findByText('Could not create the QR code. Please try again.')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Create QR code' })).toBeEnabled();
    expect(within(panel).queryByRole('img')).not.toBeInTheDocument();
    // Free text from the server is shown as it is.
    server.use(http.post('/api/qrcode/:bank', () => HttpResponse.json({ qrcodeId: null, hasQrcode: false, message: 'Gateway busy, try later' })));
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    expect(await screen.findByText('Gateway busy, try later')).toBeInTheDocument();
  });

  it('KBANK create is disabled at 0; WW below 100 and E2P below 50 send nothing', async () => {
    const fake = fakeQrServer();
    const view = open(fake);
    const panel = await openQrTab(view);
    const create = within(panel).getByRole('button', { name: 'Create QR code' });
    expect(create).toBeDisabled();
    await view.user.type(within(panel).getByLabelText('Amount (baht)'), '0');
    expect(create).toBeDisabled();
    await view.user.clear(within(panel).getByLabelText('Amount (baht)'));
    await view.user.type(within(panel).getByLabelText('Amount (baht)'), '0.5');
    expect(create).toBeEnabled();
    await view.user.click(create);
    expect(within(panel).getByLabelText('Amount (baht)')).toHaveAttribute('aria-invalid', 'true');

    await view.user.click(screen.getByRole('radio', { name: /WW/ }));
    const ww = await screen.findByTestId('qr-WW');
    expect(ww).toHaveTextContent('Minimum 100.00 baht');
    expect(within(ww).getAllByRole('button').map((b) => b.textContent)).toEqual(['100', '200', '300', '500', '1,000', 'Create QR code']);
    await view.user.type(within(ww).getByLabelText('Amount (baht)'), '99');
    await view.user.click(within(ww).getByRole('button', { name: 'Create QR code' }));

    await view.user.click(screen.getByRole('radio', { name: /E2P/ }));
    const e2p = await screen.findByTestId('qr-E2P');
    expect(within(e2p).getAllByRole('button').map((b) => b.textContent)).toEqual(['50', '100', '200', '500', '1,000', 'Create QR code']);
    await view.user.type(within(e2p).getByLabelText('Amount (baht)'), '49');
    await view.user.click(within(e2p).getByRole('button', { name: 'Create QR code' }));
    await view.user.clear(within(e2p).getByLabelText('Amount (baht)'));
    await view.user.type(within(e2p).getByLabelText('Amount (baht)'), '50');
    await view.user.click(within(e2p).getByRole('button', { name: 'Create QR code' }));
    await within(e2p).findByRole('timer');
    expect(fake.calls.post).toEqual([{ bank: 'E2P', body: { amount: 50 } }]);
  });

  it("the KBANK minimum hint is the server's setting (deposit lookup qrMinimums), and below it create sends nothing", async () => {
    const fake = fakeQrServer();
    const view = open(fake, http.get('/api/lookup/deposit', () => HttpResponse.json({ ...depositLookup, qrMinimums: { KBANK: 20, WW: 100, E2P: 50 } })));
    const panel = await openQrTab(view);
    expect(panel).toHaveTextContent('Minimum 20.00 baht');
    await view.user.type(within(panel).getByLabelText('Amount (baht)'), '10');
    await view.user.click(within(panel).getByRole('button', { name: 'Create QR code' }));
    expect(within(panel).getByLabelText('Amount (baht)')).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls.post).toEqual([]);
  });
});

describe('the session ends while creating a QR', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each(['EXPIRED_AUTH_TOKEN', 'invalid-token', 'UNAUTHORIZED'])(
    'a 401 %s from the create lands on /login with the next URL: no error toast, no QR machine left busy, no modal left open',
    async (code) => {
      serveUserArea();
      const fake = fakeQrServer();
      server.use(...fake.handlers);
      const posts: string[] = [];
      server.use(
        http.post('/api/qrcode/:bank', ({ params }) => {
          posts.push(String(params.bank));
          return errorResponse(code, 401);
        }),
      );
      const toasts = jest.spyOn(notify, 'showToast');
      const { user, router, store } = renderApp('/user/home', { preloadedState: playerSession });
      await user.click(await screen.findByTestId('widget-deposit'));
      await user.click(await screen.findByRole('tab', { name: 'QR code' }));
      const panel = await screen.findByTestId('qr-KBANK');
      await user.click(within(panel).getByRole('button', { name: '100' }));
      await user.click(within(panel).getByRole('button', { name: 'Create QR code' }));

      expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
      expect(router.state.location.pathname + router.state.location.search).toBe('/login?next=%2Fuser%2Fhome');
      expect(posts).toEqual(['KBANK']);
      expect(store.getState().session.token).toBeNull();
      expect(Object.values(store.getState().qrDeposit).map((bank) => bank.machine.status)).toEqual(['none', 'none', 'none']);
      // The deposit modal does not come back after the next login, and the page scrolls.
      expect(store.getState().modals.stack).toEqual([]);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(document.body.style.overflow).not.toBe('hidden');
      // No red toast: not the server error, not the expired login, not the aborted request. The create's
      // answer was handled long before the login page could show (that needed the guard's own request).
      expect(toasts).not.toHaveBeenCalled();
      expect(screen.queryAllByRole('alert').filter((alert) => alert.textContent !== '')).toEqual([]);
    },
  );
});
