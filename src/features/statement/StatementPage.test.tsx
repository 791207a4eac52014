import { act, screen, waitFor, within } from '@testing-library/react';
import { statementRef } from '../../../shared/statement-ref';
import { http, HttpResponse } from 'msw';

import { renderApp, renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import type { StatementEntry } from './statementApi';
import StatementPage from './StatementPage';

const loggedIn = { session: { token: 'tok', remember: false, login: { status: 'loggedIn' as const } } };
const HOUR = 3600_000;
/** 20 Nov 2026 05:06:07 local time, so the shown date-time does not depend on the machine's zone. */
const LOCAL = new Date(2026, 10, 20, 5, 6, 7).toISOString();

const line = (n: number, over: Partial<StatementEntry> = {}): StatementEntry => ({
  _id: `s${n}`,
  statementType: 'transfer',
  status: 'SUCCESS',
  from: 'WALLET',
  to: 'pg',
  amount: n,
  createdAt: LOCAL,
  ...over,
});

/** POST /api/statement over `all` (newest first), paged as the server pages; the bodies it was sent. */
function statementServer(all: StatementEntry[]) {
  const bodies: { page: number; limit: number }[] = [];
  server.use(
    http.post('/api/statement', async ({ request }) => {
      const body = (await request.json()) as { page: number; limit: number };
      bodies.push(body);
      const from = (body.page - 1) * body.limit;
      return HttpResponse.json({ total: all.length, statements: all.slice(from, from + body.limit) });
    }),
  );
  return bodies;
}

beforeEach(serveUserArea);
afterEach(() => jest.useRealTimers());

const open = () => renderApp('/user/statement', { preloadedState: loggedIn });

describe('statement screen', () => {
  it('shows each entry: icon and label by type, activity, status, date-time, how long ago, signed amount', async () => {
    const bodies = statementServer([
      line(1, { statementType: 'deposit', from: 'KBANK', to: 'WALLET', amount: 1000, createdAt: new Date(Date.now() - 3 * HOUR).toISOString() }),
      line(2, { statementType: 'withdraw', from: 'WALLET', to: 'KBANK', amount: 100, status: 'IN_PROGRESS' }),
      line(3, { statementType: 'transfer', from: 'WALLET', to: 'pg', amount: 200 }),
      line(4, { statementType: 'bonus', from: 'BONUS', to: 'WALLET', amount: 100, bonus: { description: 'FIRST10' } }),
      line(5, { statementType: 'finish_bonus', from: 'BONUS', to: 'WALLET', amount: 50, status: 'FAILED', bonus: { description: 'FIRST10' } }),
    ]);
    open();
    const entries = await screen.findAllByTestId('statement-entry');
    expect(bodies).toEqual([{ page: 1, limit: 10 }]);
    const read = (entry: HTMLElement, id: string) => within(entry).getByTestId(id).textContent;
    expect(entries.map((e) => [read(e, 'statement-type'), read(e, 'statement-activity'), read(e, 'statement-status'), read(e, 'statement-amount')])).toEqual([
      ['Deposit', 'From Kasikorn Bank', 'Success', '+1,000.00'],
      ['Withdrawal', 'To Kasikorn Bank', 'In progress', '-100.00'],
      // Issue 40: an unsigned line says its direction; a bonus that ended says what happened, not "failed".
      ['Transfer', 'To the game pg', 'Success', '200.00'],
      ['Bonus', 'Bonus FIRST10', 'Success', '+100.00'],
      ['Bonus ended', 'Bonus FIRST10', 'Not completed', '50.00'],
    ]);
    expect(entries.map((e) => e.querySelector('[data-kind]')?.getAttribute('data-kind'))).toEqual(['deposit', 'withdraw', 'transfer', 'bonus', 'finishBonus']);
    expect(entries.every((e) => e.querySelector('svg[aria-hidden="true"]'))).toBe(true);
    expect(within(entries[1]).getByTestId('statement-status')).toHaveClass('statement-status--warning');
    expect(within(entries[0]).getByTestId('statement-status')).toHaveClass('statement-status--success');
    expect(within(entries[4]).getByTestId('statement-status')).toHaveClass('statement-status--neutral');
    expect(read(entries[0], 'statement-ago')).toBe('3 hours ago');
    expect(read(entries[1], 'statement-date')).toBe('20/11/2026 05:06:07');
    expect(within(entries[1]).getByTestId('statement-date')).toHaveAttribute('datetime', LOCAL);
  });

  it('pages 10 at a time with the pagination window (3 before, 1 after)', async () => {
    const bodies = statementServer(Array.from({ length: 57 }, (_, i) => line(i + 1)));
    const { user } = open();
    expect(await screen.findAllByTestId('statement-entry')).toHaveLength(10);
    const pages = screen.getByRole('navigation', { name: 'Statement pages' });
    const numbers = () => within(pages).getAllByRole('button', { name: /^Page/ }).map((button) => button.textContent);
    expect(numbers()).toEqual(['1', '2']);
    for (const page of [2, 3, 4, 5]) await user.click(within(pages).getByRole('button', { name: `Page ${page}` }));
    await waitFor(() => expect(numbers()).toEqual(['2', '3', '4', '5', '6']));
    await user.click(within(pages).getByRole('button', { name: 'Page 6' }));
    await waitFor(() => expect(screen.getAllByTestId('statement-entry')).toHaveLength(7));
    expect(within(screen.getAllByTestId('statement-entry')[0]).getByTestId('statement-amount')).toHaveTextContent('51.00');
    expect(numbers()).toEqual(['3', '4', '5', '6']);
    expect(within(pages).getByRole('button', { name: 'Page 6' })).toHaveAttribute('aria-current', 'page');
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(bodies[bodies.length - 1]).toEqual({ page: 6, limit: 10 });
  });

  it('says when there is nothing yet, without pages', async () => {
    statementServer([]);
    open();
    expect(await screen.findByTestId('statement-empty')).toHaveTextContent('No transactions yet.');
    expect(screen.queryByRole('navigation', { name: 'Statement pages' })).not.toBeInTheDocument();
  });

  it('hides the loader silently when the statement fails to load (spec §8)', async () => {
    server.use(http.post('/api/statement', () => errorResponse('INTERNAL_SERVER_ERROR', 500)));
    open();
    const list = await screen.findByRole('region', { name: 'Transactions' });
    await waitFor(() => expect(list).toHaveAttribute('aria-busy', 'false'));
    expect(screen.queryByTestId('statement-loading')).not.toBeInTheDocument();
    expect(screen.queryByTestId('statement-list')).not.toBeInTheDocument();
    expect(screen.queryByTestId('statement-empty')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(document.querySelector('.notistack-MuiContent-error')).toBeNull();
  });

  it('shows the loader only when the statement takes longer than 200 ms', async () => {
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post('/api/statement', async () => {
        await held;
        return HttpResponse.json({ total: 1, statements: [line(1)] });
      }),
    );
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      renderWithProviders(<StatementPage />, { preloadedState: loggedIn });
      act(() => jest.advanceTimersByTime(199));
      expect(screen.queryByTestId('statement-loading')).not.toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByTestId('statement-loading')).toHaveTextContent('Loading…');
      answer();
      expect(await screen.findByTestId('statement-entry')).toBeInTheDocument();
      expect(screen.queryByTestId('statement-loading')).not.toBeInTheDocument();
    } finally {
      answer();
    }
  });

  it('opens the slip upload history from the upload-status button', async () => {
    statementServer([]);
    server.use(http.post('/api/statement/slip', () => HttpResponse.json({ total: 0, slips: [] })));
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Slip upload status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Slip uploads' });
    expect(await within(dialog).findByTestId('slips-empty')).toBeInTheDocument();
  });

  it('reads in Thai', async () => {
    statementServer([line(1, { statementType: 'withdraw', to: 'KBANK', status: 'IN_PROGRESS', amount: 100 })]);
    renderApp('/user/statement', { preloadedState: { ...loggedIn, prefs: { locale: 'th', inviteCode: null, guestId: null, lastSync: null, agreementAccepted: false } } });
    const entry = await screen.findByTestId('statement-entry');
    expect(within(entry).getByTestId('statement-type')).toHaveTextContent('ถอนเงิน');
    expect(within(entry).getByTestId('statement-activity')).toHaveTextContent('ไปยัง กสิกรไทย');
    expect(within(entry).getByTestId('statement-status')).toHaveTextContent('กำลังดำเนินการ');
    expect(within(entry).getByTestId('statement-amount')).toHaveTextContent('-100.00');
  });

  it("names a bank in Lao for a Lao player, from the banks lookup asked in the player's language (issue 40 item 13)", async () => {
    statementServer([line(1, { statementType: 'withdraw', to: 'KBANK', status: 'IN_PROGRESS', amount: 100 })]);
    const asked: (string | null)[] = [];
    server.use(
      http.get('/api/lookup/banks', ({ request }) => {
        const lang = new URL(request.url).searchParams.get('lang');
        asked.push(lang);
        return HttpResponse.json([{ code: 'KBANK', nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank', name: lang === 'la' ? 'ກະສິກອນໄທ' : 'กสิกรไทย' }]);
      }),
    );
    renderApp('/user/statement', { preloadedState: { ...loggedIn, prefs: { locale: 'la', inviteCode: null, guestId: null, lastSync: null, agreementAccepted: false } } });
    const entry = await screen.findByTestId('statement-entry');
    await waitFor(() => expect(within(entry).getByTestId('statement-activity')).toHaveTextContent('ກະສິກອນໄທ'));
    expect(asked).toContain('la');
  });
});

describe('statement receipts (issue 12)', () => {
  it('opens the receipt of an entry: amount, from and to, time, reference and status; closing returns to the list', async () => {
    statementServer([
      line(1, { statementType: 'withdraw', from: 'WALLET', to: 'SCB', amount: 100, status: 'IN_PROGRESS', reference: 'w-77' }),
      line(2, { statementType: 'transfer', from: 'WALLET', to: 'pg', amount: 250.5, reference: 't-42' }),
      line(3, { statementType: 'deposit', from: 'TRUEMONEY', to: 'WALLET', amount: 50 }),
    ]);
    const { user } = open();
    const buttons = await screen.findAllByTestId('statement-receipt');
    expect(buttons[1]).toHaveAccessibleName('View receipt: To the game pg, 250.50');
    await user.click(buttons[1]);
    const dialog = await screen.findByRole('dialog', { name: 'Receipt' });
    const receipt = within(dialog).getByTestId('receipt');
    expect(within(receipt).getByRole('heading', { name: 'Transfer receipt' })).toBeInTheDocument();
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('250.50 baht');
    expect(within(receipt).getByTestId('receipt-from')).toHaveTextContent('Wallet');
    // A transfer's own id, as its receipt said right after it (issue 12); the line itself shows its short reference.
    expect(within(receipt).getByTestId('receipt-reference')).toHaveTextContent('t-42');
    expect(within(screen.getAllByTestId('statement-entry')[1]).getByTestId('statement-ref')).toHaveTextContent(statementRef({ _id: 's2', statementType: 'transfer', createdAt: LOCAL }));
    expect(within(receipt).getByTestId('receipt-status')).toHaveTextContent('Success');
    expect(within(receipt).getByTestId('receipt-time')).toHaveTextContent('20/11/2026 05:06:07');
    await user.click(within(receipt).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(buttons[1]).toHaveFocus();

    await user.click(buttons[0]);
    const withdrawal = await screen.findByTestId('receipt');
    expect(within(withdrawal).getByRole('heading', { name: 'Withdrawal receipt' })).toBeInTheDocument();
    expect(within(withdrawal).getByTestId('receipt-to')).toHaveTextContent('SCB');
    expect(within(withdrawal).getByTestId('receipt-status')).toHaveTextContent('In progress');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // A line of an older server (no ref): the short reference derived from the line.
    await user.click(buttons[2]);
    const deposit = await screen.findByTestId('receipt');
    expect(within(deposit).getByTestId('receipt-reference')).toHaveTextContent(/^D-\d{4}-\d{4}$/);
    expect(within(deposit).getByTestId('receipt-from')).toHaveTextContent('TrueMoney gift');
  });
});

describe('a deposit staff rejected (issue 14)', () => {
  it("shows the staff's reason on the failed line, and nothing on lines without a note", async () => {
    statementServer([
      line(1, { statementType: 'deposit', from: 'KBANK', to: 'WALLET', amount: 200, status: 'FAILED', note: 'Paid from a third-party account' }),
      line(2, { statementType: 'deposit', from: 'KBANK', to: 'WALLET', amount: 100, status: 'FAILED' }),
      line(3, { statementType: 'deposit', from: 'KBANK', to: 'WALLET', amount: 300 }),
    ]);
    open();
    const entries = await screen.findAllByTestId('statement-entry');
    expect(within(entries[0]).getByTestId('statement-note')).toHaveTextContent('Reason: Paid from a third-party account');
    // Inside the entry's list item, in reading order after the activity, so a screen reader reads it with its line.
    expect(within(entries[0]).getByText('Reason: Paid from a third-party account').tagName).toBe('P');
    expect(within(entries[1]).queryByTestId('statement-note')).toBeNull();
    expect(within(entries[2]).queryByTestId('statement-note')).toBeNull();
  });

  it('reads the reason label in Thai and Lao', async () => {
    for (const [lang, label] of [
      ['th', 'เหตุผล: '],
      ['la', 'ເຫດຜົນ: '],
    ] as const) {
      statementServer([line(1, { statementType: 'deposit', from: 'KBANK', to: 'WALLET', amount: 200, status: 'FAILED', note: 'x' })]);
      const view = renderApp('/user/statement', { preloadedState: { ...loggedIn, prefs: { locale: lang, inviteCode: null, guestId: null, lastSync: null, agreementAccepted: false } } });
      expect(await screen.findByTestId('statement-note')).toHaveTextContent(`${label}x`);
      view.unmount();
    }
  });
});

describe('issue 40: money under review, filters, days, references', () => {
  it('lists a payment under review as being checked with its reason, and its short reference', async () => {
    statementServer([line(1, { statementType: 'deposit', from: 'KBANK', to: 'WALLET', amount: 25, status: 'IN_PROGRESS', reason: 'AMOUNT_MISMATCH', ref: 'D-2611-4821' })]);
    open();
    const entry = await screen.findByTestId('statement-entry');
    expect(within(entry).getByTestId('statement-status')).toHaveTextContent('Being checked');
    expect(within(entry).getByTestId('statement-review')).toHaveTextContent('Being checked by our staff: not the amount the QR code asked for');
    expect(within(entry).getByTestId('statement-ref')).toHaveTextContent('Ref. D-2611-4821');
    expect(within(entry).getByTestId('statement-amount')).toHaveTextContent('+25.00');
  });

  it('a clawback says taken back in words and not in the colours of money in; its receipt says taken back', async () => {
    statementServer([line(1, { statementType: 'finish_bonus', from: 'WALLET', to: 'BONUS', amount: 51.25, status: 'FAILED', reference: '1', bonus: { description: 'DAILY5' } })]);
    const { user } = open();
    const entry = await screen.findByTestId('statement-entry');
    expect(within(entry).getByTestId('statement-status')).toHaveTextContent('Taken back');
    expect(within(entry).getByTestId('statement-direction')).toHaveTextContent('Taken back');
    expect(entry.querySelector('[data-direction]')).toHaveAttribute('data-direction', 'takenBack');
    await user.click(within(entry).getByTestId('statement-receipt'));
    const receipt = await screen.findByTestId('receipt');
    expect(within(receipt).getByTestId('receipt-status')).toHaveTextContent('Taken back');
    expect(receipt).not.toHaveClass('receipt--failed');
    expect(within(receipt).getByTestId('receipt-reference')).toHaveTextContent(/^E-\d{4}-\d{4}$/);
  });

  it('filters by type (sent to the server, back to page 1) and groups the lines under their day', async () => {
    const bodies = statementServer([
      line(1, { statementType: 'deposit', amount: 10, createdAt: new Date().toISOString() }),
      line(2, { statementType: 'deposit', amount: 20, createdAt: new Date(Date.now() - 86_400_000).toISOString() }),
    ]);
    const { user } = open();
    await screen.findAllByTestId('statement-entry');
    expect(screen.getAllByTestId('statement-day').map((h) => h.textContent)).toEqual(['Today', 'Yesterday']);
    await user.selectOptions(screen.getByTestId('statement-filter'), 'deposit');
    await waitFor(() => expect(bodies[bodies.length - 1]).toEqual({ page: 1, limit: 10, type: 'deposit' }));
  });
});
