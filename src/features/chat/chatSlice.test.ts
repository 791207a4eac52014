import type { UnknownAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../core/authEvents';
import { chatOpened } from '../../core/chatEvents';
import type { HistoryKind, HistoryPage } from './chatApi';
import {
  canLoadHistory,
  chatClosed,
  chatReducer,
  chatToggled,
  conversationStarted,
  hasOlder,
  initialChatState,
  mediaQueued,
  mediaRemoved,
  mediaResent,
  mergeMessages,
  mergeNewestPage,
  messagingReceived,
  olderSkip,
  socketStatusChanged,
  unreadFromOther,
  uploadProgressed,
  viewerMoved,
  type ChatState,
  type LocalMedia,
  type MediaMachine,
} from './chatSlice';
import { chatMessage, conversation, endpointAction, pageOf } from '../../test/support/chat';

const run = (actions: UnknownAction[], from: ChatState = initialChatState) => actions.reduce(chatReducer, from);

// Endpoint actions, as RTK Query dispatches them.
const upload = (phase: 'pending' | 'fulfilled' | 'rejected', requestId: string, localId = 'l1', payload?: unknown) =>
  endpointAction('uploadChatMedia', phase, requestId, { localId, kind: 'image', file: null, guestId: 'g1' }, payload);
const sendMedia = (phase: 'pending' | 'fulfilled' | 'rejected', requestId: string, localId = 'l1', payload?: unknown) =>
  endpointAction(
    'sendChatMessage',
    phase,
    requestId,
    { localId, message: 'cat.png', message_type: 'media', payload: { message: 'cat.png', url: true, fileType: 'image', filePath: '/api/chat/media/a.png' }, guestId: 'g1' },
    payload,
  );
const sendText = (phase: 'pending' | 'fulfilled' | 'rejected', requestId: string, message = 'hello', payload?: unknown) =>
  endpointAction('sendChatMessage', phase, requestId, { message, message_type: 'text', guestId: 'g1' }, payload);
const history = (phase: 'pending' | 'fulfilled' | 'rejected', requestId: string, kind: HistoryKind, skip = 0, payload?: HistoryPage | unknown) =>
  endpointAction('chatHistory', phase, requestId, { kind, limit: 10, skip, guestId: 'g1' }, payload);

const refused = { status: 400, data: { message: 'CHAT_FILE_NOT_SUPPORTED' } };
const local = (machine: MediaMachine, localId = 'l1'): LocalMedia => ({ localId, fileName: 'cat.png', kind: 'image', size: 1000, createdAt: '2026-11-26T03:00:00.000Z', machine });
const withMedia = (machine: MediaMachine, extra: Partial<ChatState> = {}): ChatState => ({ ...initialChatState, owner: 'guest:g1', outbox: [local(machine)], ...extra });
const machineOf = (state: ChatState, localId = 'l1') => state.outbox.find((item) => item.localId === localId)?.machine;

const queued = (): MediaMachine => ({ status: 'uploading_file', requestId: null, loaded: 0, total: 1000 });
const uploading = (requestId = 'u1'): MediaMachine => ({ status: 'uploading_file', requestId, loaded: 0, total: 1000 });
const sendingQueued = (): MediaMachine => ({ status: 'sending', requestId: null, filePath: '/api/chat/media/a.png' });
const sending = (requestId = 's1'): MediaMachine => ({ status: 'sending', requestId, filePath: '/api/chat/media/a.png' });
const succeed: MediaMachine = { status: 'succeed', messageId: 'srv1' };
const failedUpload: MediaMachine = { status: 'failed', filePath: null, code: 'CHAT_FILE_NOT_SUPPORTED' };
const failedSend: MediaMachine = { status: 'failed', filePath: '/api/chat/media/a.png', code: 'INVALID_USER_INFO' };
const sentAnswer = { _id: 'srv1', createdAt: '2026-11-26T03:00:05.000Z', session_id: 's1' };

describe('media message machine: transitions', () => {
  it('a picked file is queued in uploading_file with nothing uploaded yet', () => {
    const state = run([mediaQueued({ localId: 'l1', fileName: 'cat.png', kind: 'image', size: 1000, createdAt: '2026-11-26T03:00:00.000Z' })]);
    expect(state.outbox).toEqual([local(queued())]);
  });

  it('uploading_file: the upload request takes it, reports progress, and its answer moves it to sending', () => {
    const taken = run([upload('pending', 'u1')], withMedia(queued()));
    expect(machineOf(taken)).toEqual(uploading('u1'));
    const halfway = run([uploadProgressed({ localId: 'l1', loaded: 500, total: 1000 })], taken);
    expect(machineOf(halfway)).toEqual({ ...uploading('u1'), loaded: 500 });
    expect(machineOf(run([upload('fulfilled', 'u1', 'l1', { path: '/api/chat/media/a.png' })], halfway))).toEqual(sendingQueued());
  });

  it('sending: the send request takes it and its answer makes it succeed, adding the message once', () => {
    const taken = run([sendMedia('pending', 's1')], withMedia(sendingQueued()));
    expect(machineOf(taken)).toEqual(sending('s1'));
    const done = run([sendMedia('fulfilled', 's1', 'l1', sentAnswer)], taken);
    expect(machineOf(done)).toEqual(succeed);
    expect(done.messages).toEqual([
      expect.objectContaining({ _id: 'srv1', sender: 'customer', message_type: 'media', payload: expect.objectContaining({ filePath: '/api/chat/media/a.png' }) }),
    ]);
    expect(done.total).toBe(1);
  });

  it('uploading_file -> failed without a stored file when the upload is refused; resend goes back to uploading_file', () => {
    const failed = run([upload('rejected', 'u1', 'l1', refused)], withMedia(uploading('u1')));
    expect(machineOf(failed)).toEqual(failedUpload);
    expect(machineOf(run([mediaResent({ localId: 'l1' })], failed))).toEqual(queued());
  });

  it('sending -> failed keeping the stored file when the send is refused; resend goes back to sending (no second upload)', () => {
    const failed = run([sendMedia('rejected', 's1', 'l1', { status: 400, data: { message: 'INVALID_USER_INFO' } })], withMedia(sending('s1')));
    expect(machineOf(failed)).toEqual(failedSend);
    expect(machineOf(run([mediaResent({ localId: 'l1' })], failed))).toEqual(sendingQueued());
  });

  it('a network failure is failed with the NETWORK code', () => {
    expect(machineOf(run([upload('rejected', 'u1', 'l1', { status: 'FETCH_ERROR', error: 'offline' })], withMedia(uploading('u1'))))).toEqual({
      status: 'failed',
      filePath: null,
      code: 'NETWORK',
    });
  });

  it('failed -> removed', () => {
    expect(run([mediaRemoved({ localId: 'l1' })], withMedia(failedUpload)).outbox).toEqual([]);
    expect(run([mediaRemoved({ localId: 'l1' })], withMedia(failedSend)).outbox).toEqual([]);
  });

  it('machines of several messages move independently', () => {
    const two: ChatState = { ...withMedia(uploading('u1')), outbox: [local(uploading('u1'), 'l1'), local(uploading('u2'), 'l2')] };
    const after = run([upload('rejected', 'u2', 'l2', refused)], two);
    expect(machineOf(after, 'l1')).toEqual(uploading('u1'));
    expect(machineOf(after, 'l2')).toEqual(failedUpload);
  });
});

describe('media message machine: refused events leave the state unchanged', () => {
  const cases: [string, ChatState, UnknownAction][] = [
    ['a second upload request while one runs', withMedia(uploading('u1')), upload('pending', 'u2')],
    ['the answer of another upload', withMedia(uploading('u1')), upload('fulfilled', 'u2', 'l1', { path: '/x.png' })],
    ['the refusal of another upload', withMedia(uploading('u1')), upload('rejected', 'u2', 'l1', refused)],
    ['an upload answer before the upload started', withMedia(queued()), upload('fulfilled', 'u1', 'l1', { path: '/x.png' })],
    ['progress before the upload started', withMedia(queued()), uploadProgressed({ localId: 'l1', loaded: 10, total: 1000 })],
    ['progress while sending', withMedia(sending()), uploadProgressed({ localId: 'l1', loaded: 10, total: 1000 })],
    ['progress of another message', withMedia(uploading()), uploadProgressed({ localId: 'l9', loaded: 10, total: 1000 })],
    ['an upload request while sending', withMedia(sendingQueued()), upload('pending', 'u2')],
    ['a send request while uploading', withMedia(uploading()), sendMedia('pending', 's1')],
    ['a second send request while one runs', withMedia(sending('s1')), sendMedia('pending', 's2')],
    ['the answer of another send', withMedia(sending('s1')), sendMedia('fulfilled', 's2', 'l1', sentAnswer)],
    ['the refusal of another send', withMedia(sending('s1')), sendMedia('rejected', 's2', 'l1', refused)],
    ['a send answer while uploading', withMedia(uploading('s1')), sendMedia('fulfilled', 's1', 'l1', sentAnswer)],
    ['an upload answer after success', withMedia(succeed), upload('fulfilled', 'u1', 'l1', { path: '/x.png' })],
    ['a send refusal after success', withMedia(succeed), sendMedia('rejected', 's1', 'l1', refused)],
    ['an upload answer after failure', withMedia(failedUpload), upload('fulfilled', 'u1', 'l1', { path: '/x.png' })],
    ['resend while uploading', withMedia(uploading()), mediaResent({ localId: 'l1' })],
    ['resend while sending', withMedia(sending()), mediaResent({ localId: 'l1' })],
    ['resend after success', withMedia(succeed), mediaResent({ localId: 'l1' })],
    ['remove while uploading', withMedia(uploading()), mediaRemoved({ localId: 'l1' })],
    ['remove while sending', withMedia(sending()), mediaRemoved({ localId: 'l1' })],
    ['remove after success', withMedia(succeed), mediaRemoved({ localId: 'l1' })],
    ['resend of an unknown message', withMedia(failedUpload), mediaResent({ localId: 'l9' })],
    ['queueing a local id twice', withMedia(uploading()), mediaQueued({ localId: 'l1', fileName: 'b.png', kind: 'image', size: 5, createdAt: '2026-11-26T03:00:00.000Z' })],
  ];
  it.each(cases)('%s', (_name, from, event) => {
    expect(run([event], from)).toEqual(from);
  });
});

describe('history paging and merging', () => {
  const all = conversation(25);

  it('loads the newest 10, then older pages with skip = what is held, until nothing is older', () => {
    let state = run([history('pending', 'h1', 'latest'), history('fulfilled', 'h1', 'latest', 0, pageOf(all, 0, 10))]);
    expect(state.messages.map((m) => m._id)).toEqual(all.slice(15).map((m) => m._id));
    expect(hasOlder(state)).toBe(true);
    expect(olderSkip(state)).toBe(10);
    state = run([history('pending', 'h2', 'older', 10), history('fulfilled', 'h2', 'older', 10, pageOf(all, 10, 10))], state);
    expect(state.messages.map((m) => m._id)).toEqual(all.slice(5).map((m) => m._id));
    state = run([history('pending', 'h3', 'older', 20), history('fulfilled', 'h3', 'older', 20, pageOf(all, 20, 10))], state);
    expect(state.messages.map((m) => m._id)).toEqual(all.map((m) => m._id));
    expect(hasOlder(state)).toBe(false);
    expect(canLoadHistory(state, 'older')).toBe(false);
  });

  it('a socket message counts in the next skip, so no message is loaded twice or skipped', () => {
    let state = run([history('pending', 'h1', 'latest'), history('fulfilled', 'h1', 'latest', 0, pageOf(all, 0, 10))]);
    const live = chatMessage('live1', { createdAt: '2026-11-26T02:00:00.000Z' });
    state = run([messagingReceived({ type: 'message', message: live })], state);
    expect(state.total).toBe(26);
    expect(olderSkip(state)).toBe(11);
  });

  it('dedupes by _id (a page and a socket event carrying the same message), keeping the newer copy', () => {
    let state = run([history('pending', 'h1', 'latest'), history('fulfilled', 'h1', 'latest', 0, pageOf(all, 0, 10))]);
    const again = { ...all[24], read: true };
    state = run([messagingReceived({ type: 'message', message: again })], state);
    expect(state.messages).toHaveLength(10);
    expect(state.total).toBe(25);
    expect(state.messages[9].read).toBe(true);
  });

  it('orders by createdAt whatever the arrival order', () => {
    const [a, b, c] = [chatMessage('a', { createdAt: '2026-11-26T01:00:00Z' }), chatMessage('b', { createdAt: '2026-11-26T01:00:01Z' }), chatMessage('c', { createdAt: '2026-11-26T01:00:02Z' })];
    expect(mergeMessages([c], [a, b]).map((m) => m._id)).toEqual(['a', 'b', 'c']);
    expect(mergeMessages([a, c], [b, a]).map((m) => m._id)).toEqual(['a', 'b', 'c']);
    // Equal times keep their arrival order.
    const d = chatMessage('d', { createdAt: c.createdAt });
    expect(mergeMessages([c], [d]).map((m) => m._id)).toEqual(['c', 'd']);
  });

  it('a newest page merges when it overlaps what is held, and replaces it after a gap (messages missed offline)', () => {
    const held = all.slice(5, 15);
    expect(mergeNewestPage(held, pageOf(all, 0, 10), 10).map((m) => m._id)).toEqual(all.slice(15).map((m) => m._id));
    const overlapping = all.slice(10, 20);
    expect(mergeNewestPage(overlapping, pageOf(all, 0, 10), 10).map((m) => m._id)).toEqual(all.slice(10).map((m) => m._id));
    // A page that is not full is the whole conversation: nothing is missing.
    expect(mergeNewestPage([all[0]], pageOf(all.slice(1, 4), 0, 10), 10).map((m) => m._id)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('refresh replaces the list and the closed flag with the server\'s', () => {
    const stale = { ...initialChatState, messages: [chatMessage('gone')], total: 1, loadedOnce: true, notice: true };
    const state = run([history('pending', 'h1', 'refresh'), history('fulfilled', 'h1', 'refresh', 0, pageOf(all.slice(0, 3), 0, 10, true))], stale);
    expect(state.messages.map((m) => m._id)).toEqual(['m1', 'm2', 'm3']);
    expect(state.closed).toBe(true);
    expect(state.notice).toBe(false);
  });

  it('a failed load is shown with its code, and the next load may start', () => {
    const state = run([history('pending', 'h1', 'latest'), history('rejected', 'h1', 'latest', 0, { status: 500, data: { message: 'INTERNAL_SERVER_ERROR' } })]);
    expect(state.history).toEqual({ status: 'failed', code: 'INTERNAL_SERVER_ERROR' });
    expect(run([history('pending', 'h2', 'latest')], state).history).toEqual({ status: 'loading', requestId: 'h2', kind: 'latest' });
  });

  it('a newest-page load takes over from an older-page one, whose answer is then ignored', () => {
    const held = run([history('pending', 'h1', 'latest'), history('fulfilled', 'h1', 'latest', 0, pageOf(all, 0, 10))]);
    const older = run([history('pending', 'h2', 'older', 10)], held);
    const refreshing = run([history('pending', 'h3', 'refresh')], older);
    expect(refreshing.history).toEqual({ status: 'loading', requestId: 'h3', kind: 'refresh' });
    expect(run([history('fulfilled', 'h2', 'older', 10, pageOf(all, 10, 10))], refreshing)).toEqual(refreshing);
  });

  describe('refused history events', () => {
    const held = run([history('pending', 'h1', 'latest'), history('fulfilled', 'h1', 'latest', 0, pageOf(all, 0, 10))]);
    const loadingOlder = run([history('pending', 'h2', 'older', 10)], held);
    const cases: [string, ChatState, UnknownAction][] = [
      ['an older page before the first load', initialChatState, history('pending', 'h9', 'older', 0)],
      ['a second older page while one loads', loadingOlder, history('pending', 'h9', 'older', 10)],
      ['an older page when nothing is older', { ...held, total: 10 }, history('pending', 'h9', 'older', 10)],
      ['the answer of another request', loadingOlder, history('fulfilled', 'h9', 'older', 10, pageOf(all, 10, 10))],
      ['the refusal of another request', loadingOlder, history('rejected', 'h9', 'older', 10, { status: 500 })],
      ['an answer while idle', held, history('fulfilled', 'h1', 'latest', 0, pageOf(all, 0, 10))],
    ];
    it.each(cases)('%s', (_name, from, event) => {
      expect(run([event], from)).toEqual(from);
    });
  });
});

describe('sent messages, socket events and the notice', () => {
  const open: ChatState = { ...initialChatState, open: true, started: true, loadedOnce: true };

  it('a sent text joins the list from the server\'s answer; its socket copy is not added twice', () => {
    const answer = { _id: 't1', createdAt: '2026-11-26T03:00:00.000Z', session_id: 's1' };
    let state = run([sendText('pending', 'r1'), sendText('fulfilled', 'r1', 'hello', answer)], open);
    expect(state.messages).toEqual([expect.objectContaining({ _id: 't1', sender: 'customer', message: 'hello', message_type: 'text' })]);
    state = run([messagingReceived({ type: 'message', message: chatMessage('t1', { sender: 'customer', message: 'hello', createdAt: answer.createdAt }) })], state);
    expect(state.messages).toHaveLength(1);
    expect(state.total).toBe(1);
  });

  it('a message arriving while scrolled up raises the notice; scrolling near the end clears it', () => {
    const up = run([viewerMoved({ nearBottom: false })], open);
    const noticed = run([messagingReceived({ type: 'message', message: chatMessage('x1') })], up);
    expect(noticed.notice).toBe(true);
    expect(noticed.arrival).toBe('x1');
    expect(run([viewerMoved({ nearBottom: true })], noticed).notice).toBe(false);
    // At the end there is no notice.
    expect(run([messagingReceived({ type: 'message', message: chatMessage('x2') })], open).notice).toBe(false);
  });

  it('messages from staff or the bot arriving while closed count on the launcher; opening clears the count', () => {
    const closed = { ...open, open: false };
    const state = run([messagingReceived({ type: 'message', message: chatMessage('x1') }), messagingReceived({ type: 'message', message: chatMessage('x2', { sender: 'customer' }) })], closed);
    expect(state.unseen).toBe(1);
    expect(run([chatOpened()], state).unseen).toBe(0);
  });

  it('the end event marks the session closed; the next message reopens it', () => {
    const ended = run([messagingReceived({ type: 'end', session_id: 's1', at: '2026-11-26T03:00:00.000Z' })], open);
    expect(ended.closed).toBe(true);
    expect(run([messagingReceived({ type: 'message', message: chatMessage('n1', { session_id: 's2' }) })], ended).closed).toBe(false);
  });

  it('ignores socket events that are not messages of the contract', () => {
    const bad = messagingReceived({ type: 'message', message: { _id: 1 } } as never);
    expect(run([bad], open)).toEqual(open);
  });

  it('marks read what the server marked read', () => {
    const state = { ...open, messages: [chatMessage('a'), chatMessage('b'), chatMessage('c', { sender: 'customer', read: true })] };
    expect(unreadFromOther(state.messages)).toEqual(['a', 'b']);
    const after = run([endpointAction('markChatRead', 'fulfilled', 'r1', { ids: ['a'] }, { read: 1 })], state);
    expect(unreadFromOther(after.messages)).toEqual(['b']);
  });
});

describe('open, close, owner and session', () => {
  it('opens (the launcher or chatOpened from another page), closes and toggles', () => {
    const opened = run([chatOpened()]);
    expect(opened).toMatchObject({ open: true, started: true });
    expect(run([chatClosed()], opened)).toMatchObject({ open: false, started: true });
    expect(run([chatToggled()], opened).open).toBe(false);
    expect(run([chatToggled()]).open).toBe(true);
  });

  it('another owner starts afresh (a guest who logged in, another player); the same owner keeps the list', () => {
    const held: ChatState = { ...initialChatState, open: true, started: true, owner: 'guest:g1', messages: [chatMessage('a')], total: 1, loadedOnce: true, outbox: [local(failedUpload)] };
    expect(run([conversationStarted({ owner: 'guest:g1' })], held)).toBe(held);
    expect(run([conversationStarted({ owner: 'player:7' })], held)).toEqual({ ...initialChatState, open: true, started: true, owner: 'player:7' });
  });

  it('the session ending forgets the conversation and closes the widget', () => {
    const held: ChatState = { ...initialChatState, open: true, started: true, owner: 'player:7', messages: [chatMessage('a')], socket: 'connected' };
    expect(run([sessionEnded('logout')], held)).toEqual(initialChatState);
  });

  it('keeps the socket status', () => {
    expect(run([socketStatusChanged('connected')]).socket).toBe('connected');
  });
});
