import type { ChatMessage, HistoryPage } from '../types';

/** Messages asked for per page (the contract allows 1..50). */
export const HISTORY_PAGE_SIZE = 20;

export type OlderPage = { status: 'idle' } | { status: 'loading'; requestId: string } | { status: 'failed'; code: string };

/**
 * One conversation's history in the console:
 *
 *   loading --loaded(requestId)--> ready --olderStarted--> ready(older: loading) --olderLoaded--> ready (prepended)
 *           --loadFailed---------> failed                                        --olderFailed--> ready(older: failed)
 *   ready --messageArrived--> ready (appended once, by _id; reopened) ready --closed--> ready(closed)
 *
 * Pages count back from the newest message (`skip` = messages held), so the messages held are always the newest
 * ones, in one run; a live message while the first page loads is kept and merged into the answer. Answers of any
 * request but the current one are ignored.
 */
export type HistoryState =
  | { status: 'loading'; requestId: string; arrived: ChatMessage[] }
  | { status: 'ready'; messages: ChatMessage[]; total: number; closed: boolean; older: OlderPage }
  | { status: 'failed'; code: string };

export type HistoryEvent =
  | { type: 'history/loadStarted'; requestId: string }
  | { type: 'history/loaded'; requestId: string; page: HistoryPage }
  | { type: 'history/loadFailed'; requestId: string; code: string }
  | { type: 'history/olderStarted'; requestId: string }
  | { type: 'history/olderLoaded'; requestId: string; page: HistoryPage }
  | { type: 'history/olderFailed'; requestId: string; code: string }
  /** A live `messaging` event for this conversation, or the console's own reply once the server took it. */
  | { type: 'history/messageArrived'; message: ChatMessage }
  | { type: 'history/closed' };

export const initialHistory = (requestId: string): HistoryState => ({ status: 'loading', requestId, arrived: [] });

/** Oldest first; a message already held (same _id) is not added twice. */
function merge(held: ChatMessage[], incoming: ChatMessage[]): { messages: ChatMessage[]; fresh: ChatMessage[] } {
  const ids = new Set(held.map((m) => m._id));
  const fresh = incoming.filter((m) => !ids.has(m._id) && ids.add(m._id));
  const messages = [...held, ...fresh].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return { messages, fresh };
}

// The contract's `closed`: closed by staff and no message since. A customer writing again or a staff reply
// reopens it (the server starts a new session).
const reopens = (messages: ChatMessage[]) => messages.length > 0;

export function historyReducer(state: HistoryState, event: HistoryEvent): HistoryState {
  switch (event.type) {
    case 'history/loadStarted':
      return { status: 'loading', requestId: event.requestId, arrived: state.status === 'loading' ? state.arrived : [] };
    case 'history/loaded': {
      if (state.status !== 'loading' || state.requestId !== event.requestId) return state;
      const { messages, fresh } = merge(merge([], event.page.messages).messages, state.arrived);
      const closed = event.page.closed && !reopens(fresh);
      return { status: 'ready', messages, total: event.page.total + fresh.length, closed, older: { status: 'idle' } };
    }
    case 'history/loadFailed':
      if (state.status !== 'loading' || state.requestId !== event.requestId) return state;
      return { status: 'failed', code: event.code };
    case 'history/olderStarted':
      if (state.status !== 'ready' || state.older.status === 'loading' || !selectHasOlder(state)) return state;
      return { ...state, older: { status: 'loading', requestId: event.requestId } };
    case 'history/olderLoaded': {
      if (state.status !== 'ready' || state.older.status !== 'loading' || state.older.requestId !== event.requestId) return state;
      const { messages } = merge(state.messages, event.page.messages);
      return { ...state, messages, total: Math.max(event.page.total, messages.length), older: { status: 'idle' } };
    }
    case 'history/olderFailed':
      if (state.status !== 'ready' || state.older.status !== 'loading' || state.older.requestId !== event.requestId) return state;
      return { ...state, older: { status: 'failed', code: event.code } };
    case 'history/messageArrived': {
      if (state.status === 'loading') {
        if (state.arrived.some((m) => m._id === event.message._id)) return state;
        return { ...state, arrived: [...state.arrived, event.message] };
      }
      if (state.status !== 'ready') return state;
      const held = state.messages.findIndex((m) => m._id === event.message._id);
      if (held >= 0) {
        // The server's copy of a reply shown at once: it knows the session the reply went into.
        if (state.messages[held].session_id === event.message.session_id) return state;
        return { ...state, messages: state.messages.map((m, i) => (i === held ? event.message : m)) };
      }
      const { messages, fresh } = merge(state.messages, [event.message]);
      return { ...state, messages, total: state.total + 1, closed: state.closed && !reopens(fresh) };
    }
    case 'history/closed':
      return state.status === 'ready' && !state.closed ? { ...state, closed: true } : state;
    default:
      return state;
  }
}

/** Whether older messages exist on the server than the oldest one held. */
export function selectHasOlder(state: HistoryState): boolean {
  return state.status === 'ready' && state.messages.length < state.total;
}

/** The `skip` of the next older page: every message held is newer than it. */
export function selectOlderSkip(state: HistoryState): number {
  return state.status === 'ready' ? state.messages.length : 0;
}
