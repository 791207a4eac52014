import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { errorResponse, server } from '../../test/support/server';
import { pagesFor } from '../pages';
import { StaffApp } from '../StaffApp';
import { FakeStaffSocket } from '../../test/support/staff-socket';
import type { StaffRole } from '../types';
import type { Review, ReviewStatus } from './api';

function review(id: string, over: Partial<Review> = {}): Review {
  return {
    id,
    kind: 'AMOUNT_MISMATCH',
    source: 'qr',
    reference: `qr_${id}`,
    player: { id: 42, phone: '0812345678', name: 'Somchai Jaidee' },
    amount: 1234,
    currency: 'THB',
    createdAt: '2026-11-26T10:00:00.000Z',
    status: 'OPEN',
    decidedBy: null,
    decidedAt: null,
    reason: null,
    ...over,
  };
}

/** A small in-memory server for the reviews routes: decisions change what the list answers next. */
function serve(role: StaffRole = 'payments', initial: Review[] = [review('rev_a'), review('rev_b', { kind: 'UNKNOWN_REFERENCE', source: 'webhook', reference: 'WH-9', player: null, amount: 50 })]) {
  const rows = [...initial];
  const calls = { lists: [] as string[], bodies: [] as { path: string; body: unknown }[] };
  server.use(
    http.get('/api/staff/me', () => HttpResponse.json({ id: 7, username: 'nok', name: 'Nok', role })),
    http.get('/api/staff/reviews', ({ request }) => {
      if (request.headers.get('authorization') !== 'Bearer staff-token-1') return errorResponse('invalid-token', 401);
      const status = (new URL(request.url).searchParams.get('status') ?? 'OPEN') as ReviewStatus;
      calls.lists.push(status);
      return HttpResponse.json({ reviews: rows.filter((r) => r.status === status) });
    }),
    http.get('/api/staff/reviews/:id', ({ params }) => {
      const found = rows.find((r) => r.id === params.id);
      return found ? HttpResponse.json(found) : errorResponse('NO_DATA', 404);
    }),
    http.post('/api/staff/reviews/:id/:action', async ({ params, request }) => {
      const body = (await request.json()) as { reason: string };
      calls.bodies.push({ path: `${String(params.id)}/${String(params.action)}`, body });
      const i = rows.findIndex((r) => r.id === params.id);
      if (i < 0) return errorResponse('NO_DATA', 404);
      if (rows[i].status !== 'OPEN') return errorResponse('REVIEW_DECIDED', 409);
      const status = params.action === 'approve' ? 'APPROVED' : 'REJECTED';
      rows[i] = { ...rows[i], status, reason: body.reason, decidedBy: { id: 7, username: 'nok', name: 'Nok' }, decidedAt: '2026-11-26T11:00:00.000Z' };
      return HttpResponse.json(rows[i]);
    }),
  );
  return { calls, rows };
}

function start(path = '/staff/reviews') {
  window.sessionStorage.setItem('staff-token', 'staff-token-1');
  window.localStorage.setItem('staff-locale', 'en');
  window.history.pushState({}, '', path);
  render(<StaffApp connect={() => new FakeStaffSocket()} />);
  return userEvent.setup();
}

const table = () => screen.findByRole('table', { name: 'Payments waiting for a decision, newest first' });

