import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { File as NodeFile } from 'node:buffer';

import { chatOpened } from '../../core/chatEvents';
import { initialPrefs } from '../../core/prefs';
import type { PreloadedState } from '../../app/store';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import { ChatLauncher } from './ChatLauncher';
import { initialChatState, viewerMoved } from './chatSlice';
import { chatMessage, conversation, fakeChatServer, fakeSocketIo } from '../../test/support/chat';

// The socket's network is played by the test (the rest of the wire goes through msw).
jest.mock('socket.io-client', () => jest.requireActual('../../test/support/chat').fakeSocketIo);

const guest = (guestId: string | null = 'g_1'): PreloadedState => ({ prefs: { ...initialPrefs, locale: 'en', guestId } });
const player: PreloadedState = {
  session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' } },
  prefs: { ...initialPrefs, locale: 'en', guestId: 'g_old' },
};

/** A file of the DOM's kind as far as the app can tell, whose bytes Node's FormData can send. */
function file(name: string, size = 1000, type = 'image/png'): File {
  const f = new NodeFile([new Uint8Array(Math.min(size, 2048))], name, { type }) as unknown as File;
  if (size > 2048) Object.defineProperty(f, 'size', { value: size });
  return f;
}

function renderChat(preloadedState: PreloadedState = guest(), route = '/contact') {
  return renderWithProviders(<ChatLauncher />, { preloadedState, route });
}

async function openChat(preloadedState?: PreloadedState, route?: string) {
  const view = renderChat(preloadedState, route);
  await view.user.click(await screen.findByRole('button', { name: 'Open chat' }));
  const panel = await screen.findByRole('dialog', { name: 'Chat with us' });
  return { ...view, panel };
}

const messagesShown = () => screen.queryAllByTestId('chat-message').map((li) => li.querySelector('.chat-msg__text')?.textContent ?? li.textContent);

afterEach(() => {
  jest.useRealTimers();
  fakeSocketIo.sockets.length = 0;
});

