import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { errorResponse, server } from '../../test/support/server';
import { StaffApp } from '../StaffApp';
import { FakeStaffSocket } from '../../test/support/staff-socket';
import type { AuditEntry } from './api';

const anna = { id: 3, username: 'anna', name: 'Anna Admin' };

/** Entry ids 1..total, the newest (highest id) first, as the server answers. */
function entry(id: number): AuditEntry {
  const kinds: Pick<AuditEntry, 'action' | 'subjectType' | 'subjectId' | 'reason' | 'detail'>[] = [
    { action: 'player.status', subjectType: 'player', subjectId: '42', reason: 'Asked by phone', detail: { from: 'active', to: 'inactive' } },
    { action: 'login', subjectType: 'staff', subjectId: '3', reason: null, detail: null },
    { action: 'review.reject', subjectType: 'review', subjectId: 'rev_ab12', reason: 'Not the player’s transfer', detail: null },
    { action: 'something.new', subjectType: 'thing', subjectId: 'x1', reason: null, detail: null },
  ];
  return { id, staff: anna, createdAt: new Date(Date.parse('2026-11-26T10:00:00.000Z') + id * 60_000).toISOString(), ...kinds[id % 4] };
}

function serve(total: number) {
  const asked: string[] = [];
  server.use(
    http.get('/api/staff/me', () => HttpResponse.json({ ...anna, role: 'admin' })),
    http.get('/api/staff/audit', ({ request }) => {
      const url = new URL(request.url);
      asked.push(url.search);
      const limit = Number(url.searchParams.get('limit'));
      const before = url.searchParams.get('before') === null ? total + 1 : Number(url.searchParams.get('before'));
      const ids = Array.from({ length: Math.max(0, Math.min(limit, before - 1)) }, (_, i) => before - 1 - i);
      return HttpResponse.json({ entries: ids.map(entry) });
    }),
  );
  return asked;
}

function start() {
  window.sessionStorage.setItem('staff-token', 'staff-token-1');
  window.localStorage.setItem('staff-locale', 'en');
  window.history.pushState({}, '', '/staff/audit');
  render(<StaffApp connect={() => new FakeStaffSocket()} />);
  return userEvent.setup();
}

const rows = () => within(screen.getByRole('table', { name: 'Staff actions, newest first' })).getAllByRole('row').slice(1);

describe('staff console: audit log', () => {
  it('lists staff actions newest first, translated, and loads older ones below the oldest shown', async () => {
    const asked = serve(53);
    const user = start();
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toHaveFocus();
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(asked).toEqual(['?limit=50']);

    // id 53 (53 % 4 = 1): a login; 52: a player's status; 51: an action this console does not know; 50: a rejected review.
    expect(rows()[0]).toHaveTextContent('Anna Admin (anna)');
    expect(rows()[0]).toHaveTextContent('Signed in');
    expect(rows()[0]).toHaveTextContent('Staff 3');
    expect(rows()[0]).toHaveTextContent('—');
    expect(rows()[1]).toHaveTextContent('Changed a player’s status: Active → Inactive');
    expect(rows()[1]).toHaveTextContent('Player 42');
    expect(rows()[1]).toHaveTextContent('Asked by phone');
    expect(rows()[2]).toHaveTextContent('something.new');
    expect(rows()[2]).toHaveTextContent('thing x1');
    expect(rows()[3]).toHaveTextContent('Rejected a payment');
    expect(rows()[3]).toHaveTextContent('Review rev_ab12');

    await user.click(screen.getByRole('button', { name: 'Load older' }));
    await waitFor(() => expect(rows()).toHaveLength(53));
    expect(asked).toEqual(['?limit=50', '?limit=50&before=4']);
    // The first older entry takes the focus; fewer than a page came, so this is the start of the log.
    expect(rows()[50]).toHaveFocus();
    expect(rows()[50]).toHaveAttribute('data-entry', '3');
    expect(screen.getByText('Start of the log.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
  });

  it('a page that ends exactly at the oldest entry: Load older finds none and says so', async () => {
    serve(50);
    const user = start();
    await waitFor(() => expect(rows()).toHaveLength(50));
    await user.click(screen.getByRole('button', { name: 'Load older' }));
    expect(await screen.findByText('Start of the log.')).toHaveFocus();
    expect(rows()).toHaveLength(50);
  });

  it('shows a failed load in an alert with a retry', async () => {
    serve(2);
    server.use(http.get('/api/staff/audit', () => errorResponse('NETWORK_DOWN', 500), { once: true }));
    const user = start();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the audit log.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByText('Start of the log.')).toBeInTheDocument();
  });

  it('is not offered to other roles', async () => {
    server.use(
      http.get('/api/staff/me', () => HttpResponse.json({ ...anna, role: 'support' })),
      http.get('/api/staff/conversations', () => HttpResponse.json({ conversations: [] })),
    );
    start();
    const nav = await screen.findByRole('navigation', { name: 'Staff pages' });
    expect(within(nav).queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
    // The URL of the page leads to the first page this role has.
    expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toBeInTheDocument();
  });
});
