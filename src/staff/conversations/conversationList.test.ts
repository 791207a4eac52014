import { at, summary } from '../../test/support/staff';
import {
  conversationListReducer,
  initialConversationList,
  matchesFilter,
  selectTotalUnread,
  selectUnreadConversations,
  type ConversationListEvent,
  type ConversationListState,
} from './conversationList';

const run = (events: ConversationListEvent[], from: ConversationListState) => events.reduce(conversationListReducer, from);
const loading = initialConversationList('open', 'r1');
const ids = (s: ConversationListState) => (s.status === 'ready' ? s.items.map((c) => c.id) : null);

const a = summary(1, { lastAt: at(1), unread: 2 });
const b = summary(2, { lastAt: at(2), unread: 0 });
const c = summary(3, { lastAt: at(3), unread: 1 });
const ready: ConversationListState = { status: 'ready', filter: 'open', items: [c, b, a] };

describe('conversation list: loading', () => {
  it('loading -> ready with the answer of its own request, newest activity first', () => {
    const s = run([{ type: 'conversations/loaded', requestId: 'r1', conversations: [a, c, b] }], loading);
    expect(s).toEqual({ status: 'ready', filter: 'open', items: [c, b, a] });
  });

  it("another request's answer or failure changes nothing", () => {
    expect(run([{ type: 'conversations/loaded', requestId: 'old', conversations: [a] }], loading)).toBe(loading);
    expect(run([{ type: 'conversations/loadFailed', requestId: 'old', code: 'NETWORK' }], loading)).toBe(loading);
  });

  it('loading -> failed with the code; a new load starts over', () => {
    const failed = run([{ type: 'conversations/loadFailed', requestId: 'r1', code: 'NETWORK' }], loading);
    expect(failed).toEqual({ status: 'failed', filter: 'open', code: 'NETWORK' });
    expect(run([{ type: 'conversations/loadStarted', filter: 'closed', requestId: 'r2' }], failed)).toEqual(initialConversationList('closed', 'r2'));
  });

  it('answers are ignored once loaded (a second answer of the same request)', () => {
    expect(run([{ type: 'conversations/loaded', requestId: 'r1', conversations: [] }], ready)).toBe(ready);
  });

  it('an answer keeps only the conversations the filter shows', () => {
    const closed = summary(9, { status: 'closed' });
    expect(ids(run([{ type: 'conversations/loaded', requestId: 'r1', conversations: [a, closed] }], loading))).toEqual(['1']);
  });
});

describe('conversation list: who comes first (the server order)', () => {
  const player = summary(10, { userId: '7', lastAt: at(1) });
  const waitingPlayer = summary(11, { userId: '8', lastAt: at(0), status: 'waiting_staff' });
  const waitingGuest = summary(12, { guestId: 'g1', lastAt: at(5), status: 'waiting_staff' });
  const guest = summary(13, { guestId: 'g2', lastAt: at(9) });

  it('players before guests, in each those waiting for staff first, then newest activity', () => {
    const s = run([{ type: 'conversations/loaded', requestId: 'r1', conversations: [guest, waitingGuest, player, waitingPlayer] }], loading);
    expect(ids(s)).toEqual(['11', '10', '12', '13']);
  });

  it("a guest's newest message does not lift it above a player; a player asking for staff goes to the top", () => {
    const s0 = run([{ type: 'conversations/loaded', requestId: 'r1', conversations: [player, guest] }], loading);
    const s1 = run([{ type: 'conversations/conversationChanged', conversation: { ...guest, lastAt: at(20) } }], s0);
    expect(ids(s1)).toEqual(['10', '13']);
    const s2 = run([{ type: 'conversations/conversationChanged', conversation: { ...waitingPlayer, lastAt: at(21) } }], s1);
    expect(ids(s2)).toEqual(['11', '10', '13']);
  });
});

describe('conversation list: live `conversation` events', () => {
  it('a new message moves its conversation to the top with its unread count and text', () => {
    const changed = { ...a, lastAt: at(10), unread: 3, lastMessage: 'are you there?' };
    const s = run([{ type: 'conversations/conversationChanged', conversation: changed }], ready);
    expect(s.status === 'ready' && s.items).toEqual([changed, c, b]);
    expect(selectTotalUnread(s)).toBe(4);
  });

  it('a conversation not listed yet is added in its place', () => {
    const d = summary('guest-conv', { lastAt: at(2.5), unread: 1 });
    expect(ids(run([{ type: 'conversations/conversationChanged', conversation: d }], ready))).toEqual(['3', 'guest-conv', '2', '1']);
  });

  it('a closed conversation leaves the open list and joins the closed one', () => {
    const closedC = { ...c, status: 'closed' as const, unread: 0 };
    expect(ids(run([{ type: 'conversations/conversationChanged', conversation: closedC }], ready))).toEqual(['2', '1']);
    const closedList: ConversationListState = { status: 'ready', filter: 'closed', items: [] };
    expect(ids(run([{ type: 'conversations/conversationChanged', conversation: closedC }], closedList))).toEqual(['3']);
    // ...and a customer writing again takes it out of the closed list
    const reopened = { ...closedC, status: 'open' as const, lastAt: at(20) };
    expect(ids(run([{ type: 'conversations/conversationChanged', conversation: closedC }, { type: 'conversations/conversationChanged', conversation: reopened }], closedList))).toEqual([]);
  });

  it('events while loading are applied on top of the answer, unless the answer is newer', () => {
    const early = [
      { ...a, unread: 5, lastAt: at(30) }, // newer than the answer: kept
      { ...b, unread: 9, lastAt: at(0) }, // older than the answer: the answer wins
      summary(4, { lastAt: at(4) }), // not in the answer: added
    ];
    const s = run(
      [...early.map((conversation) => ({ type: 'conversations/conversationChanged' as const, conversation })), { type: 'conversations/loaded', requestId: 'r1', conversations: [a, b, c] }],
      loading,
    );
    expect(ids(s)).toEqual(['1', '4', '3', '2']);
    expect(s.status === 'ready' && s.items.find((x) => x.id === '2')?.unread).toBe(0);
    expect(s.status === 'ready' && s.items.find((x) => x.id === '1')?.unread).toBe(5);
  });

  it('events while failed are dropped (the retry loads afresh)', () => {
    const failed: ConversationListState = { status: 'failed', filter: 'open', code: 'NETWORK' };
    expect(run([{ type: 'conversations/conversationChanged', conversation: a }], failed)).toBe(failed);
  });
});

describe('conversation list: unread counts', () => {
  it('counts unread messages and conversations with something unread', () => {
    expect(selectTotalUnread(ready)).toBe(3);
    expect(selectUnreadConversations(ready)).toBe(2);
    expect(selectTotalUnread(loading)).toBe(0);
  });

  it('marking read clears the badge of that conversation only; nothing to clear leaves the state as is', () => {
    const s = run([{ type: 'conversations/markedRead', id: '1' }], ready);
    expect(s.status === 'ready' && s.items.map((x) => x.unread)).toEqual([1, 0, 0]);
    expect(run([{ type: 'conversations/markedRead', id: 2 }], ready)).toBe(ready);
    expect(run([{ type: 'conversations/markedRead', id: 1 }], loading)).toBe(loading);
  });

  it('the open filter holds open and waiting conversations, the closed one only closed ones', () => {
    expect([matchesFilter('open', 'open'), matchesFilter('open', 'waiting_staff'), matchesFilter('open', 'closed')]).toEqual([true, true, false]);
    expect([matchesFilter('closed', 'open'), matchesFilter('closed', 'closed')]).toEqual([false, true]);
  });
});
