import { createSlice, type PayloadAction, type SerializedError, type UnknownAction } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

import { api } from '../../core/api';
import { errorCode } from '../../core/apiErrors';
import { sessionEnded } from '../../core/authEvents';
import { chatOpened } from '../../core/chatEvents';
import type { RootState } from '../../app/store';
import type {
  ChatMessage,
  HistoryArgs,
  HistoryKind,
  HistoryPage,
  MarkReadArgs,
  MediaPayload,
  SendMessageArgs,
  SentMessage,
  UploadArgs,
  UploadKind,
} from './chatApi';
import { uploadProgressed } from './uploadProgress';

export { chatOpened, uploadProgressed };

/**
 * One local media message (spec §4 Chat): its file goes up first, then the message naming the stored file.
 *
 *   uploading_file --upload answered--> sending --send answered--> succeed
 *   uploading_file --upload refused---> failed (nothing uploaded)
 *   sending        --send refused-----> failed (the upload kept: filePath)
 *   failed --mediaResent--> uploading_file (no filePath) | sending (filePath)
 *   failed --mediaRemoved--> gone
 *
 * `requestId` is null between a transition and the request it asks for; that request's pending action takes
 * the machine (only then), and only its own answer moves it on. Any other event leaves the machine unchanged.
 */
export type MediaMachine =
  | { status: 'uploading_file'; requestId: string | null; loaded: number; total: number }
  | { status: 'sending'; requestId: string | null; filePath: string }
  | { status: 'succeed'; messageId: string }
  | { status: 'failed'; filePath: string | null; code: string };

export interface LocalMedia {
  localId: string;
  fileName: string;
  kind: UploadKind;
  size: number;
  /** When it was picked (ISO): its place among the messages until the server gives it one. */
  createdAt: string;
  machine: MediaMachine;
}

/** The history requests: one at a time, except that a newest-page load takes over from an older-page one. */
export type HistoryLoad =
  | { status: 'idle' }
  | { status: 'loading'; requestId: string; kind: HistoryKind }
  | { status: 'failed'; code: string };

export type SocketStatus = 'off' | 'connecting' | 'connected' | 'disconnected' | 'refused';

export interface ChatState {
  open: boolean;
  /** The widget was opened since the page loaded: its chunk is loaded and it keeps its socket while closed. */
  started: boolean;
  /** Whose conversation `messages` is ('player:<id>' or 'guest:<id>'): another's is never shown. */
  owner: string | null;
  /** Known server messages, unique by _id, oldest first. */
  messages: ChatMessage[];
  /** How many messages the conversation has on the server. */
  total: number;
  /** Staff closed the current session and nothing was said since. */
  closed: boolean;
  loadedOnce: boolean;
  history: HistoryLoad;
  outbox: LocalMedia[];
  socket: SocketStatus;
  /** The history list is scrolled to (near) its end: new messages show without a notice. */
  nearBottom: boolean;
  /** A message arrived while the player was scrolled up. */
  notice: boolean;
  /** Messages from staff or the bot that arrived while the widget was closed (the launcher's badge). */
  unseen: number;
  /** The last message from staff or the bot that arrived live: announced to screen readers. */
  arrival: string | null;
}

export const initialChatState: ChatState = {
  open: false,
  started: false,
  owner: null,
  messages: [],
  total: 0,
  closed: false,
  loadedOnce: false,
  history: { status: 'idle' },
  outbox: [],
  socket: 'off',
  nearBottom: true,
  notice: false,
  unseen: 0,
  arrival: null,
};

const time = (message: { createdAt: string }) => {
  const t = Date.parse(message.createdAt);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * Messages from history pages and socket events as one list: unique by _id (the later copy's fields win, e.g. a
 * read flag), ordered by createdAt (equal times keep their order).
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<string, ChatMessage>();
  for (const message of [...existing, ...incoming]) byId.set(message._id, message);
  const order = new Map<string, number>();
  [...existing, ...incoming].forEach((message, index) => {
    if (!order.has(message._id)) order.set(message._id, index);
  });
  return [...byId.values()].sort((a, b) => time(a) - time(b) || (order.get(a._id) ?? 0) - (order.get(b._id) ?? 0));
}

/**
 * The newest page merged into what is shown. When it shares no message with a longer list and is full, messages
 * were missed in between (a long disconnect): the page replaces the list, and older pages load again on scroll.
 */
