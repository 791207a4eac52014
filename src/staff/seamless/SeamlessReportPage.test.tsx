import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { http, HttpResponse } from 'msw';

import { errorResponse, server } from '../../test/support/server';
import { pagesFor } from '../pages';
import { StaffApp } from '../StaffApp';
import { FakeStaffSocket } from '../../test/support/staff-socket';
import type { StaffRole } from '../types';
import type { SeamlessReport, SeamlessReportRow } from './api';

function row(day: string, gameCode: string, over: Partial<SeamlessReportRow> = {}): SeamlessReportRow {
  return {
    day,
    gameCode,
    gameName: gameCode === 'sl-dragon' ? 'Dragon Rising' : 'Lotus Reels',
    currency: 'THB',
    rounds: 3,
    bets: { count: 3, amount: 36 },
    wins: { count: 1, amount: 4 },
    rollbacks: { count: 1, amount: 6 },
    net: 26,
    ledger: 26,
    difference: 0,
    mismatch: false,
    ...over,
  };
}

const utcDay = (daysBack: number) => new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10);

/** The report route: the range asked is kept; 2020-03-01..02 has a mismatch; a reversed range is refused. */
function serve(role: StaffRole = 'payments', opts: { hold?: boolean } = {}) {
  const asked: string[] = [];
  let release: (() => void) | null = null;
  server.use(
    http.get('/api/staff/me', () => HttpResponse.json({ id: 7, username: 'ann', name: 'Ann', role })),
    http.get('/api/staff/seamless/report', async ({ request }) => {
      if (request.headers.get('authorization') !== 'Bearer staff-token-1') return errorResponse('invalid-token', 401);
      const q = new URL(request.url).searchParams;
      const from = q.get('from') ?? '';
      const to = q.get('to') ?? '';
      asked.push(`${from}..${to}`);
      if (opts.hold && asked.length === 1) await new Promise<void>((resolve) => (release = resolve));
      if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return errorResponse('INVALID_DATE', 400);
      if (to < from) return errorResponse('INVALID_RANGE', 400);
      const body: SeamlessReport =
        from === '2020-03-01'
          ? {
              from,
              to,
              rows: [
                row('2020-03-01', 'sl-dragon'),
                row('2020-03-01', 'sl-lotus', { rounds: 1, bets: { count: 1, amount: 5 }, wins: { count: 1, amount: 12.5 }, rollbacks: { count: 0, amount: 0 }, net: -7.5, ledger: -5, difference: 2.5, mismatch: true }),
              ],
              mismatches: 1,
            }
          : { from, to, rows: from === '2020-01-01' ? [] : [row(to, 'sl-dragon')], mismatches: 0 };
      return HttpResponse.json(body);
    }),
  );
  return { asked, release: () => release?.() };
}

function start(path = '/staff/seamless') {
  window.sessionStorage.setItem('staff-token', 'staff-token-1');
  window.localStorage.setItem('staff-locale', 'en');
  window.history.pushState({}, '', path);
  render(<StaffApp connect={() => new FakeStaffSocket()} />);
  return userEvent.setup();
}

