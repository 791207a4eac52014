import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { http, HttpResponse } from 'msw';

import { errorResponse, server } from '../../test/support/server';
import { StaffApp } from '../StaffApp';
import { FakeStaffSocket } from '../../test/support/staff-socket';
import type { PlayerLookup } from '../players/api';
import type { SeamlessRound } from './api';

const found: PlayerLookup = {
  player: {
    id: 42,
    phone: '0812345678',
    name: 'Somchai Jaidee',
    status: 'active',
    currency: 'THB',
    wallet: 990,
    games: [],
    coin: 0,
    createdAt: '2026-11-01T03:00:00.000Z',
    bank: { code: 'SCB', accountNo: '******7890', accountName: 'SOMCHAI JAIDEE' },
  },
  movements: [],
};

function round(roundId: string, over: Partial<SeamlessRound> = {}): SeamlessRound {
  return {
    gameCode: 'sl-dragon',
    gameName: 'Dragon Rising',
    aggregator: 'hub88',
    roundId,
    currency: 'THB',
    status: 'closed',
    bets: 10,
    wins: 25,
    rollbacks: 0,
    net: 15,
    firstAt: '2026-12-01T10:00:00.000Z',
    lastAt: '2026-12-01T10:00:05.000Z',
    transactions: [
      { uuid: `${roundId}-bet`, kind: 'bet', amount: 10, status: 'OK', reference: null, createdAt: '2026-12-01T10:00:00.000Z' },
      { uuid: `${roundId}-win`, kind: 'win', amount: 25, status: 'OK', reference: null, createdAt: '2026-12-01T10:00:05.000Z' },
    ],
    ...over,
  };
}

const firstPage = [
  round('r3', { status: 'open', bets: 20, wins: 0, net: -20, transactions: [{ uuid: 'r3-bet', kind: 'bet', amount: 20, status: 'OK', reference: null, createdAt: '2026-12-01T11:00:00.000Z' }] }),
  round('r2', {
    gameCode: 'sl-lotus',
    gameName: 'Lotus Reels',
    status: 'rolled_back',
    bets: 7,
    wins: 0,
    rollbacks: 7,
    net: 0,
    transactions: [
      { uuid: 'b7', kind: 'bet', amount: 7, status: 'ROLLED_BACK', reference: null, createdAt: '2026-12-01T10:30:00.000Z' },
      { uuid: 'rb7', kind: 'rollback', amount: 7, status: 'OK', reference: 'b7', createdAt: '2026-12-01T10:30:01.000Z' },
      { uuid: 'late', kind: 'bet', amount: 7, status: 'REFUSED', reference: null, createdAt: '2026-12-01T10:30:02.000Z' },
    ],
  }),
];

/** Two pages: the first answers a cursor, the second ends the list. `fail` answers the first page with an error. */
function serve(opts: { fail?: string; rounds?: SeamlessRound[] } = {}) {
  const calls: string[] = [];
  server.use(
    http.get('/api/staff/me', () => HttpResponse.json({ id: 7, username: 'nok', name: 'Nok', role: 'support' })),
    http.get('/api/staff/players', () => HttpResponse.json(found)),
    http.get('/api/staff/players/:id/seamless-rounds', ({ params, request }) => {
      if (request.headers.get('authorization') !== 'Bearer staff-token-1') return errorResponse('invalid-token', 401);
      const cursor = new URL(request.url).searchParams.get('cursor');
      calls.push(`${String(params.id)}:${cursor ?? ''}`);
      if (opts.fail && calls.length === 1) return errorResponse(opts.fail, 500);
      if (opts.rounds) return HttpResponse.json({ rounds: opts.rounds, next: null });
      if (cursor === null) return HttpResponse.json({ rounds: firstPage, next: '17' });
      return HttpResponse.json({ rounds: [round('r1')], next: null });
    }),
  );
  return calls;
}

async function start() {
  window.sessionStorage.setItem('staff-token', 'staff-token-1');
  window.localStorage.setItem('staff-locale', 'en');
  window.history.pushState({}, '', '/staff/players');
  render(<StaffApp connect={() => new FakeStaffSocket()} />);
  const user = userEvent.setup();
  await screen.findByRole('heading', { level: 1, name: 'Players' });
  await user.type(screen.getByRole('textbox', { name: "Player's phone number" }), '0812345678{Enter}');
  await screen.findByRole('heading', { level: 2, name: 'Somchai Jaidee' });
  return user;
}