export function mergeNewestPage(existing: readonly ChatMessage[], page: HistoryPage, limit: number): ChatMessage[] {
  const known = new Set(existing.map((m) => m._id));
  const overlaps = page.messages.some((m) => known.has(m._id));
  if (existing.length === 0 || overlaps || page.messages.length < limit) return mergeMessages(existing, page.messages);
  return mergeMessages([], page.messages);
}

/** Older pages are still on the server. */
export const hasOlder = (state: Pick<ChatState, 'messages' | 'total'>) => state.messages.length < state.total;

/** The skip of the next older page: every message held is one of the newest (the list has no holes). */
export const olderSkip = (state: Pick<ChatState, 'messages'>) => state.messages.length;

/** Whether a history load of `kind` may start now. */
export function canLoadHistory(state: ChatState, kind: HistoryKind): boolean {
  if (kind !== 'older') return true;
  return state.loadedOnce && state.history.status !== 'loading' && hasOlder(state);
}

/** A message as the socket delivers it; anything else on the event is ignored. */
export function isChatMessage(value: unknown): value is ChatMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<ChatMessage>;
  return (
    typeof m._id === 'string' &&
    (m.sender === 'customer' || m.sender === 'other') &&
    typeof m.message === 'string' &&
    typeof m.message_type === 'string' &&
    typeof m.createdAt === 'string' &&
    typeof m.session_id === 'string'
  );
}

/** The socket's `messaging` event (chat contract). */
export type MessagingEvent = { type: 'message'; message: ChatMessage } | { type: 'end'; session_id: string; at: string };

function withLocal(state: ChatState, localId: string, update: (item: LocalMedia) => MediaMachine | null | undefined) {
  const index = state.outbox.findIndex((item) => item.localId === localId);
  if (index < 0) return;
  const next = update(state.outbox[index]);
  if (next === undefined) return;
  if (next === null) state.outbox.splice(index, 1);
  else state.outbox[index].machine = next;
}

function addMessage(state: ChatState, message: ChatMessage): boolean {
  if (state.messages.some((m) => m._id === message._id)) {
    state.messages = mergeMessages(state.messages, [message]);
    return false;
  }
  state.messages = mergeMessages(state.messages, [message]);
  state.total += 1;
  // A message after the end opens a new session.
  state.closed = false;
  return true;
}


/**
 * The chat endpoints' own request actions (pending, fulfilled, rejected of RTK Query's executeMutation), matched
 * by endpoint name rather than through chatApi's matchers: chatApi then stays in the widget's lazy chunk, out of
 * the first download, while this slice is in the store from the start.
 */
interface RequestMeta<Arg> {
  meta: { requestId: string; arg: { endpointName: string; originalArgs: Arg } };
}
type Pending<Arg> = UnknownAction & RequestMeta<Arg>;
type Fulfilled<Arg, Result> = UnknownAction & RequestMeta<Arg> & { payload: Result };
type Rejected<Arg> = UnknownAction & RequestMeta<Arg> & { payload?: FetchBaseQueryError; error: SerializedError };

function requestOf(endpointName: string, phase: 'pending' | 'fulfilled' | 'rejected') {
  const type = `${api.reducerPath}/executeMutation/${phase}`;
  return (action: UnknownAction) => action.type === type && (action as Partial<RequestMeta<unknown>>).meta?.arg?.endpointName === endpointName;
}
function endpoint<Arg, Result>(endpointName: string) {
  return {
    matchPending: requestOf(endpointName, 'pending') as (action: UnknownAction) => action is Pending<Arg>,
    matchFulfilled: requestOf(endpointName, 'fulfilled') as (action: UnknownAction) => action is Fulfilled<Arg, Result>,
    matchRejected: requestOf(endpointName, 'rejected') as (action: UnknownAction) => action is Rejected<Arg>,
  };
}
const chatRequests = {
  chatHistory: endpoint<HistoryArgs, HistoryPage>('chatHistory'),
  sendChatMessage: endpoint<SendMessageArgs, SentMessage>('sendChatMessage'),
  uploadChatMedia: endpoint<UploadArgs, { path: string }>('uploadChatMedia'),
  markChatRead: endpoint<MarkReadArgs, { read: number }>('markChatRead'),
};

const localArg = (action: { meta: { arg: { originalArgs: { localId?: string } } } }) => action.meta.arg.originalArgs.localId;

/**
 * The chat widget (spec §2, §4 Chat): open or closed, the conversation merged from history pages and socket
 * events, the paging, one media machine per local media message, the socket's state and the new-message notice.
 * Answers are matched by the requestId that asked for them; events a state does not allow are ignored.
 */