describe('staff console: payments to review', () => {
  it('lists the open payments from the API: kind, source, reference, player, amount, time and status', async () => {
    const { calls } = serve();
    start();
    expect(await screen.findByRole('heading', { level: 1, name: 'Payments to review' })).toHaveFocus();
    const rows = within(await table()).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('qr_rev_a');
    expect(rows[0]).toHaveTextContent('Amount differs from the QR');
    expect(rows[0]).toHaveTextContent('QR payment');
    expect(rows[0]).toHaveTextContent('0812345678 Somchai Jaidee');
    expect(within(rows[0]).getByRole('cell', { name: '฿1,234.00' })).toHaveAttribute('data-label', 'Amount received');
    expect(within(rows[0]).getByText('Open')).toBeInTheDocument();
    expect(rows[0].querySelector('time')).toHaveAttribute('datetime', '2026-11-26T10:00:00.000Z');
    expect(rows[1]).toHaveTextContent('Unknown reference');
    expect(rows[1]).toHaveTextContent('Bank notice');
    expect(rows[1]).toHaveTextContent('Unknown player');
    expect(calls.lists).toContain('OPEN');
    expect(calls.lists.every((s) => s === 'OPEN')).toBe(true);
  });

  it('the filter changes the request and the list', async () => {
    const { calls } = serve('admin', [review('rev_a'), review('rev_c', { status: 'REJECTED', reference: 'slip_7', source: 'slip', reason: 'Not our account' })]);
    const user = start();
    await table();
    await user.click(screen.getByRole('radio', { name: 'Rejected' }));
    const rejected = await screen.findByRole('table', { name: 'Rejected payments, newest first' });
    expect(calls.lists.at(-1)).toBe('REJECTED');
    expect(within(rejected).getAllByRole('row')).toHaveLength(2);
    expect(rejected).toHaveTextContent('slip_7');
    await user.click(screen.getByRole('radio', { name: 'Approved' }));
    expect(await screen.findByText('No approved payments.')).toBeInTheDocument();
    expect(calls.lists.at(-1)).toBe('APPROVED');
  });

  it('approves after a confirmation with a reason: focus moves in and back, Escape cancels, busy, refreshed and announced', async () => {
    const { calls } = serve();
    let release: (() => void) | null = null;
    const user = start();
    await table();
    const open = screen.getByRole('button', { name: 'Details: qr_rev_a' });
    await user.click(open);
    expect(screen.getByRole('heading', { level: 2, name: 'Payment qr_rev_a' })).toHaveFocus();

    // Back to the list: the focus returns to the row's button.
    await user.click(screen.getByRole('button', { name: 'Back to the list' }));
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Details: qr_rev_a' })).toHaveFocus();

    // Escape in the details does the same.
    await user.click(screen.getByRole('button', { name: 'Details: qr_rev_a' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Details: qr_rev_a' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Details: qr_rev_a' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const reason = screen.getByRole('textbox', { name: /^Reason \(required/ });
    expect(reason).toHaveFocus();
    expect(reason).toHaveAttribute('maxlength', '500');
    expect(screen.getByRole('group', { name: "Credit ฿1,234.00 to 0812345678's wallet." })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: /Credit/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve' })).toHaveFocus();

    // The reason is required: nothing is sent without it.
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await user.click(screen.getByRole('button', { name: 'Confirm: credit the wallet' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Write a reason (up to 500 characters).');
    expect(screen.getByRole('textbox', { name: /^Reason/ })).toHaveAttribute('aria-invalid', 'true');
    expect(calls.bodies).toEqual([]);

    server.use(
      http.post('/api/staff/reviews/rev_a/approve', async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return undefined; // fall through to the in-memory handler
      }),
    );
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), '  Paid 1234 instead of 1200, checked with the bank ');
    const listsBefore = calls.lists.length;
    await user.click(screen.getByRole('button', { name: 'Confirm: credit the wallet' }));
    expect(await screen.findByRole('button', { name: 'Saving…' })).toBeDisabled();
    expect(screen.getByRole('group', { name: /Credit/ })).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(release).not.toBeNull());
    release!();

    await waitFor(() => expect(screen.getByTestId('staff-announcer')).toHaveTextContent("Approved: ฿1,234.00 credited to 0812345678's wallet."));
    expect(calls.bodies).toEqual([{ path: 'rev_a/approve', body: { reason: 'Paid 1234 instead of 1200, checked with the bank' } }]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Details: qr_rev_a' })).not.toBeInTheDocument());
    expect(calls.lists.length).toBeGreaterThan(listsBefore);
    expect(screen.getByRole('region', { name: 'Payments waiting for a decision, newest first' })).toHaveFocus();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
  });

  it('rejects with a reason; a payment without a player can only be rejected', async () => {
    const { calls } = serve();
    const user = start();
    await table();
    await user.click(screen.getByRole('button', { name: 'Details: WH-9' }));
    expect(screen.getByText('No player is known for this payment: it can only be rejected.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(screen.getByRole('group', { name: /^Reject: the player sees your reason in their statement/ })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'Not a payment to us');
    await user.click(screen.getByRole('button', { name: 'Confirm: reject' }));
    await waitFor(() => expect(screen.getByTestId('staff-announcer')).toHaveTextContent('Rejected payment WH-9.'));
    expect(calls.bodies).toEqual([{ path: 'rev_b/reject', body: { reason: 'Not a payment to us' } }]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Details: WH-9' })).not.toBeInTheDocument());
  });

  it.each([
    ['REVIEW_NO_PLAYER', 422, 'No player is known for this payment, so it cannot be credited.'],
    ['REASON_REQUIRED', 400, 'Write a reason (up to 500 characters).'],
    ['NO_DATA', 404, 'Not found.'],
    ['UNAUTHORIZED', 403, 'Your account may not do this.'],
  ])('shows the server refusal %s in an alert and keeps the reason', async (code, status, text) => {
    const { calls } = serve();
    server.use(http.post('/api/staff/reviews/rev_a/approve', () => errorResponse(code, status)));
    const user = start();
    await table();
    await user.click(screen.getByRole('button', { name: 'Details: qr_rev_a' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'checked');
    const listsBefore = calls.lists.length;
    await user.click(screen.getByRole('button', { name: 'Confirm: credit the wallet' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(text));
    expect(screen.getByRole('textbox', { name: /^Reason/ })).toHaveValue('checked');
    expect(screen.getByRole('button', { name: 'Confirm: credit the wallet' })).toBeEnabled();
    // A payment gone from the server reloads the list; other refusals leave it as it is.
    if (code === 'NO_DATA') await waitFor(() => expect(calls.lists.length).toBeGreaterThan(listsBefore));
    else expect(calls.lists).toHaveLength(listsBefore);
  });

  it('a payment decided by someone else meanwhile: the alert, the payment as it is now, and the list refreshed', async () => {
    const { calls, rows } = serve();
    const user = start();
    await table();
    await user.click(screen.getByRole('button', { name: 'Details: qr_rev_a' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'checked');
    rows[0] = { ...rows[0], status: 'REJECTED', reason: 'Sent back by the bank', decidedBy: { id: 8, username: 'lek', name: 'Lek' }, decidedAt: '2026-11-26T10:30:00.000Z' };
    const listsBefore = calls.lists.length;
    await user.click(screen.getByRole('button', { name: 'Confirm: credit the wallet' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This payment was already decided by someone else.'));
    const details = screen.getByRole('region', { name: 'Payment qr_rev_a' });
    await waitFor(() => expect(details).toHaveTextContent('Lek (lek)'));
    expect(details).toHaveTextContent('Sent back by the bank');
    expect(within(details).queryByRole('button', { name: /Approve|Reject|Confirm/ })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Payment qr_rev_a' })).toHaveFocus();
    expect(calls.bodies).toEqual([{ path: 'rev_a/approve', body: { reason: 'checked' } }]);
    await waitFor(() => expect(calls.lists.length).toBeGreaterThan(listsBefore));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Details: qr_rev_a' })).not.toBeInTheDocument());
  });

  it('a payout result the gateway contradicted: named as such, approving follows the gateway (not a deposit credit), a short wallet explained', async () => {
    const paidAfterFail = review('rev_p', { kind: 'PAYOUT_PAID_AFTER_FAIL', source: 'payout', reference: 'wd_9', amount: 500 });
    const failAfterPaid = review('rev_q', { kind: 'PAYOUT_FAIL_AFTER_PAID', source: 'payout', reference: 'wd_8', amount: 300 });
    serve('payments', [paidAfterFail, failAfterPaid]);
    server.use(http.post('/api/staff/reviews/rev_p/approve', () => errorResponse('MONEY_NOT_ENOUGH', 422)));
    const user = start();
    const rows = within(await table()).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Gateway paid a payout recorded as failed');
    expect(rows[0]).toHaveTextContent('Payout result');
    expect(rows[1]).toHaveTextContent('Gateway failed a payout recorded as paid');

    await user.click(screen.getByRole('button', { name: 'Details: wd_9' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(screen.getByRole('group', { name: /take ฿500\.00 from 0812345678's wallet again/ })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'bank confirms it paid');
    await user.click(screen.getByRole('button', { name: 'Confirm: follow the gateway' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent("The player's wallet holds less than this amount"));

    await user.click(screen.getByRole('button', { name: 'Back to the list' }));
    await user.click(await screen.findByRole('button', { name: 'Details: wd_8' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(screen.getByRole('group', { name: "The gateway failed this payout after it was recorded as paid: return ฿300.00 to 0812345678's wallet." })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'bank returned it');
    await user.click(screen.getByRole('button', { name: 'Confirm: follow the gateway' }));
    await waitFor(() => expect(screen.getByTestId('staff-announcer')).toHaveTextContent("Approved: ฿300.00 returned to 0812345678's wallet, the payout failed."));
  });

  it('says when the server cannot be reached', async () => {
    serve();
    server.use(http.post('/api/staff/reviews/rev_a/reject', () => HttpResponse.error()));
    const user = start();
    await table();
    await user.click(screen.getByRole('button', { name: 'Details: qr_rev_a' }));
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await user.type(screen.getByRole('textbox', { name: /^Reason/ }), 'duplicate');
    await user.click(screen.getByRole('button', { name: 'Confirm: reject' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No connection to the server.'));
  });

  it('is shown to payments and admin staff only', async () => {
    expect(pagesFor('support').map((p) => p.path)).not.toContain('reviews');
    expect(pagesFor('payments').map((p) => p.path)).toContain('reviews');
    expect(pagesFor('admin').map((p) => p.path)).toContain('reviews');
    serve('payments');
    start('/staff/reviews');
    const nav = await screen.findByRole('navigation', { name: 'Staff pages' });
    expect(within(nav).getByRole('link', { name: 'Payments to review' })).toHaveAttribute('href', '/staff/reviews');
  });

  it('speaks Thai and Lao', async () => {
    serve();
    const user = start();
    await table();
    await user.selectOptions(screen.getByLabelText('Language'), 'th');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('รายการชำระเงินรอตรวจสอบ');
    expect(screen.getByRole('radio', { name: 'ปฏิเสธแล้ว' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('ภาษา'), 'la');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ລາຍການຊຳລະເງິນລໍຖ້າກວດສອບ');
  });
});
