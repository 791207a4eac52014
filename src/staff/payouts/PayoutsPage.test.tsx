import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { errorResponse, server } from '../../test/support/server';
import { pagesFor } from '../pages';
import { StaffApp } from '../StaffApp';
import { FakeStaffSocket } from '../../test/support/staff-socket';
import type { StaffRole } from '../types';
import type { Payout } from './api';

function payout(id: string, over: Partial<Payout> = {}): Payout {
  return {
    id,
    player: { id: 42, phone: '0812345678', name: 'Somchai Jaidee' },
    amount: 500,
    currency: 'THB',
    bankCode: 'SCB',
    bankAccountNo: '1234567890',
    bankAccountName: 'SOMCHAI JAIDEE',
    requestedAt: '2026-11-26T09:00:00.000Z',
    ageMinutes: 95,
    providerStatus: 'PENDING',
    ...over,
  };
}

/** In-memory payouts: overdue ones (age over 30 min) unless ?overdue=0; a decision takes a payout off the list. */
function serve(role: StaffRole = 'payments') {
  const rows = [payout('wd_1'), payout('wd_2', { player: { id: 43, phone: '0898765432', name: 'Noi' }, amount: 1250.5, ageMinutes: 12, providerStatus: 'UNKNOWN' })];
  const calls = { lists: [] as string[], bodies: [] as { path: string; body: unknown }[] };
  server.use(
    http.get('/api/staff/me', () => HttpResponse.json({ id: 7, username: 'nok', name: 'Nok', role })),
    http.get('/api/staff/payouts', ({ request }) => {
      if (request.headers.get('authorization') !== 'Bearer staff-token-1') return errorResponse('invalid-token', 401);
      const overdue = new URL(request.url).searchParams.get('overdue') ?? '1';
      calls.lists.push(overdue);
      return HttpResponse.json({ payouts: rows.filter((p) => overdue === '0' || p.ageMinutes > 30) });
    }),
    http.post('/api/staff/payouts/:id/:action', async ({ params, request }) => {
      calls.bodies.push({ path: `${String(params.id)}/${String(params.action)}`, body: await request.json() });
      const i = rows.findIndex((p) => p.id === params.id);
      if (i < 0) return errorResponse('PAYOUT_SETTLED', 409);
      rows.splice(i, 1);
      return HttpResponse.json({ id: params.id, status: params.action === 'settle' ? 'SUCCESS' : 'FAILED' });
    }),
  );
  return calls;
}

function start(path = '/staff/payouts') {
  window.sessionStorage.setItem('staff-token', 'staff-token-1');
  window.localStorage.setItem('staff-locale', 'en');
  window.history.pushState({}, '', path);
  render(<StaffApp connect={() => new FakeStaffSocket()} />);
  return userEvent.setup();
}

const overdueTable = () => screen.findByRole('table', { name: 'Overdue payouts, oldest first' });