const setDay = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('staff console: seamless report', () => {
  it('opens on the last 7 UTC days, loading first; every row matching says so in text', async () => {
    const { asked, release } = serve('payments', { hold: true });
    start();
    expect(await screen.findByRole('heading', { level: 1, name: 'Seamless report' })).toHaveFocus();
    expect(screen.getByLabelText('First day (UTC)')).toHaveValue(utcDay(6));
    expect(screen.getByLabelText('Last day (UTC)')).toHaveValue(utcDay(0));
    expect(screen.getByRole('group', { name: 'Period' })).toHaveAccessibleDescription('Up to 92 days.');
    await waitFor(() => expect(asked).toEqual([`${utcDay(6)}..${utcDay(0)}`]));
    // (The header's connection state is a status too: the page's own is found by its text.)
    expect(screen.getByText('Loading…')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('button', { name: 'Show the report' })).toBeDisabled();
    release();
    const table = await screen.findByRole('table', { name: `Seamless rounds per game and day, ${utcDay(6)} to ${utcDay(0)} (UTC)` });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Matches');
    expect(screen.getByText('Every day matches the ledger.')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a period per game and day, a mismatch written out in its row and announced', async () => {
    const { asked } = serve();
    const user = start();
    await screen.findByRole('table');
    setDay('First day (UTC)', '2020-03-01');
    setDay('Last day (UTC)', '2020-03-02');
    await user.click(screen.getByRole('button', { name: 'Show the report' }));
    const table = await screen.findByRole('table', { name: 'Seamless rounds per game and day, 2020-03-01 to 2020-03-02 (UTC)' });
    expect(asked[asked.length - 1]).toBe('2020-03-01..2020-03-02');
    const [header, dragon, lotus] = within(table).getAllByRole('row');
    expect(within(header).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Day (UTC)', 'Game', 'Rounds', 'Bets (count)', 'Bets', 'Wins', 'Rolled back', 'House result', 'Ledger movement', 'Ledger check',
    ]);
    expect(within(dragon).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2020-03-01', 'Dragon Rising', '3', '3', '฿36.00', '฿4.00', '฿6.00', '฿26.00', '฿26.00', 'Matches']);
    expect(within(lotus).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '2020-03-01', 'Lotus Reels', '1', '1', '฿5.00', '฿12.50', '฿0.00', '-฿7.50', '-฿5.00', 'Mismatchledger − house result: ฿2.50',
    ]);
    expect(within(lotus).getByText('Mismatch')).toBeVisible();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Mismatch with the ledger on 1 row(s): see the rows marked “Mismatch”.'));
    // axe's structural rules on the page with its report (jsdom paints nothing: contrast is not checked here).
    expect((await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } })).violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
  });

  it('shows a refused period and an empty one, with the server’s reason in an alert; Try again asks again', async () => {
    const { asked } = serve();
    const user = start();
    await screen.findByRole('table');
    setDay('First day (UTC)', '2020-03-05');
    setDay('Last day (UTC)', '2020-03-01');
    await user.click(screen.getByRole('button', { name: 'Show the report' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Could not load the report. The first day must not be after the last day.'));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const before = asked.length;
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(asked.length).toBe(before + 1));

    setDay('First day (UTC)', '');
    await user.click(screen.getByRole('button', { name: 'Show the report' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Enter both days as dates (year, month, day).'));

    setDay('First day (UTC)', '2020-01-01');
    setDay('Last day (UTC)', '2020-01-31');
    await user.click(screen.getByRole('button', { name: 'Show the report' }));
    expect(await screen.findByText('No seamless transactions and no ledger movement in this period.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is in the navigation of payments and admin, not of support', async () => {
    expect(pagesFor('payments').map((p) => p.path)).toContain('seamless');
    expect(pagesFor('admin').map((p) => p.path)).toContain('seamless');
    expect(pagesFor('support').map((p) => p.path)).not.toContain('seamless');
    serve('support');
    start('/staff/players');
    const nav = await screen.findByRole('navigation', { name: 'Staff pages' });
    expect(within(nav).queryByRole('link', { name: 'Seamless report' })).not.toBeInTheDocument();
  });

  it('links it for an admin, and speaks Thai and Lao', async () => {
    serve('admin');
    const user = start('/staff/seamless');
    const nav = await screen.findByRole('navigation', { name: 'Staff pages' });
    expect(within(nav).getByRole('link', { name: 'Seamless report' })).toHaveAttribute('href', '/staff/seamless');
    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('Language'), 'th');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('รายงานซีมเลส');
    expect(screen.getByLabelText('วันแรก (UTC)')).toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveTextContent('ตรงกัน');
    await user.selectOptions(screen.getByLabelText('ภาษา'), 'la');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ລາຍງານຊີມເລສ');
    expect(screen.getByRole('button', { name: 'ສະແດງລາຍງານ' })).toBeInTheDocument();
  });
});
