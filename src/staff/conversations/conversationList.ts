import type { ConversationFilter, ConversationSummary } from '../types';

/**
 * The conversation list of the console, as a state machine over the list load and the live `conversation`
 * events of the /staff namespace (each carries a whole ConversationSummary: new message, read, closed):
 *
 *   loading --loaded(requestId)--> ready --conversationChanged--> ready (upserted, re-sorted, filtered)
 *           --loadFailed(requestId)--> failed
 *   any --loadStarted(filter, requestId)--> loading
 *
 * Only the answer of the request that started the current load counts. Summaries that arrive while the list
 * loads are kept and applied on top of the answer unless the answer already holds a newer state of that
 * conversation. A failed load drops them: its retry loads the list afresh.
 */
export type ConversationListState =
  | { status: 'loading'; filter: ConversationFilter; requestId: string; early: ConversationSummary[] }
  | { status: 'ready'; filter: ConversationFilter; items: ConversationSummary[] }
  | { status: 'failed'; filter: ConversationFilter; code: string };

export type ConversationListEvent =
  | { type: 'conversations/loadStarted'; filter: ConversationFilter; requestId: string }
  | { type: 'conversations/loaded'; requestId: string; conversations: ConversationSummary[] }
  | { type: 'conversations/loadFailed'; requestId: string; code: string }
  | { type: 'conversations/conversationChanged'; conversation: ConversationSummary }
  /** The console marked a conversation read: its badge goes at once, before the server's event confirms it. */
  | { type: 'conversations/markedRead'; id: string | number };

export const initialConversationList = (filter: ConversationFilter, requestId: string): ConversationListState => ({
  status: 'loading',
  filter,
  requestId,
  early: [],
});

const key = (id: string | number) => String(id);

/** Whether a conversation in this status belongs in the list the filter shows. */
export function matchesFilter(filter: ConversationFilter, status: ConversationSummary['status']): boolean {
  return filter === 'closed' ? status === 'closed' : status !== 'closed';
}

/**
 * The server's order (docs/chat.md "Staff routes"): players before guests (guest ids cost nothing to make, so guests
 * must never bury a player), in each those waiting for staff first, then newest activity; ties by id.
 */
export const rankOf = (c: Pick<ConversationSummary, 'userId' | 'status'>) => (c.userId === null ? 2 : 0) + (c.status === 'waiting_staff' ? 0 : 1);

function byActivity(a: ConversationSummary, b: ConversationSummary): number {
  const r = rankOf(a) - rankOf(b);
  if (r !== 0) return r;
  const d = Date.parse(b.lastAt) - Date.parse(a.lastAt);
  return d !== 0 ? d : key(b.id).localeCompare(key(a.id));
}

function upsert(filter: ConversationFilter, items: ConversationSummary[], changed: ConversationSummary): ConversationSummary[] {
  const rest = items.filter((c) => key(c.id) !== key(changed.id));
  return matchesFilter(filter, changed.status) ? [...rest, changed].sort(byActivity) : rest;
}

export function conversationListReducer(state: ConversationListState, event: ConversationListEvent): ConversationListState {
  switch (event.type) {
    case 'conversations/loadStarted': {
      const early = state.status === 'loading' && state.filter === event.filter ? state.early : [];
      return { status: 'loading', filter: event.filter, requestId: event.requestId, early };
    }
    case 'conversations/loaded': {
      if (state.status !== 'loading' || state.requestId !== event.requestId) return state;
      let items = event.conversations.filter((c) => matchesFilter(state.filter, c.status)).sort(byActivity);
      for (const summary of state.early) {
        const loaded = items.find((c) => key(c.id) === key(summary.id));
        if (loaded && Date.parse(loaded.lastAt) > Date.parse(summary.lastAt)) continue;
        items = upsert(state.filter, items, summary);
      }
      return { status: 'ready', filter: state.filter, items };
    }
    case 'conversations/loadFailed':
      if (state.status !== 'loading' || state.requestId !== event.requestId) return state;
      return { status: 'failed', filter: state.filter, code: event.code };
    case 'conversations/conversationChanged':
      if (state.status === 'loading') {
        const early = state.early.filter((c) => key(c.id) !== key(event.conversation.id));
        return { ...state, early: [...early, event.conversation] };
      }
      if (state.status !== 'ready') return state;
      return { ...state, items: upsert(state.filter, state.items, event.conversation) };
    case 'conversations/markedRead':
      if (state.status !== 'ready') return state;
      if (!state.items.some((c) => key(c.id) === key(event.id) && c.unread > 0)) return state;
      return { ...state, items: state.items.map((c) => (key(c.id) === key(event.id) ? { ...c, unread: 0 } : c)) };
    default:
      return state;
  }
}

/** Customer messages no staff member has read, over the conversations listed. */
export function selectTotalUnread(state: ConversationListState): number {
  return state.status === 'ready' ? state.items.reduce((sum, c) => sum + Math.max(0, c.unread), 0) : 0;
}

/** How many conversations have something unread (the nav badge). */
export function selectUnreadConversations(state: ConversationListState): number {
  return state.status === 'ready' ? state.items.filter((c) => c.unread > 0).length : 0;
}