const chatSlice = createSlice({
  name: 'chat',
  initialState: initialChatState,
  reducers: {
    chatClosed(state) {
      state.open = false;
    },
    chatToggled(state) {
      state.open = !state.open;
      if (state.open) {
        state.started = true;
        state.unseen = 0;
      }
    },
    /** The widget knows who is chatting: another owner's messages (and local media) go. */
    conversationStarted(state, { payload }: PayloadAction<{ owner: string }>) {
      if (state.owner === payload.owner) return;
      return { ...initialChatState, open: state.open, started: state.started, socket: state.socket, owner: payload.owner };
    },
    socketStatusChanged(state, { payload }: PayloadAction<SocketStatus>) {
      state.socket = payload;
    },
    messagingReceived(state, { payload }: PayloadAction<MessagingEvent>) {
      if (payload.type === 'end') {
        state.closed = true;
        return;
      }
      if (payload.type !== 'message' || !isChatMessage(payload.message)) return;
      const message = payload.message;
      if (!addMessage(state, message)) return;
      if (!state.open) {
        if (message.sender === 'other') state.unseen += 1;
      } else if (!state.nearBottom) {
        state.notice = true;
      }
      if (message.sender === 'other') state.arrival = message._id;
    },
    /** The history list was scrolled: near its end the notice goes. */
    viewerMoved(state, { payload }: PayloadAction<{ nearBottom: boolean }>) {
      state.nearBottom = payload.nearBottom;
      if (payload.nearBottom) state.notice = false;
    },
    mediaQueued(state, { payload }: PayloadAction<Omit<LocalMedia, 'machine'>>) {
      if (state.outbox.some((item) => item.localId === payload.localId)) return;
      state.outbox.push({ ...payload, machine: { status: 'uploading_file', requestId: null, loaded: 0, total: payload.size } });
    },
    /** failed -> uploading_file when nothing was uploaded, sending when the file is stored already. */
    mediaResent(state, { payload }: PayloadAction<{ localId: string }>) {
      withLocal(state, payload.localId, ({ machine, size }) => {
        if (machine.status !== 'failed') return undefined;
        return machine.filePath
          ? { status: 'sending', requestId: null, filePath: machine.filePath }
          : { status: 'uploading_file', requestId: null, loaded: 0, total: size };
      });
    },
    /** Only a failed media message can be removed. */
    mediaRemoved(state, { payload }: PayloadAction<{ localId: string }>) {
      withLocal(state, payload.localId, ({ machine }) => (machine.status === 'failed' ? null : undefined));
    },
  },
  extraReducers: (builder) => {
    builder
      // The next person on this device must not see this conversation.
      .addCase(sessionEnded, () => initialChatState)
      .addCase(chatOpened, (state) => {
        state.open = true;
        state.started = true;
        state.unseen = 0;
      })
      .addCase(uploadProgressed, (state, { payload }) => {
        withLocal(state, payload.localId, ({ machine }) =>
          machine.status === 'uploading_file' && machine.requestId !== null
            ? { ...machine, loaded: Math.min(payload.loaded, payload.total), total: payload.total }
            : undefined,
        );
      })
      // History pages.
      .addMatcher(chatRequests.chatHistory.matchPending, (state, action) => {
        const { kind } = action.meta.arg.originalArgs;
        if (kind === 'older' && !canLoadHistory(state, 'older')) return;
        state.history = { status: 'loading', requestId: action.meta.requestId, kind };
      })
      .addMatcher(chatRequests.chatHistory.matchFulfilled, (state, action) => {
        const load = state.history;
        if (load.status !== 'loading' || load.requestId !== action.meta.requestId) return;
        const page = action.payload;
        const { limit } = action.meta.arg.originalArgs;
        if (load.kind === 'refresh') {
          state.messages = mergeMessages([], page.messages);
          state.outbox = state.outbox.filter((item) => item.machine.status !== 'succeed');
          state.notice = false;
        } else if (load.kind === 'latest') {
          state.messages = mergeNewestPage(state.messages, page, limit);
        } else {
          state.messages = mergeMessages(page.messages, state.messages);
        }
        state.total = Math.max(page.total, state.messages.length);
        state.closed = page.closed;
        state.loadedOnce = true;
        state.history = { status: 'idle' };
      })
      .addMatcher(chatRequests.chatHistory.matchRejected, (state, action) => {
        const load = state.history;
        if (load.status !== 'loading' || load.requestId !== action.meta.requestId) return;
        state.history = { status: 'failed', code: errorCode(action.payload ?? action.error) };
      })
      // Text and postback messages join the list when the server has them.
      .addMatcher(chatRequests.sendChatMessage.matchFulfilled, (state, action) => {
        const args = action.meta.arg.originalArgs;
        if (args.message_type === 'media') return;
        addMessage(state, sentMessage(args, action.payload));
      })
      // Media: the upload...
      .addMatcher(chatRequests.uploadChatMedia.matchPending, (state, action) => {
        withLocal(state, localArg(action) ?? '', ({ machine }) =>
          machine.status === 'uploading_file' && machine.requestId === null ? { ...machine, requestId: action.meta.requestId } : undefined,
        );
      })
      .addMatcher(chatRequests.uploadChatMedia.matchFulfilled, (state, action) => {
        withLocal(state, localArg(action) ?? '', ({ machine }) =>
          machine.status === 'uploading_file' && machine.requestId === action.meta.requestId
            ? { status: 'sending', requestId: null, filePath: action.payload.path }
            : undefined,
        );
      })
      .addMatcher(chatRequests.uploadChatMedia.matchRejected, (state, action) => {
        withLocal(state, localArg(action) ?? '', ({ machine }) =>
          machine.status === 'uploading_file' && machine.requestId === action.meta.requestId
            ? { status: 'failed', filePath: null, code: errorCode(action.payload ?? action.error) }
            : undefined,
        );
      })
      // ...then the message naming the stored file.
      .addMatcher(chatRequests.sendChatMessage.matchPending, (state, action) => {
        withLocal(state, localArg(action) ?? '', ({ machine }) =>
          machine.status === 'sending' && machine.requestId === null ? { ...machine, requestId: action.meta.requestId } : undefined,
        );
      })
      .addMatcher(chatRequests.sendChatMessage.matchFulfilled, (state, action) => {
        const args = action.meta.arg.originalArgs;
        const localId = args.localId;
        if (args.message_type !== 'media' || !localId) return;
        const item = state.outbox.find((entry) => entry.localId === localId);
        if (!item || item.machine.status !== 'sending' || item.machine.requestId !== action.meta.requestId) return;
        item.machine = { status: 'succeed', messageId: action.payload._id };
        addMessage(state, sentMessage(args, action.payload));
      })
      .addMatcher(chatRequests.sendChatMessage.matchRejected, (state, action) => {
        withLocal(state, localArg(action) ?? '', ({ machine }) =>
          machine.status === 'sending' && machine.requestId === action.meta.requestId
            ? { status: 'failed', filePath: machine.filePath, code: errorCode(action.payload ?? action.error) }
            : undefined,
        );
      })
      // Seen messages from staff and the bot are read once the server says so.
      .addMatcher(chatRequests.markChatRead.matchFulfilled, (state, action) => {
        const ids = new Set(action.meta.arg.originalArgs.ids);
        for (const message of state.messages) if (ids.has(message._id)) message.read = true;
      });
  },
});