describe('chat launcher', () => {
  it('is not shown while the operator has the widget off', async () => {
    const { store } = renderChat();
    // The lookup answered false (the default handler): nothing renders.
    await waitFor(() => expect(store.getState().api.queries['getChatWidgetEnabled(undefined)']?.status).toBe('fulfilled'));
    expect(screen.queryByRole('button', { name: 'Open chat' })).toBeNull();
  });

  it('opens the panel with the focus in it; Escape closes it and the focus goes back to the launcher', async () => {
    fakeChatServer({ prefix: null });
    const { user, panel } = await openChat();
    expect(within(panel).getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Close chat', expanded: true })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open chat' })).toHaveFocus();
  });

  it('the close button closes it; the launcher toggles it', async () => {
    fakeChatServer({ prefix: null });
    const { user, panel } = await openChat();
    await user.click(within(panel).getByRole('button', { name: 'Close chat' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open chat' }));
    expect(await screen.findByRole('dialog', { name: 'Chat with us' })).toBeInTheDocument();
    await user.click(screen.getByTestId('chat-launcher'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens from another page through chatOpened (the contact page\'s button)', async () => {
    fakeChatServer({ prefix: null });
    const { store } = renderChat();
    await screen.findByRole('button', { name: 'Open chat' });
    act(() => {
      store.dispatch(chatOpened());
    });
    expect(await screen.findByRole('dialog', { name: 'Chat with us' })).toBeInTheDocument();
  });
});

describe('chat identity and history', () => {
  it('gives a visitor a guest id (kept in prefs) and loads the newest 10 messages with it', async () => {
    const fake = fakeChatServer({ prefix: null, messages: conversation(3) });
    const { store } = await openChat(guest(null));
    await waitFor(() => expect(messagesShown()).toEqual(['message m1', 'message m2', 'message m3']));
    expect(fake.calls.guest).toBe(1);
    expect(store.getState().prefs.guestId).toBe('g_new1');
    expect(fake.calls.history).toEqual([{ guestId: 'g_new1', limit: 10, skip: 0 }]);
  });

  it('a player chats as themselves and names the device\'s guest id so the server adopts it', async () => {
    serveUserArea();
    const fake = fakeChatServer({ prefix: null });
    await openChat(player, '/user/contact');
    await waitFor(() => expect(fake.calls.history).toHaveLength(1));
    expect(fake.calls.history[0]).toEqual({ userId: '1', guestId: 'g_old', limit: 10, skip: 0 });
    expect(fake.calls.guest).toBe(0);
  });

  it('a guest id the server refuses is replaced, and the visitor stays where they are', async () => {
    const fake = fakeChatServer({ prefix: null });
    let refused = 0;
    server.use(
      http.post('/api/chat/history', async ({ request }) => {
        const body = (await request.json()) as { guestId?: string };
        if (body.guestId === 'g_stale') {
          refused += 1;
          return errorResponse('UNAUTHORIZED', 401);
        }
        fake.calls.history.push(body);
        return HttpResponse.json({ total: 0, messages: [], closed: false, unread: 0 });
      }),
    );
    const { store, router } = await openChat(guest('g_stale'));
    await waitFor(() => expect(store.getState().prefs.guestId).toBe('g_new1'));
    await waitFor(() => expect(fake.calls.history).toEqual([{ guestId: 'g_new1', limit: 10, skip: 0 }]));
    expect(refused).toBe(1);
    expect(router.state.location.pathname).toBe('/contact');
    expect(await screen.findByText('Send us a message and we will reply here.')).toBeInTheDocument();
  });

  it('loads older pages with the button above the list (skip = what is held) until none is left', async () => {
    const fake = fakeChatServer({ prefix: null, messages: conversation(15) });
    const { user } = await openChat();
    await waitFor(() => expect(messagesShown()).toHaveLength(10));
    expect(messagesShown()[0]).toBe('message m6');
    await user.click(screen.getByRole('button', { name: 'Load older messages' }));
    await waitFor(() => expect(messagesShown()).toHaveLength(15));
    expect(messagesShown()[0]).toBe('message m1');
    expect(fake.calls.history.map((c) => c.skip)).toEqual([0, 10]);
    expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();
  });

  it('refresh loads the newest page again', async () => {
    const fake = fakeChatServer({ prefix: null, messages: conversation(2) });
    const { user } = await openChat();
    await waitFor(() => expect(messagesShown()).toHaveLength(2));
    fake.messages.push(chatMessage('m3', { message: 'a staff reply' }));
    await user.click(screen.getByRole('button', { name: 'Refresh messages' }));
    await waitFor(() => expect(messagesShown()).toEqual(['message m1', 'message m2', 'a staff reply']));
  });

  it('shows the end-of-conversation marker where the session changed and after a closed session, and times as HH:mm:ss', async () => {
    const messages = [
      chatMessage('a', { createdAt: '2026-11-26T01:00:00', session_id: 's1', message: 'first' }),
      chatMessage('b', { createdAt: '2026-11-26T01:05:07', session_id: 's2', message: 'second' }),
    ];
    fakeChatServer({ prefix: null, messages, closed: true });
    await openChat();
    await waitFor(() => expect(messagesShown()).toEqual(['first', 'second']));
    expect(screen.getAllByTestId('chat-end')).toHaveLength(2);
    expect(screen.getAllByText('This conversation has ended')).toHaveLength(2);
    expect(screen.getByText('01:05:07')).toHaveAttribute('datetime', '2026-11-26T01:05:07');
    expect(screen.getByText('Thu, 26 Nov 2026')).toBeInTheDocument();
  });

  it('a failed load says why, with a retry', async () => {
    fakeChatServer({ prefix: null });
    let fail = true;
    server.use(
      http.post('/api/chat/history', () => (fail ? errorResponse('INTERNAL_SERVER_ERROR', 500) : HttpResponse.json({ total: 1, messages: [chatMessage('x', { message: 'back' })], closed: false, unread: 0 }))),
    );
    const { user } = await openChat();
    const alert = await screen.findByText(/The messages could not be loaded/);
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(messagesShown()).toEqual(['back']));
  });
});

describe('sending', () => {
  it('sends text with Enter, shows it and clears the box; blank text sends nothing', async () => {
    const fake = fakeChatServer({ prefix: null });
    const { user, panel } = await openChat();
    await screen.findByText('Send us a message and we will reply here.');
    const box = within(panel).getByRole('textbox', { name: 'Message' });
    await user.type(box, '   ');
    await user.keyboard('{Enter}');
    expect(fake.calls.sent).toEqual([]);
    await user.clear(box);
    await user.type(box, 'Hello there');
    expect(within(panel).getByText('11 of 2000 characters')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(messagesShown()).toEqual(['Hello there']));
    expect(fake.calls.sent).toEqual([{ guestId: 'g_1', message: 'Hello there', message_type: 'text', locale: 'en' }]);
    expect(box).toHaveValue('');
    expect(box).toHaveAttribute('maxlength', '2000');
  });

  it('keeps the text and says why when the send is refused', async () => {
    fakeChatServer({ prefix: null });
    server.use(http.post('/api/chat/send-message', () => errorResponse('REQUEST_LIMIT', 429)));
    const { user, panel } = await openChat();
    const box = within(panel).getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Hello{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Your message was not sent:'));
    expect(box).toHaveValue('Hello');
  });

  it('shows quick replies on the newest message; a tap sends its postback, shows its title, and the chips go', async () => {
    const greeting = chatMessage('q1', {
      message: 'Hello! How can we help?',
      message_type: 'quick_replies',
      payload: {
        quick_replies: [
          { title: 'Deposit help', type: 'postback', payload: 'HELP_DEPOSIT' },
          { title: 'Talk to staff', type: 'postback', payload: 'TALK_TO_STAFF' },
        ],
      },
    });
    const fake = fakeChatServer({ prefix: null, messages: [greeting] });
    const { user } = await openChat();
    const chips = await screen.findByRole('group', { name: 'Quick replies' });
    await user.click(within(chips).getByRole('button', { name: 'Deposit help' }));
    await waitFor(() => expect(messagesShown()).toEqual(['Hello! How can we help?', 'Deposit help']));
    expect(fake.calls.sent).toEqual([{ guestId: 'g_1', message: 'Deposit help', message_type: 'postback', payload: { payload: 'HELP_DEPOSIT' }, locale: 'en' }]);
    expect(screen.queryByRole('group', { name: 'Quick replies' })).toBeNull();
    // The tapped chip went: the focus is back in the message box, and Escape still closes.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('message types', () => {
  const buttons = chatMessage('b1', {
    message: 'Deposits arrive in about a minute.',
    message_type: 'buttons',
    payload: {
      buttons: [
        { title: 'Open home', type: 'web', payload: '/user/home' },
        { title: 'Our site', type: 'web', payload: 'https://example.com/help' },
        { title: 'Bad link', type: 'web', payload: 'javascript:alert(1)' },
        { title: 'Call us', type: 'call', payload: '02-123-4567' },
        { title: 'Bonus help', type: 'postback', payload: 'HELP_BONUS' },
      ],
    },
  });
  const generic = chatMessage('g1', {
    message: '',
    message_type: 'generic',
    payload: { elements: [{ image_url: '/media/bonus.png', title: 'Welcome bonus', subtitle: '100% on the first deposit', buttons: [{ title: 'See bonuses', type: 'web', payload: '/user/bonus' }] }] },
  });
  const image = chatMessage('i1', { name: 'Somchai', message: 'shot.png', message_type: 'media', payload: { message: 'shot.png', url: true, fileType: 'image', filePath: '/api/chat/media/a.png' } });
  const video = chatMessage('v1', { name: 'Somchai', message: 'clip.mp4', message_type: 'media', payload: { message: 'clip.mp4', url: true, fileType: 'video', filePath: '/api/chat/media/b.mp4' } });
  const doc = chatMessage('f1', { message: 'terms.pdf', message_type: 'media', payload: { message: 'terms.pdf', url: true, fileType: 'file', filePath: '/api/chat/media/c.pdf' } });
  const postback = chatMessage('p1', { sender: 'customer', message: 'Talk to staff', message_type: 'postback', payload: { payload: 'TALK_TO_STAFF' } });

  it('renders buttons: same-site paths through the router, https in a new tab, tel: for calls, postbacks as buttons', async () => {
    const fake = fakeChatServer({ prefix: null, messages: [buttons] });
    const { user, router } = await openChat();
    const home = await screen.findByRole('link', { name: 'Open home' });
    expect(home).toHaveAttribute('href', '/user/home');
    expect(screen.getByRole('link', { name: 'Our site (opens in a new tab)' })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Our site (opens in a new tab)' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByRole('link', { name: 'Bad link' })).toBeNull();
    expect(screen.getByText('Bad link')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call us' })).toHaveAttribute('href', 'tel:021234567');
    await user.click(screen.getByRole('button', { name: 'Bonus help' }));
    await waitFor(() => expect(fake.calls.sent).toEqual([expect.objectContaining({ message: 'Bonus help', message_type: 'postback', payload: { payload: 'HELP_BONUS' } })]));
    await user.click(home);
    expect(router.state.location.pathname).toBe('/user/home');
  });

  it('renders generic cards, media and postbacks', async () => {
    fakeChatServer({ prefix: null, messages: [generic, image, video, doc, postback] });
    await openChat();
    expect(await screen.findByRole('img', { name: 'Welcome bonus' })).toHaveAttribute('src', '/media/bonus.png');
    expect(screen.getByText('100% on the first deposit')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See bonuses' })).toHaveAttribute('href', '/user/bonus');
    expect(screen.getByRole('img', { name: 'Picture from Somchai' })).toHaveAttribute('src', '/api/chat/media/a.png');
    const clip = screen.getByLabelText('Video from Somchai');
    expect(clip.tagName).toBe('VIDEO');
    expect(clip).toHaveAttribute('controls');
    expect(screen.getByRole('link', { name: 'Download terms.pdf' })).toHaveAttribute('href', '/api/chat/media/c.pdf');
    const own = screen.getByText('Talk to staff', { selector: '.chat-msg__text' }).closest('li');
    expect(own).toHaveClass('chat-msg--customer');
  });
});

describe('talk to staff and the end of the conversation (issue 40 item 6)', () => {
  const greeting = chatMessage('q1', {
    message: 'Hello! What can I help you with?',
    message_type: 'quick_replies',
    payload: { quick_replies: [{ title: 'How to deposit', type: 'postback', payload: 'HELP_DEPOSIT' }, { title: 'Talk to staff', type: 'postback', payload: 'TALK_TO_STAFF' }] },
  });
  const own = chatMessage('c1', { sender: 'customer', username: null, name: null, message: 'How to deposit', message_type: 'postback', payload: { payload: 'HELP_DEPOSIT' } });
  const help = chatMessage('b1', { message: 'Deposit with the Deposit button.', message_type: 'buttons', payload: { buttons: [{ title: 'Open the wallet', type: 'web', payload: '/user/home' }] } });
  const card = chatMessage('g1', {
    message: 'How to deposit',
    message_type: 'generic',
    payload: { elements: [{ image_url: '/media/howto/wallet.jpg', title: 'How to deposit', subtitle: null, buttons: [] }] },
  });
  const staff = chatMessage('s1', { username: 'staff', name: 'Ploy', message: 'Ploy here' });
  const staffButtons = () => screen.queryAllByRole('button', { name: 'Talk to staff' });
  const bubbleOf = (text: string) => screen.getAllByTestId('chat-message').find((li) => li.textContent?.includes(text));

  it('offers "talk to staff" under every bot message, not only the newest, and a tap on an older one asks for a person', async () => {
    const fake = fakeChatServer({ prefix: null, messages: [greeting, own, help, card, staff] });
    const { user } = await openChat();
    await screen.findByText('Ploy here');
    // The greeting (no longer the newest: its quick replies are gone), the help text and the card: three; staff's
    // and the customer's own messages none.
    expect(staffButtons()).toHaveLength(3);
    for (const text of ['Hello! What can I help you with?', 'Deposit with the Deposit button.', 'Open the wallet']) {
      expect([text, within(bubbleOf(text)!).queryAllByRole('button', { name: 'Talk to staff' }).length]).toEqual([text, 1]);
    }
    expect(within(bubbleOf('Ploy here')!).queryAllByRole('button', { name: 'Talk to staff' })).toEqual([]);
    await user.click(within(bubbleOf('Deposit with the Deposit button.')!).getByRole('button', { name: 'Talk to staff' }));
    await waitFor(() => expect(fake.calls.sent).toEqual([expect.objectContaining({ message: 'Talk to staff', message_type: 'postback', payload: { payload: 'TALK_TO_STAFF' } })]));
  });

  it('the newest greeting offers it once, among its quick replies', async () => {
    fakeChatServer({ prefix: null, messages: [greeting] });
    await openChat();
    await screen.findByText('Hello! What can I help you with?');
    expect(staffButtons()).toHaveLength(1);
    expect(within(screen.getByRole('group', { name: 'Quick replies' })).getByRole('button', { name: 'Talk to staff' })).toBeInTheDocument();
  });

  it('reopening the widget shows the newest message, also when its picture loads after the scroll', async () => {
    fakeChatServer({ prefix: null, messages: [...conversation(12), help, card] });
    // jsdom lays nothing out: the history's heights are played here (the card's picture adds 300 px once loaded).
    let content = 1000;
    const height = jest.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(() => content);
    const client = jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 400);
    try {
      const { user, panel } = await openChat();
      await within(panel).findByRole('img', { name: 'How to deposit' });
      const history = () => screen.getByTestId('chat-history');
      expect(history().scrollTop).toBe(1000);
      await user.click(within(panel).getByRole('button', { name: 'Close chat' }));
      await user.click(screen.getByRole('button', { name: 'Open chat' }));
      const reopened = await screen.findByRole('dialog', { name: 'Chat with us' });
      expect(history().scrollTop).toBe(1000);
      content = 1300;
      fireEvent.load(within(reopened).getByRole('img', { name: 'How to deposit' }));
      expect(history().scrollTop).toBe(1300);
      // Scrolled up to read: a late picture leaves the reader where they are.
      history().scrollTop = 200;
      fireEvent.scroll(history());
      content = 1600;
      fireEvent.load(within(reopened).getByRole('img', { name: 'How to deposit' }));
      expect(history().scrollTop).toBe(200);
    } finally {
      height.mockRestore();
      client.mockRestore();
    }
  });
});

describe('attachments', () => {
  it('refuses a file of another type or too large with the spec\'s messages, uploading nothing', async () => {
    const fake = fakeChatServer({ prefix: null });
    await openChat();
    await screen.findByText('Send us a message and we will reply here.');
    // A browser's file picker can show every file, whatever `accept` says.
    const user = userEvent.setup({ applyAccept: false });
    const input = screen.getByTestId('chat-file');
    expect(input).toHaveAttribute('accept', '.png,.jpeg,.jpg,.gif,.mov,.mp4');
    await user.upload(input, file('notes.pdf'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('File is not supported'));
    await user.upload(input, file('big.png', 10 * 1024 * 1024 + 1));
    expect(screen.getByRole('alert')).toHaveTextContent('The file is too large. Please select file no larger than 10 MB');
    await user.upload(input, file('big.mp4', 20 * 1024 * 1024 + 1, 'video/mp4'));
    expect(screen.getByRole('alert')).toHaveTextContent('The file is too large. Please select file no larger than 20 MB');
    expect(fake.calls.uploads).toEqual([]);
  });

  it('a picture goes uploading -> sending -> sent: the identity before the file, then the message naming it', async () => {
    const fake = fakeChatServer({ prefix: null });
    fake.holdUploads();
    const { user, store } = await openChat();
    await screen.findByText('Send us a message and we will reply here.');
    // Every state the machine goes through (XMLHttpRequest's upload progress included).
    const seen: string[] = [];
    store.subscribe(() => {
      const machine = store.getState().chat.outbox[0]?.machine;
      if (!machine) return;
      const now = machine.status === 'uploading_file' ? `uploading_file ${Math.floor((100 * machine.loaded) / machine.total)}%` : machine.status;
      if (seen[seen.length - 1] !== now) seen.push(now);
    });
    await user.upload(screen.getByTestId('chat-file'), file('cat.png'));
    const local = await screen.findByTestId('chat-local');
    expect(local).toHaveAttribute('data-status', 'uploading_file');
    expect(within(local).getByRole('progressbar', { name: 'Upload of cat.png' })).toBeInTheDocument();
    await waitFor(() => expect(fake.calls.uploads).toHaveLength(1));
    expect(fake.calls.uploads[0]).toEqual({ guestId: 'g_1', file: 'file:cat.png', order: 'guestId,file', route: 'image' });
    expect(local).toHaveTextContent('Uploading 0%');
    fake.holdMediaSends();
    fake.release('upload');
    await waitFor(() => expect(screen.getByTestId('chat-local')).toHaveAttribute('data-status', 'sending'));
    expect(screen.getByTestId('chat-local')).toHaveTextContent('Sending…');
    fake.release('send');
    await waitFor(() => expect(screen.queryByTestId('chat-local')).toBeNull());
    const sent = screen.getByRole('img', { name: 'Picture from You' });
    expect(sent).toHaveAttribute('src', '/api/chat/media/1.png');
    expect(sent.closest('li')).toHaveTextContent('Sent');
    expect(seen).toEqual(['uploading_file 0%', 'uploading_file 100%', 'sending', 'succeed']);
    expect(fake.calls.sent).toEqual([
      { guestId: 'g_1', message: 'cat.png', message_type: 'media', payload: { message: 'cat.png', url: true, fileType: 'image', filePath: '/api/chat/media/1.png' }, locale: 'en' },
    ]);
  });

  it('a refused upload is failed with the reason; Resend uploads again, Remove takes it away', async () => {
    const fake = fakeChatServer({ prefix: null, uploadStatus: 400 });
    const { user } = await openChat();
    await screen.findByText('Send us a message and we will reply here.');
    await user.upload(screen.getByTestId('chat-file'), file('clip.mp4', 5000, 'video/mp4'));
    await waitFor(() => expect(screen.getByTestId('chat-local')).toHaveAttribute('data-status', 'failed'));
    expect(screen.getByTestId('chat-local')).toHaveTextContent('Not sent:');
    expect(fake.calls.uploads[0].route).toBe('video');
    await user.click(screen.getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(fake.calls.uploads).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('chat-local')).toHaveAttribute('data-status', 'failed'));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.queryByTestId('chat-local')).toBeNull();
    expect(fake.calls.sent).toEqual([]);
  });

  it('a refused send keeps the upload: Resend sends again without uploading again', async () => {
    const fake = fakeChatServer({ prefix: null, sendMediaStatus: 400 });
    const { user } = await openChat();
    await screen.findByText('Send us a message and we will reply here.');
    await user.upload(screen.getByTestId('chat-file'), file('cat.gif', 500, 'image/gif'));
    await waitFor(() => expect(screen.getByTestId('chat-local')).toHaveAttribute('data-status', 'failed'));
    await user.click(screen.getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(fake.calls.sent).toHaveLength(2));
    expect(fake.calls.uploads).toHaveLength(1);
  });
});

describe('mark as read', () => {
  /** The PUTs sent so far (seen at the fetch boundary, so fake timers need not let msw answer). */
  function watchReads() {
    const fetches = jest.spyOn(globalThis, 'fetch');
    return () => fetches.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/api/chat/read-customer/'));
  }
  afterEach(() => jest.restoreAllMocks());

  it('marks what staff and the bot said as read 1 s after it is in view', async () => {
    const fake = fakeChatServer({ prefix: null });
    const unread = [chatMessage('u1', { message: 'reply 1' }), chatMessage('u2', { message: 'reply 2' })];
    // The widget has loaded the conversation and is closed: opening shows the unread messages.
    const { store } = renderChat({
      ...guest(),
      chat: { ...initialChatState, started: true, owner: 'guest:g_1', messages: unread, total: 2, loadedOnce: true },
    });
    await waitFor(() => expect(fake.calls.config).toBe(1));
    const readCalls = watchReads();
    jest.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    expect(screen.getByRole('dialog', { name: 'Chat with us' })).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(999));
    expect(readCalls()).toHaveLength(0);
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(readCalls()).toHaveLength(1);
    jest.useRealTimers();
    await waitFor(() => expect(fake.calls.read).toEqual([{ guestId: 'g_1' }]));
    await waitFor(() => expect(store.getState().chat.messages.every((m) => m.read)).toBe(true));
  });

  it('does not mark read while the list is scrolled up', async () => {
    const fake = fakeChatServer({ prefix: null });
    const { store } = renderChat({
      ...guest(),
      chat: { ...initialChatState, started: true, owner: 'guest:g_1', messages: [chatMessage('u1')], total: 1, loadedOnce: true },
    });
    await waitFor(() => expect(fake.calls.config).toBe(1));
    const readCalls = watchReads();
    jest.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    // Scrolled up before the second is over.
    await act(() => jest.advanceTimersByTimeAsync(500));
    act(() => {
      store.dispatch(viewerMoved({ nearBottom: false }));
    });
    await act(() => jest.advanceTimersByTimeAsync(5000));
    expect(readCalls()).toHaveLength(0);
    act(() => {
      store.dispatch(viewerMoved({ nearBottom: true }));
    });
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(readCalls()).toHaveLength(1);
    jest.useRealTimers();
    await waitFor(() => expect(fake.calls.read).toEqual([{ guestId: 'g_1' }]));
  });
});

describe('live messages', () => {
  it('connects with the guest id to its room, shows and announces a staff reply, with the notice when scrolled up', async () => {
    fakeChatServer({ prefix: 'chat' });
    const { store, user } = await openChat();
    await screen.findByText('Send us a message and we will reply here.');
    await waitFor(() => expect(fakeSocketIo.sockets).toHaveLength(1));
    const socket = fakeSocketIo.sockets[0];
    expect(socket.options).toMatchObject({ transports: ['websocket'], reconnectionDelay: 500, reconnectionAttempts: Infinity });
    expect(socket.auth()).toEqual({ guestId: 'g_1' });
    act(() => socket.serverConnects());
    expect(socket.emitted[0].slice(0, 2)).toEqual(['join', { room: 'chat-g_1' }]);

    act(() => socket.serverEmits('messaging', { type: 'message', message: chatMessage('s1', { name: 'Nok', message: 'Hi, this is Nok' }) }));
    expect(await screen.findByText('Hi, this is Nok')).toBeInTheDocument();
    expect(screen.getByTestId('chat-announcement')).toHaveTextContent('New message from Nok: Hi, this is Nok');
    expect(screen.queryByTestId('chat-notice')).toBeNull();

    act(() => {
      store.dispatch(viewerMoved({ nearBottom: false }));
    });
    act(() => socket.serverEmits('messaging', { type: 'message', message: chatMessage('s2', { name: 'Nok', message: 'Are you there?' }) }));
    await user.click(await screen.findByRole('button', { name: 'New messages' }));
    expect(screen.queryByTestId('chat-notice')).toBeNull();

    act(() => socket.serverEmits('messaging', { type: 'end', session_id: 's1', at: '2026-11-26T03:00:00.000Z' }));
    expect(await screen.findByText('This conversation has ended')).toBeInTheDocument();
  });

  it('loads what was said before the room was joined (a first message\'s quick replies, a reconnection)', async () => {
    const fake = fakeChatServer({ prefix: 'chat' });
    const { user, panel } = await openChat();
    await screen.findByText('Send us a message and we will reply here.');
    // Sent before the socket is up: the bot's answer goes to a room nobody is in yet.
    await user.type(within(panel).getByRole('textbox', { name: 'Message' }), 'Hi{Enter}');
    await waitFor(() => expect(messagesShown()).toEqual(['Hi']));
    await waitFor(() => expect(fakeSocketIo.sockets).toHaveLength(1));
    const socket = fakeSocketIo.sockets[0];
    act(() => socket.serverConnects());
    const [event, data, ack] = socket.emitted[0] as [string, unknown, (answer: unknown) => void];
    expect([event, data]).toEqual(['join', { room: 'chat-g_1' }]);
    act(() => ack({ ok: true }));
    expect(await screen.findByRole('group', { name: 'Quick replies' })).toBeInTheDocument();
    expect(messagesShown()).toEqual(['Hi', 'Hello! How can we help?']);
    expect(fake.calls.history).toHaveLength(2);
  });

  it('counts replies on the launcher while closed, and the player\'s socket carries the token', async () => {
    serveUserArea();
    fakeChatServer({ prefix: 'chat' });
    const { user } = await openChat(player, '/user/contact');
    await waitFor(() => expect(fakeSocketIo.sockets).toHaveLength(1));
    const socket = fakeSocketIo.sockets[0];
    expect(socket.auth()).toEqual({ token: 'tok-1' });
    act(() => socket.serverConnects());
    expect(socket.emitted[0].slice(0, 2)).toEqual(['join', { room: 'chat-1' }]);
    await user.keyboard('{Escape}');
    act(() => socket.serverEmits('messaging', { type: 'message', message: chatMessage('s1', { message: 'Reply while closed' }) }));
    expect(await screen.findByRole('button', { name: 'Open chat, 1 new message' })).toBeInTheDocument();
  });
});
