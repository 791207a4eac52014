import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { errorResponse, server } from '../test/support/server';
import { StaffApp } from './StaffApp';
import { summary } from '../test/support/staff';
import { FakeStaffSocket } from '../test/support/staff-socket';
import type { ConversationSummary } from './types';

const staff = { id: 7, username: 'nok', name: 'Nok', role: 'support' as const };

function start(path = '/staff/conversations') {
  window.history.pushState({}, '', path);
  window.localStorage.setItem('staff-locale', 'en');
  const socket = new FakeStaffSocket();
  const connect = jest.fn(() => socket);
  render(<StaffApp connect={connect} />);
  return { socket, connect, user: userEvent.setup() };
}

const somchai = summary(1, { userId: '42', name: 'Somchai', lastMessage: 'I paid but see nothing', lastAt: '2026-11-26T10:05:00.000Z', unread: 2, status: 'waiting_staff' });
const guest = summary(2, { guestId: 'g_secret', lastMessage: 'hello?', lastAt: '2026-11-26T10:01:00.000Z', unread: 0 });

/** The conversation routes answer only to the staff token, as the server does. */
function conversationsAnswer(byStatus: Record<string, ConversationSummary[]>) {
  return http.get('/api/staff/conversations', ({ request }) => {
    if (request.headers.get('authorization') !== 'Bearer staff-token-1') return errorResponse('invalid-token', 401);
    const status = new URL(request.url).searchParams.get('status') ?? 'open';
    return HttpResponse.json({ conversations: byStatus[status] ?? [] });
  });
}

const items = () => within(screen.getByRole('list', { name: 'Conversation list' })).getAllByRole('listitem');

describe('staff console: sign-in and the live conversation list', () => {
  it('shows refusals, signs in, lists open conversations with unread badges, and follows live events', async () => {
    const answers = [errorResponse('WRONG_CREDENTIAL', 401), errorResponse('REQUEST_LIMIT', 429)];
    const logins: unknown[] = [];
    server.use(
      http.post('/api/staff/login', async ({ request }) => {
        logins.push(await request.json());
        return answers.shift() ?? HttpResponse.json({ token: 'staff-token-1', staff });
      }),
      conversationsAnswer({ open: [guest, somchai], closed: [] }),
    );
    const { socket, connect, user } = start();

    // Signed out: the form, whatever /staff URL was opened (it stays, so the page opens after sign-in).
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' })).toHaveFocus();
    expect(connect).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter your username and password.');
    expect(logins).toHaveLength(0);

    await user.type(screen.getByLabelText('Username'), 'nok');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wrong username or password.'));
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveFocus();

    await user.type(screen.getByLabelText('Password'), 'again-wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts. Wait a few minutes, then try again.'));

    await user.type(screen.getByLabelText('Password'), 'right-password-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(logins).toEqual([
      { username: 'nok', password: 'wrong-password' },
      { username: 'nok', password: 'again-wrong' },
      { username: 'nok', password: 'right-password-1' },
    ]);

    // Signed in: the shell, the socket with the staff token, and the open list, newest activity first.
    expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toHaveFocus();
    expect(window.sessionStorage.getItem('staff-token')).toBe('staff-token-1');
    expect(connect).toHaveBeenCalledWith('staff-token-1');
    expect(screen.getByRole('navigation', { name: 'Staff pages' })).toHaveTextContent('Conversations');
    expect(screen.getByText('Signed in as Nok')).toBeInTheDocument();
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(items()[0]).toHaveTextContent('Somchai (player 42)');
    expect(items()[0]).toHaveTextContent('2 unread');
    expect(items()[0]).toHaveTextContent('Waiting for staff');
    expect(items()[0]).toHaveTextContent('I paid but see nothing');
    expect(items()[1]).toHaveTextContent('Guest');
    expect(items()[1]).not.toHaveTextContent('g_secret');
    expect(items()[1]).not.toHaveTextContent('unread');
    expect(document.title).toBe('(2) Staff console');

    // Live: the connection, then a new guest message updates that conversation with its badge, read aloud; a guest,
    // however recent, stays below the player waiting for staff (guests cost nothing to make: they must bury nobody).
    expect(screen.getByText('Connecting…')).toBeInTheDocument();
    act(() => socket.serverEmits('connect'));
    expect(screen.getByText('Live')).toBeInTheDocument();
    act(() => socket.serverEmits('conversation', { ...guest, lastMessage: 'anyone there?', lastAt: '2026-11-26T10:09:00.000Z', unread: 1 }));
    expect(items()[0]).toHaveTextContent('Somchai');
    expect(items()[1]).toHaveTextContent('Guest');
    expect(items()[1]).toHaveTextContent('anyone there?');
    expect(items()[1]).toHaveTextContent('1 unread');
    expect(screen.getByTestId('staff-announcer')).toHaveTextContent('New message from Guest: anyone there?');
    expect(document.title).toBe('(3) Staff console');

    // Closed by another staff member: it leaves the open list.
    act(() => socket.serverEmits('conversation', { ...somchai, status: 'closed', unread: 0 }));
    expect(items()).toHaveLength(1);
    expect(document.title).toBe('(1) Staff console');

    // The closed filter asks the server for closed ones.
    await user.click(screen.getByRole('radio', { name: 'Closed' }));
    expect(await screen.findByText('No closed conversations.')).toBeInTheDocument();
    expect(window.location.search).toBe('?status=closed');
  });

  it('opens with a stored token, and a call that finds the session ended returns to the sign-in form', async () => {
    window.sessionStorage.setItem('staff-token', 'staff-token-old');
    server.use(
      http.get('/api/staff/me', () => HttpResponse.json(staff)),
      conversationsAnswer({ open: [somchai] }), // refuses the old token
    );
    start('/staff');
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your session ended. Sign in again.');
    expect(window.sessionStorage.getItem('staff-token')).toBeNull();
  });

  it('speaks Thai or Lao when chosen, and remembers it', async () => {
    const { user } = start('/staff');
    await user.selectOptions(await screen.findByLabelText('Language'), 'th');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('เข้าสู่ระบบพนักงาน');
    expect(document.documentElement.lang).toBe('th');
    await user.selectOptions(screen.getByLabelText('ภาษา'), 'la');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ເຂົ້າສູ່ລະບົບພະນັກງານ');
    expect(document.documentElement.lang).toBe('lo');
    expect(window.localStorage.getItem('staff-locale')).toBe('la');
  });
});
