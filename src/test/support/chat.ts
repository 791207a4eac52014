import type { UnknownAction } from '@reduxjs/toolkit';
import { mutationAction, type Phase } from './rtkActions';
import { http, HttpResponse } from 'msw';

import { server } from './server';
import type { ChatMessage, HistoryPage, SendMessageArgs } from '../../features/chat/chatApi';

/** Test doubles of the chat (docs/chat-wire.md). Not shipped: only tests import it. */

let clock = Date.parse('2026-11-26T03:00:00.000Z');

/** A wire message; ids and times count up unless given. */
export function chatMessage(id: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  clock += 1000;
  return {
    _id: id,
    sender: 'other',
    message: `message ${id}`,
    message_type: 'text',
    payload: null,
    userId: null,
    guestId: 'g_guest',
    username: 'bot',
    name: 'Bot',
    createdAt: new Date(clock).toISOString(),
    session_id: 's1',
    read: false,
    ...extra,
  };
}

/** `count` messages m1..m<count>, a second apart, oldest first. */
export function conversation(count: number, extra: Partial<ChatMessage> = {}): ChatMessage[] {
  const start = Date.parse('2026-11-26T01:00:00.000Z');
  return Array.from({ length: count }, (_, i) => chatMessage(`m${i + 1}`, { createdAt: new Date(start + i * 1000).toISOString(), ...extra }));
}

/** A chat endpoint's own RTK Query action (a mutation), in its documented shape. */
export const endpointAction = (endpointName: string, phase: Phase, requestId: string, originalArgs: unknown, payload?: unknown): UnknownAction =>
  mutationAction(endpointName, phase, requestId, originalArgs, payload);

/** The server's paging (contract): `skip` from the newest, the page before it, oldest first. */
export function pageOf(all: ChatMessage[], skip: number, limit: number, closed = false): HistoryPage {
  const end = Math.max(0, all.length - skip);
  return { total: all.length, messages: all.slice(Math.max(0, end - limit), end), closed, unread: all.filter((m) => m.sender === 'other' && !m.read).length };
}

export interface FakeChat {
  messages: ChatMessage[];
  calls: { history: Record<string, unknown>[]; sent: Record<string, unknown>[]; uploads: Record<string, string>[]; read: Record<string, unknown>[]; guest: number; config: number };
  /** Holds uploads until `release('upload')` (to see the machine in uploading_file). */
  holdUploads(): void;
  /** Holds media sends until `release('send')` (to see the machine in sending). */
  holdMediaSends(): void;
  release(what: 'upload' | 'send'): void;
}

/**
 * A chat server on msw: config, guest ids, history paging, send (the bot answers a first message with quick
 * replies), uploads (multipart), read. `uploadStatus` / `sendMediaStatus` make those refuse.
 */
