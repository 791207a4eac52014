import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { server } from '../../test/support/server';
import { StaffApp } from '../StaffApp';
import { FakeStaffSocket } from '../../test/support/staff-socket';
import { at, message, summary } from '../../test/support/staff';
import type { ChatMessage } from '../types';

const staff = { id: 7, username: 'nok', name: 'Nok', role: 'support' as const };
const conversation = summary(5, { userId: '42', name: 'Somchai', unread: 1, lastAt: at(6) });

const history: ChatMessage[] = [
  message('m1', { createdAt: at(1), message: 'hi' }),
  message('m2', {
    createdAt: at(2),
    sender: 'other',
    username: 'bot',
    name: 'Wallet bot',
    message: 'How can we help?',
    message_type: 'quick_replies',
    payload: { quick_replies: [{ title: 'Deposit', type: 'postback', payload: 'HELP_DEPOSIT' }] },
  }),
  message('m3', { createdAt: at(3), message: 'Deposit', message_type: 'postback', payload: { payload: 'HELP_DEPOSIT' } }),
  message('m4', {
    createdAt: at(4),
    sender: 'other',
    username: 'bot',
    name: 'Wallet bot',
    message: 'Deposit with a QR.',
    message_type: 'buttons',
    payload: { buttons: [{ title: 'Open wallet', type: 'web', payload: '/user/home' }] },
  }),
  message('m5', { createdAt: at(5), message: '', message_type: 'media', payload: { message: '', url: true, fileType: 'image', filePath: '/api/chat/media/slip.png' } }),
  message('m6', { createdAt: at(6), message: 'still nothing', session_id: 's1' }),
];

function serve() {
  const calls = { history: [] as unknown[], replies: [] as unknown[], read: 0, close: 0 };
  server.use(
    http.get('/api/staff/me', () => HttpResponse.json(staff)),
    http.get('/api/staff/conversations', () => HttpResponse.json({ conversations: [conversation] })),
    http.post('/api/staff/conversations/5/history', async ({ request }) => {
      const body = (await request.json()) as { limit: number; skip: number };
      calls.history.push(body);
      // the 4 newest first, then the 2 before them
      const page = body.skip === 0 ? history.slice(2) : history.slice(0, 2);
      return HttpResponse.json({ total: history.length, messages: page, closed: false });
    }),
    http.post('/api/staff/conversations/5/reply', async ({ request }) => {
      calls.replies.push(await request.json());
      return HttpResponse.json({ _id: `r${calls.replies.length}`, createdAt: at(10 + calls.replies.length) });
    }),
    http.put('/api/staff/conversations/5/read', () => {
      calls.read += 1;
      return HttpResponse.json({ read: 1 });
    }),
    http.post('/api/staff/conversations/5/close', () => {
      calls.close += 1;
      return HttpResponse.json({ ok: true });
    }),
  );
  return calls;
}

function start() {
  window.sessionStorage.setItem('staff-token', 'staff-token-1');
  window.localStorage.setItem('staff-locale', 'en');
  window.history.pushState({}, '', '/staff/conversations/5');
  const socket = new FakeStaffSocket();
  render(<StaffApp connect={() => socket} />);
  return { socket, user: userEvent.setup() };
}

/** The list's own items (a message's buttons are lists of their own). */
const messages = () => Array.from(screen.getByRole('list', { name: 'Messages' }).children) as HTMLElement[];