describe('staff console: payouts in progress', () => {
  it('lists the overdue payouts by default with player, amount, bank, time, age and the provider status', async () => {
    const calls = serve();
    start();
    expect(await screen.findByRole('heading', { level: 1, name: 'Payouts in progress' })).toHaveFocus();
    const rows = within(await overdueTable()).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Somchai Jaidee');
    expect(rows[0]).toHaveTextContent('0812345678');
    expect(within(rows[0]).getByRole('cell', { name: '฿500.00' })).toHaveAttribute('data-label', 'Amount');
    expect(rows[0]).toHaveTextContent('SCB 1234567890');
    expect(rows[0]).toHaveTextContent('1 h 35 min');
    expect(rows[0]).toHaveTextContent('Provider status: Still pending');
    expect(rows[0].querySelector('time')).toHaveAttribute('datetime', '2026-11-26T09:00:00.000Z');
    expect(calls.lists.every((o) => o === '1')).toBe(true);
  });

  it('the toggle asks for every payout in progress', async () => {
    const calls = serve();
    const user = start();
    await overdueTable();
    await user.click(screen.getByRole('checkbox', { name: 'Show every payout in progress, not only overdue ones' }));
    const all = await screen.findByRole('table', { name: 'Payouts in progress, oldest first' });
    expect(calls.lists.at(-1)).toBe('0');
    const rows = within(all).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('฿1,250.50');
    expect(rows[1]).toHaveTextContent('12 min');
    expect(rows[1]).toHaveTextContent('Provider status: No answer');
  });

  it('settles after a confirmation with a reason: Escape cancels back to the button, reason required, refreshed and announced', async () => {
    const calls = serve();
    const user = start();
    await overdueTable();
    await user.click(screen.getByRole('button', { name: 'Settle (paid): Somchai Jaidee 0812345678' }));
    expect(screen.getByRole('textbox', { name: /^Reason \(required/ })).toHaveFocus();
    expect(screen.getByRole('group', { name: 'Mark ฿500.00 to 0812345678 as paid. Do this only when the bank shows the money was sent.' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: /as paid/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Settle (paid): Somchai Jaidee 0812345678' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: /^Settle \(paid\)/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm: paid' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Write a reason (up to 500 characters).');
    expect(calls.bodies).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'Bank statement shows it sent at 09:02');
    const listsBefore = calls.lists.length;
    await user.click(screen.getByRole('button', { name: 'Confirm: paid' }));
    await waitFor(() => expect(screen.getByTestId('staff-announcer')).toHaveTextContent('Payout of ฿500.00 to 0812345678 settled as paid.'));
    expect(calls.bodies).toEqual([{ path: 'wd_1/settle', body: { reason: 'Bank statement shows it sent at 09:02' } }]);
    expect(await screen.findByText('No payout is overdue.')).toBeInTheDocument();
    expect(calls.lists.length).toBeGreaterThan(listsBefore);
    expect(screen.getByRole('region', { name: 'Overdue payouts, oldest first' })).toHaveFocus();
  });

  it('fails a payout (the money goes back) with a reason, showing busy while the call runs', async () => {
    const calls = serve();
    let release: (() => void) | null = null;
    server.use(
      http.post('/api/staff/payouts/wd_1/fail', async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return undefined; // on to the in-memory handler
      }),
    );
    const user = start();
    await overdueTable();
    await user.click(screen.getByRole('button', { name: /^Fail \(return the money\)/ }));
    expect(screen.getByRole('group', { name: "Fail the payout: ฿500.00 goes back to 0812345678's wallet." })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'Provider rejected the account');
    await user.click(screen.getByRole('button', { name: 'Confirm: fail and return the money' }));
    expect(await screen.findByRole('button', { name: 'Saving…' })).toBeDisabled();
    await user.keyboard('{Escape}'); // ignored while the call runs
    expect(screen.getByRole('group', { name: /Fail the payout/ })).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(release).not.toBeNull());
    release!();
    await waitFor(() => expect(screen.getByTestId('staff-announcer')).toHaveTextContent("Payout failed: ฿500.00 returned to 0812345678's wallet."));
    expect(calls.bodies).toEqual([{ path: 'wd_1/fail', body: { reason: 'Provider rejected the account' } }]);
  });

  it.each([
    ['PAYOUT_SETTLED', 409, 'This payout is no longer in progress'],
    ['NO_DATA', 404, 'Not found.'],
    ['UNAUTHORIZED', 403, 'Your account may not do this.'],
  ])('shows the server refusal %s in an alert', async (code, status, text) => {
    serve();
    server.use(http.post('/api/staff/payouts/wd_1/settle', () => errorResponse(code, status)));
    const user = start();
    await overdueTable();
    await user.click(screen.getByRole('button', { name: /^Settle \(paid\)/ }));
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'sent');
    await user.click(screen.getByRole('button', { name: 'Confirm: paid' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(text));
    expect(screen.getByRole('textbox', { name: /^Reason/ })).toHaveValue('sent');
  });

  it('a fail the provider does not back (409 PAYOUT_NOT_FAILED) is explained in an alert and the list is loaded again', async () => {
    const calls = serve();
    server.use(http.post('/api/staff/payouts/wd_1/fail', () => errorResponse('PAYOUT_NOT_FAILED', 409)));
    const user = start();
    await overdueTable();
    const before = calls.lists.length;
    await user.click(screen.getByRole('button', { name: /^Fail \(return the money\)/ }));
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'player says not received');
    await user.click(screen.getByRole('button', { name: 'Confirm: fail and return the money' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The payment provider does not report this payout as failed and could not cancel it'));
    await waitFor(() => expect(calls.lists.length).toBeGreaterThan(before));
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    serve();
    server.use(http.get('/api/staff/payouts', () => HttpResponse.error(), { once: true }));
    const user = start();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Could not load the payouts. No connection to the server.'));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await overdueTable()).toBeInTheDocument();
  });

  it('is shown to payments and admin staff only', async () => {
    expect(pagesFor('support').map((p) => p.path)).not.toContain('payouts');
    expect(pagesFor('payments').map((p) => p.path)).toContain('payouts');
    expect(pagesFor('admin').map((p) => p.path)).toContain('payouts');
    serve('support');
    start('/staff/players');
    const nav = await screen.findByRole('navigation', { name: 'Staff pages' });
    expect(within(nav).getByRole('link', { name: 'Players' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Payouts' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Payments to review' })).not.toBeInTheDocument();
  });

  it('speaks Thai and Lao', async () => {
    serve();
    const user = start();
    await overdueTable();
    await user.selectOptions(screen.getByLabelText('Language'), 'th');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('รายการถอนเงินที่กำลังดำเนินการ');
    await user.selectOptions(screen.getByLabelText('ภาษา'), 'la');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ລາຍການຖອນເງິນທີ່ກຳລັງດຳເນີນການ');
  });
});
