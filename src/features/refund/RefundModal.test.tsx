import { useState } from 'react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp, renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import type { RefundCheck, RefundLogItem } from './refundApi';
import RefundModal from './RefundModal';

const session = { session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' as const } } };
const accepted = { ...session, prefs: { ...initialPrefs, locale: 'en' as const, agreementAccepted: true } };

const info = { th: '<p>คืนยอดเสียทุกสัปดาห์</p>', la: '<p>ຄືນຍອດເສຍທຸກອາທິດ</p>', en: '<p>Weekly refund of losses</p><script>alert(1)</script>' };
const check = (over: Partial<RefundCheck> = {}): RefundCheck => ({ result: true, bonus: false, info, refundAmount: 125.5, refundSuccess: 10, refundFail: 5, ...over });
const logItem = (n: number): RefundLogItem => ({ refundAmount: n, createdAt: '2026-11-20T05:06:07.000Z' });

/** The refund routes of the wire contract, kept in memory: receiving credits the wallet and empties the check. */
function fakeRefundServer({ current = check(), total = 0 } = {}) {
  let state = current;
  const calls = { check: 0, receive: 0, log: [] as { page: number; limit: number }[], wallet: 0 };
  let refusal: { status: number; message: string } | null = null;
  server.use(
    http.get('/api/refund/check', () => {
      calls.check += 1;
      return HttpResponse.json(state);
    }),
    http.get('/api/refund/receive', () => {
      calls.receive += 1;
      if (refusal) {
        const { status, message } = refusal;
        refusal = null;
        return HttpResponse.json({ message }, { status });
      }
      const amount = state.refundAmount;
      state = { ...state, result: false, refundAmount: 0 };
      return HttpResponse.json({ message: 'REFUND_SUCCESS', amount });
    }),
    http.post('/api/refund', async ({ request }) => {
      const body = (await request.json()) as { page: number; limit: number };
      calls.log.push(body);
      const from = (body.page - 1) * body.limit;
      const refunds = Array.from({ length: Math.max(0, Math.min(body.limit, total - from)) }, (_, i) => logItem(from + i + 1));
      return HttpResponse.json({ refunds, total });
    }),
    http.get('/api/wallet', () => {
      calls.wallet += 1;
      return HttpResponse.json({ profile: { name: 'Demo', username: '0812345678', _id: '1', coin: 0 }, bankAccount: { bankAccountName: 'D', bankAccountNo: '1', bankCode: 'KBANK', bank: { nameTH: 'ก', nameEN: 'K' } }, wallet: { amount: 0 }, invite: { amount: 0, success: 0, fail: 0 }, slots: [] });
    }),
  );
  return {
    calls,
    refuseNext(status: number, message: string) {
      refusal = { status, message };
    },
  };
}

function openModal(fake = fakeRefundServer()) {
  const onClose = jest.fn();
  const view = renderWithProviders(<RefundModal onClose={onClose} />, { preloadedState: { ...session, modals: { stack: ['refund'] } } });
  return { ...view, fake, onClose };
}

describe('refund modal', () => {
  it('opens from the home widget behind the banner gate (no banners: directly)', async () => {
    serveUserArea();
    fakeRefundServer();
    server.use(http.get('/api/refund/banners', () => HttpResponse.json({ banners: [] })));
    const { user } = renderApp('/user/home', { preloadedState: accepted });
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund' });
    expect(await within(dialog).findByTestId('refund-amount')).toHaveTextContent('125.50');
  });

  it('opens from the home widget after the refund banners are closed', async () => {
    serveUserArea();
    fakeRefundServer();
    server.use(http.get('/api/refund/banners', () => HttpResponse.json({ banners: [{ image: '/banners/r.png', html: { th: 'ก', la: 'ກ', en: 'Refund week' } }] })));
    const { user } = renderApp('/user/home', { preloadedState: accepted });
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const banners = await screen.findByRole('dialog', { name: 'Refund' });
    expect(await within(banners).findByText('Refund week')).toBeInTheDocument();
    expect(within(banners).queryByTestId('refund-modal')).not.toBeInTheDocument();
    await user.click(within(banners).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('refund-modal')).toBeInTheDocument();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it('shows the check: sanitized info, the amount and both rates; receive is enabled', async () => {
    openModal();
    const dialog = await screen.findByRole('dialog', { name: 'Refund' });
    expect(await within(dialog).findByText('Weekly refund of losses')).toBeInTheDocument();
    expect(dialog.innerHTML).not.toContain('<script');
    expect(within(dialog).getByTestId('refund-amount')).toHaveTextContent('125.50');
    expect(within(dialog).getByTestId('refund-success')).toHaveTextContent('10%');
    expect(within(dialog).getByTestId('refund-fail')).toHaveTextContent('5%');
    expect(within(dialog).getByRole('button', { name: 'Receive refund' })).toBeEnabled();
    expect(within(dialog).queryByTestId('refund-conditions')).not.toBeInTheDocument();
  });

  it('disables receive with the two condition lines while a bonus is active', async () => {
    const { fake } = openModal(fakeRefundServer({ current: check({ bonus: true }) }));
    const receive = await screen.findByRole('button', { name: 'Receive refund' });
    expect(receive).toBeDisabled();
    const lines = within(screen.getByTestId('refund-conditions')).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      'You have an active bonus: the refund can only be received while no bonus is active.',
      'Finish or cancel the bonus on the bonus page, then come back to receive it.',
    ]);
    expect(receive).toHaveAccessibleDescription(/You have an active bonus/);
    expect(fake.calls.receive).toBe(0);
  });

  it('never shows the last opening\'s check while it asks again: a bonus cancelled meanwhile does not leave receive disabled', async () => {
    fakeRefundServer({ current: check({ bonus: true }) });
    function Reopen() {
      const [open, setOpen] = useState(true);
      return open ? <RefundModal onClose={() => setOpen(false)} /> : <button onClick={() => setOpen(true)}>reopen</button>;
    }
    renderWithProviders(<Reopen />, { preloadedState: { ...session, modals: { stack: ['refund'] } } });
    await screen.findByTestId('refund-conditions');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    const reopen = await screen.findByRole('button', { name: 'reopen' });

    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get('/api/refund/check', async () => {
        await held;
        return HttpResponse.json(check({ bonus: false }));
      }),
    );
    fireEvent.click(reopen);
    await screen.findByTestId('refund-modal');
    // Asked again and not answered yet: nothing of the old answer (bonus active, receive disabled) is shown.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('refund-conditions')).not.toBeInTheDocument();
    expect(screen.queryByTestId('refund-receive')).not.toBeInTheDocument();
    answer();
    await waitFor(() => expect(screen.getByTestId('refund-receive')).toBeEnabled());
    expect(screen.queryByTestId('refund-conditions')).not.toBeInTheDocument();
  });

  it('shows the not-found text when there is nothing to receive', async () => {
    openModal(fakeRefundServer({ current: check({ result: false, refundAmount: 0 }) }));
    expect(await screen.findByTestId('refund-not-found')).toHaveTextContent('There is no refund to receive right now.');
    expect(screen.queryByRole('button', { name: 'Receive refund' })).not.toBeInTheDocument();
    // The rules and rates still show.
    expect(screen.getByTestId('refund-success')).toHaveTextContent('10%');
  });

  /** Home with its wallet on screen, the refund modal opened through the gate (no banners). */
  async function openFromHome(fake = fakeRefundServer({ total: 1 })) {
    server.use(http.get('/api/spinwheel/active', () => HttpResponse.json({ isActive: false })), http.get('/api/refund/banners', () => HttpResponse.json({ banners: [] })));
    const view = renderApp('/user/home', { preloadedState: accepted });
    await view.user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund' });
    return { ...view, fake, dialog };
  }

  it('receives: the credited amount shows, the check and log reload, and closing reloads the wallet', async () => {
    const { user, fake, dialog } = await openFromHome();
    await user.click(await within(dialog).findByRole('button', { name: 'Receive refund' }));
    expect(await within(dialog).findByTestId('refund-received')).toHaveTextContent('125.50 baht was added to your wallet.');
    expect(fake.calls.receive).toBe(1);
    await waitFor(() => expect(fake.calls.check).toBe(2));
    await waitFor(() => expect(fake.calls.log).toHaveLength(2));
    expect(within(dialog).queryByRole('button', { name: 'Receive refund' })).not.toBeInTheDocument();
    expect(within(dialog).queryByTestId('refund-not-found')).not.toBeInTheDocument();
    const wallets = fake.calls.wallet;
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(fake.calls.wallet).toBe(wallets + 1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refund' })).toHaveFocus();
  });

  it('moves the focus to the received message when the receive button goes, so Escape still closes the modal', async () => {
    const { user, fake, dialog } = await openFromHome();
    await user.click(await within(dialog).findByRole('button', { name: 'Receive refund' }));
    const received = await within(dialog).findByTestId('refund-received');
    await waitFor(() => expect(received).toHaveFocus());
    const wallets = fake.calls.wallet;
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(fake.calls.wallet).toBe(wallets + 1));
  });

  it('each opening starts afresh: what the last one received does not show again', async () => {
    const { user, fake, dialog } = await openFromHome();
    await user.click(await within(dialog).findByRole('button', { name: 'Receive refund' }));
    await within(dialog).findByTestId('refund-received');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const checks = fake.calls.check;
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    const again = await screen.findByRole('dialog', { name: 'Refund' });
    expect(await within(again).findByTestId('refund-not-found')).toBeInTheDocument();
    expect(within(again).queryByTestId('refund-received')).not.toBeInTheDocument();
    expect(fake.calls.check).toBe(checks + 1);
  });

  it('a refused receive is a red toast and the button comes back (no close flag: see refundRules.test)', async () => {
    const { user, fake, dialog } = await openFromHome();
    fake.refuseNext(422, 'REFUND_CONDITION');
    await user.click(await within(dialog).findByRole('button', { name: 'Receive refund' }));
    const toast = await screen.findByText('Refund is not available while a bonus is active.');
    expect(toast.closest('.notistack-MuiContent-error')).not.toBeNull();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Receive refund' })).toBeEnabled());
    expect(within(dialog).queryByTestId('refund-received')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('lists the refunds 10 a page with the pagination window (3 before, 1 after)', async () => {
    const { user, fake } = openModal(fakeRefundServer({ total: 57 }));
    const rows = await screen.findAllByTestId('refund-row');
    expect(rows).toHaveLength(10);
    expect(fake.calls.log[0]).toEqual({ page: 1, limit: 10 });
    expect(within(rows[0]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([expect.stringMatching(/^20\/11\/2026 \d\d:06:07$/), '1.00']);
    const pages = screen.getByRole('navigation', { name: 'Refund history pages' });
    const numbers = () => within(pages).getAllByRole('button', { name: /^Page/ }).map((button) => button.textContent);
    expect(numbers()).toEqual(['1', '2']);
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(numbers()).toEqual(['1', '2', '3']));
    await user.click(within(pages).getByRole('button', { name: 'Page 3' }));
    await user.click(within(pages).getByRole('button', { name: 'Page 4' }));
    await user.click(within(pages).getByRole('button', { name: 'Page 5' }));
    await waitFor(() => expect(numbers()).toEqual(['2', '3', '4', '5', '6']));
    await user.click(within(pages).getByRole('button', { name: 'Page 6' }));
    await waitFor(() => expect(screen.getAllByTestId('refund-row')).toHaveLength(7));
    expect(numbers()).toEqual(['3', '4', '5', '6']);
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(fake.calls.log[fake.calls.log.length - 1]).toEqual({ page: 6, limit: 10 });
  });

  it('hides a failed log silently, and says when the check could not be loaded, with a retry', async () => {
    let checks = 0;
    server.use(
      http.post('/api/refund', () => errorResponse('INTERNAL_SERVER_ERROR', 500)),
      http.get('/api/refund/check', () => {
        checks += 1;
        return checks === 1 ? errorResponse('INTERNAL_SERVER_ERROR', 500) : HttpResponse.json(check());
      }),
    );
    const { user } = renderWithProviders(<RefundModal onClose={() => undefined} />, { preloadedState: { ...session, modals: { stack: ['refund'] } } });
    const failed = await screen.findByTestId('refund-check-failed');
    expect(failed).toHaveTextContent('The refund could not be loaded.');
    expect(screen.queryByTestId('refund-log-loading')).not.toBeInTheDocument();
    expect(screen.queryByTestId('refund-log')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(failed).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('refund-amount')).toHaveTextContent('125.50');
  });

  it('shows a loader only when the check takes longer than 200 ms', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get('/api/refund/check', async () => {
        await held;
        return HttpResponse.json(check());
      }),
      http.post('/api/refund', () => HttpResponse.json({ refunds: [], total: 0 })),
    );
    try {
      renderWithProviders(<RefundModal onClose={() => undefined} />, { preloadedState: { ...session, modals: { stack: ['refund'] } } });
      act(() => jest.advanceTimersByTime(199));
      expect(screen.queryByTestId('refund-checking')).not.toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByTestId('refund-checking')).toHaveTextContent('Loading…');
      answer();
      expect(await screen.findByTestId('refund-amount')).toBeInTheDocument();
      expect(screen.queryByTestId('refund-checking')).not.toBeInTheDocument();
    } finally {
      answer();
      jest.useRealTimers();
    }
  });
});