describe('staff console: one conversation', () => {
  it('shows the history readably, loads older messages, marks it read, and hears new ones', async () => {
    const calls = serve();
    const { socket, user } = start();

    expect(await screen.findByRole('heading', { level: 2, name: 'Somchai (player 42)' })).toHaveFocus();
    await waitFor(() => expect(messages()).toHaveLength(4));
    expect(calls.history).toEqual([{ limit: 20, skip: 0 }]);
    expect(messages()[0]).toHaveTextContent('Tapped: Deposit');
    expect(within(messages()[1]).getByRole('link', { name: 'Open wallet' })).toHaveAttribute('href', '/user/home');
    expect(messages()[1]).toHaveTextContent('Wallet bot');
    expect(within(messages()[2]).getByRole('img', { name: 'Image' })).toHaveAttribute('src', '/api/chat/media/slip.png');

    await user.click(screen.getByRole('button', { name: 'Load older messages' }));
    await waitFor(() => expect(messages()).toHaveLength(6));
    expect(calls.history).toEqual([{ limit: 20, skip: 0 }, { limit: 20, skip: 4 }]);
    expect(messages()[1]).toHaveTextContent('Deposit (button)');
    expect(screen.getByText('Start of the conversation')).toBeInTheDocument();

    // Viewed: marked read after a second, and the list's badge goes.
    await waitFor(() => expect(calls.read).toBe(1), { timeout: 3000 });
    await waitFor(() => expect(screen.getByRole('list', { name: 'Conversation list' })).not.toHaveTextContent('unread'));

    // A live message of this conversation is added once and read aloud.
    const live = message('m7', { createdAt: at(7), message: 'hello??' });
    act(() => {
      socket.serverEmits('messaging', { conversationId: 5, message: live });
      socket.serverEmits('messaging', { conversationId: '5', message: live });
      socket.serverEmits('messaging', { conversationId: 6, message: message('other', { createdAt: at(8) }) });
    });
    expect(messages()).toHaveLength(7);
    expect(screen.getByTestId('staff-announcer')).toHaveTextContent('New message from Somchai (player 42): hello??');

    // After a reconnect (events may have been lost) the newest page loads again; a draft reply survives it.
    await user.type(screen.getByLabelText('Reply'), 'half-written');
    act(() => socket.serverEmits('connect'));
    expect(calls.history).toHaveLength(2);
    act(() => {
      socket.serverEmits('disconnect', 'transport close');
      socket.serverEmits('connect');
    });
    await waitFor(() => expect(calls.history).toEqual([{ limit: 20, skip: 0 }, { limit: 20, skip: 4 }, { limit: 20, skip: 0 }]));
    await waitFor(() => expect(messages()).toHaveLength(4));
    expect(screen.getByLabelText('Reply')).toHaveValue('half-written');
  });

  it('replies with text and with quick replies, and closes the conversation after a confirm', async () => {
    const calls = serve();
    const { user } = start();
    await waitFor(() => expect(messages()).toHaveLength(4));

    const box = screen.getByLabelText('Reply');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Write a message first.');
    await user.type(box, 'Checking your deposit now{Enter}');
    await waitFor(() => expect(calls.replies).toEqual([{ message: 'Checking your deposit now', message_type: 'text' }]));
    await waitFor(() => expect(messages()).toHaveLength(5));
    expect(messages()[4]).toHaveTextContent('Nok');
    expect(messages()[4]).toHaveTextContent('Checking your deposit now');
    expect(box).toHaveValue('');

    await user.click(screen.getByText('Quick replies (0 of 4)'));
    const chip = screen.getByLabelText('Quick reply text');
    for (const title of ['Yes', 'No', 'Later', 'Call me']) {
      await user.type(chip, title);
      await user.click(screen.getByRole('button', { name: 'Add quick reply' }));
    }
    await user.type(chip, 'Fifth{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('At most 4 quick replies.');
    expect(screen.getByText('Quick replies (4 of 4)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove quick reply Later' }));
    await user.type(box, 'Did it arrive?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.replies).toHaveLength(2));
    expect(calls.replies[1]).toEqual({
      message: 'Did it arrive?',
      message_type: 'quick_replies',
      payload: {
        quick_replies: [
          { title: 'Yes', type: 'postback', payload: 'STAFF_REPLY_1' },
          { title: 'No', type: 'postback', payload: 'STAFF_REPLY_2' },
          { title: 'Call me', type: 'postback', payload: 'STAFF_REPLY_3' },
        ],
      },
    });
    await waitFor(() => expect(messages()).toHaveLength(6));
    expect(within(messages()[5]).getByRole('list', { name: 'Quick replies offered' })).toHaveTextContent('Yes (button)');

    // Close: asks first; cancel keeps it open, confirm closes it.
    await user.click(screen.getByRole('button', { name: 'Close conversation' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Close this conversation?');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.close).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Close conversation' }));
    await user.click(screen.getByRole('button', { name: 'Yes, close it' }));
    expect(await screen.findByText('This conversation is closed. A reply opens it again.')).toBeInTheDocument();
    expect(calls.close).toBe(1);
    expect(screen.queryByRole('button', { name: 'Close conversation' })).toBeNull();
  });
});