export function fakeChatServer({
  messages = [] as ChatMessage[],
  prefix = 'chat' as string | null,
  uploadStatus = 200,
  sendMediaStatus = 200,
  closed = false,
} = {}): FakeChat {
  const state: FakeChat = {
    messages: [...messages],
    calls: { history: [], sent: [], uploads: [], read: [], guest: 0, config: 0 },
    holdUploads() {
      held.upload = true;
    },
    holdMediaSends() {
      held.send = true;
    },
    release(what) {
      held[what] = false;
      waiting[what].splice(0).forEach((resolve) => resolve());
    },
  };
  const held = { upload: false, send: false };
  const waiting = { upload: [] as (() => void)[], send: [] as (() => void)[] };
  let next = 100;
  server.use(
    http.get('/api/lookup/enableChatWidget', () => HttpResponse.json({ enableChatWidget: true })),
    http.get('/api/chat/config', () => {
      state.calls.config += 1;
      return HttpResponse.json({ PREFIX: prefix });
    }),
    http.post('/api/chat/guest', () => {
      state.calls.guest += 1;
      return HttpResponse.json({ guestId: `g_new${state.calls.guest}` });
    }),
    http.post('/api/chat/history', async ({ request }) => {
      const body = (await request.json()) as { limit: number; skip: number };
      state.calls.history.push(body);
      return HttpResponse.json(pageOf(state.messages, body.skip, body.limit, closed));
    }),
    http.post('/api/chat/send-message', async ({ request }) => {
      const body = (await request.json()) as SendMessageArgs;
      state.calls.sent.push(body as unknown as Record<string, unknown>);
      if (body.message_type === 'media' && held.send) await new Promise<void>((resolve) => waiting.send.push(resolve));
      if (body.message_type === 'media' && sendMediaStatus !== 200) return HttpResponse.json({ message: 'INVALID_USER_INFO' }, { status: sendMediaStatus });
      next += 1;
      const sent = chatMessage(`sent${next}`, { sender: 'customer', message: body.message, message_type: body.message_type, payload: body.payload ?? null, name: null, read: true });
      state.messages.push(sent);
      if (state.messages.filter((m) => m.sender === 'customer').length === 1) {
        state.messages.push(
          chatMessage(`bot${next}`, {
            message: 'Hello! How can we help?',
            message_type: 'quick_replies',
            payload: {
              quick_replies: [
                { title: 'Deposit help', type: 'postback', payload: 'HELP_DEPOSIT' },
                { title: 'Talk to staff', type: 'postback', payload: 'TALK_TO_STAFF' },
              ],
            },
          }),
        );
      }
      return HttpResponse.json({ _id: sent._id, createdAt: sent.createdAt, session_id: sent.session_id });
    }),
    ...(['image', 'video'] as const).map((kind) =>
      http.post(`/api/chat/upload-${kind}`, async ({ request }) => {
        const form = await request.formData();
        const fields: Record<string, string> = {};
        for (const [key, value] of form.entries()) fields[key] = typeof value === 'string' ? value : `file:${value.name}`;
        fields.order = [...form.keys()].join(',');
        fields.route = kind;
        state.calls.uploads.push(fields);
        if (held.upload) await new Promise<void>((resolve) => waiting.upload.push(resolve));
        if (uploadStatus !== 200) return HttpResponse.json({ message: 'CHAT_FILE_NOT_SUPPORTED' }, { status: uploadStatus });
        return HttpResponse.json({ path: `/api/chat/media/${state.calls.uploads.length}.png` });
      }),
    ),
    http.put('/api/chat/read-customer/', async ({ request }) => {
      state.calls.read.push((await request.json()) as Record<string, unknown>);
      let read = 0;
      for (const m of state.messages) {
        if (m.sender !== 'other' || m.read) continue;
        m.read = true;
        read += 1;
      }
      return HttpResponse.json({ read });
    }),
  );
  return state;
}

type Handler = (...args: unknown[]) => void;

/** A socket.io-client stand-in (for jest.mock('socket.io-client')): the test plays the server. */
export class FakeSocket {
  connected = false;
  active = true;
  emitted: unknown[][] = [];
  private handlers = new Map<string, Handler[]>();
  constructor(
    readonly url: string,
    readonly options: Record<string, unknown>,
  ) {}
  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  off() {
    this.handlers.clear();
    return this;
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
    return this;
  }
  connect() {
    this.active = true;
    return this;
  }
  disconnect() {
    this.connected = false;
    this.active = false;
    return this;
  }
  /** The server accepts the connection. */
  serverConnects() {
    this.connected = true;
    this.fire('connect');
  }
  /** The server sends an event. */
  serverEmits(event: string, data: unknown) {
    this.fire(event, data);
  }
  /** What the socket's auth function gives at this connection. */
  auth(): unknown {
    let data: unknown;
    (this.options.auth as (cb: (d: unknown) => void) => void)((d) => (data = d));
    return data;
  }
  private fire(event: string, ...args: unknown[]) {
    this.handlers.get(event)?.forEach((handler) => handler(...args));
  }
}

export const fakeSocketIo = {
  sockets: [] as FakeSocket[],
  io(url: string, options: Record<string, unknown>) {
    const socket = new FakeSocket(url, options);
    fakeSocketIo.sockets.push(socket);
    return socket;
  },
};