/** The customer's own message as the server stored it (its answer has the id, time and session). */
function sentMessage(
  args: { message: string; message_type: 'text' | 'postback' | 'media'; payload?: { payload: string } | MediaPayload; userId?: string; guestId?: string; name?: string },
  answer: { _id: string; createdAt: string; session_id: string },
): ChatMessage {
  return {
    _id: answer._id,
    sender: 'customer',
    message: args.message,
    message_type: args.message_type,
    payload: args.payload ?? null,
    userId: args.userId ?? null,
    guestId: args.guestId ?? null,
    username: null,
    name: args.name ?? null,
    createdAt: answer.createdAt,
    session_id: answer.session_id,
    read: true,
  };
}

export const { chatClosed, chatToggled, conversationStarted, socketStatusChanged, messagingReceived, viewerMoved, mediaQueued, mediaResent, mediaRemoved } =
  chatSlice.actions;
export const chatReducer = chatSlice.reducer;

export const selectChat = (state: RootState): ChatState => state.chat;
export const selectChatOpen = (state: RootState) => state.chat.open;
export const selectChatStarted = (state: RootState) => state.chat.started;
export const selectChatUnseen = (state: RootState) => state.chat.unseen;

/** Unread messages from staff or the bot (what mark-as-read sends for). */
export function unreadFromOther(messages: readonly ChatMessage[]): string[] {
  return messages.filter((m) => m.sender === 'other' && !m.read).map((m) => m._id);
}