describe('staff console: a player’s seamless rounds', () => {
  it('lists the rounds in a table with their numbers and state; a round’s transactions open with an aria-expanded button', async () => {
    const calls = serve();
    const user = await start();
    const section = screen.getByRole('region', { name: 'Seamless rounds' });
    const table = await within(section).findByRole('table', { name: 'Seamless rounds, newest first' });
    expect(calls).toEqual(['42:']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Dragon Rising');
    expect(rows[0]).toHaveTextContent('r3');
    expect(rows[0]).toHaveTextContent('Open');
    expect(within(rows[0]).getByRole('cell', { name: '-฿20.00' })).toHaveAttribute('data-label', 'Player’s result');
    expect(rows[1]).toHaveTextContent('Lotus Reels');
    expect(rows[1]).toHaveTextContent('Rolled back');
    expect(within(rows[1]).getAllByRole('cell', { name: '฿7.00' }).map((c) => c.getAttribute('data-label'))).toEqual(['Bets', 'Rolled back']);

    const toggle = within(rows[1]).getByRole('button', { name: 'Transactions of round r2 (3)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('table', { name: 'Transactions of round r2' })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const txs = screen.getByRole('table', { name: 'Transactions of round r2' });
    expect(toggle).toHaveAttribute('aria-controls', txs.closest('tr[id]')?.id);
    const lines = within(txs).getAllByRole('row').slice(1);
    expect(lines.map((l) => within(l).getAllByRole('cell').slice(1).map((c) => c.textContent))).toEqual([
      ['Bet', '฿7.00', 'Rolled back', 'b7', ''],
      ['Rollback', '฿7.00', 'Done', 'rb7', 'b7'],
      ['Bet', '฿7.00', 'Refused (no money moved)', 'late', ''],
    ]);
    // axe's structural rules on the page with a round open (jsdom paints nothing: contrast is not checked here).
    expect((await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } })).violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
    // The keyboard closes it again.
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('table', { name: 'Transactions of round r2' })).not.toBeInTheDocument();
  });

  it('"More rounds" asks for the next page with the cursor, focuses the first older round, then says the list ended', async () => {
    const calls = serve();
    const user = await start();
    const section = screen.getByRole('region', { name: 'Seamless rounds' });
    await within(section).findByRole('table', { name: 'Seamless rounds, newest first' });
    await user.click(within(section).getByRole('button', { name: 'More rounds' }));
    await waitFor(() => expect(within(section).getAllByRole('row', { name: /Dragon Rising r1/ })[0]).toHaveFocus());
    expect(calls).toEqual(['42:', '42:17']);
    expect(within(section).getAllByRole('button', { name: /^Transactions of round/ }).map((b) => b.textContent)).toEqual([
      'Transactions of round r3 (1)',
      'Transactions of round r2 (3)',
      'Transactions of round r1 (2)',
    ]);
    expect(within(section).queryByRole('button', { name: 'More rounds' })).not.toBeInTheDocument();
    expect(within(section).getByText('No older rounds.')).toBeInTheDocument();
  });

  it('shows a failed load in an alert with a retry, and an empty list as text', async () => {
    serve({ fail: 'GENERIC' });
    const user = await start();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Could not load the seamless rounds. Something went wrong.'));
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Seamless rounds, newest first' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when the player has no seamless rounds, in Thai and Lao too', async () => {
    serve({ rounds: [] });
    const user = await start();
    expect(await screen.findByText('No seamless rounds.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Language'), 'th');
    expect(screen.getByRole('region', { name: 'รอบการเล่นแบบซีมเลส' })).toHaveTextContent('ไม่มีรอบการเล่นแบบซีมเลส');
    await user.selectOptions(screen.getByLabelText('ภาษา'), 'la');
    expect(screen.getByRole('region', { name: 'ຮອບການຫຼິ້ນແບບຊີມເລສ' })).toHaveTextContent('ບໍ່ມີຮອບການຫຼິ້ນແບບຊີມເລສ.');
  });
});
