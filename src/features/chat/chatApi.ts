import type { UnknownAction } from '@reduxjs/toolkit';
import type { BaseQueryApi, FetchArgs, FetchBaseQueryError, QueryReturnValue } from '@reduxjs/toolkit/query';

import { api, CLIENT_HEADER, CLIENT_MARKER, reportFailure, sessionTokenOf, UPLOAD_TIMEOUT_MS, type ApiExtraOptions } from '../../core/api';
import { classifyError } from '../../core/apiErrors';
import { guestIdRevoked } from '../../core/prefs';
import type { Locale } from '../../lib/locale';
import { uploadProgressed } from './uploadProgress';

import type { ChatMessage, MediaPayload } from '../../../shared/chatWire';

export type {
  ChatButton,
  ChatButtonType,
  ChatMessage,
  ChatMessageType,
  ChatPayload,
  ChatSender,
  GenericElement,
  MediaFileType,
  MediaPayload,
} from '../../../shared/chatWire';

/** Who is chatting, as the bodies carry it: a player's id (with their token) or a guest's server-issued id. */
export interface ChatIdentity {
  userId?: string;
  guestId?: string;
}

/** Which page a history call asks for; the slice merges the answer by it (not sent to the server). */
export type HistoryKind = 'latest' | 'older' | 'refresh';

export interface HistoryArgs extends ChatIdentity {
  kind: HistoryKind;
  limit: number;
  /** Counted from the newest message. */
  skip: number;
}

export interface HistoryPage {
  total: number;
  /** Oldest first. */
  messages: ChatMessage[];
  /** Staff closed the current session and nothing was said since. */
  closed: boolean;
  unread: number;
}

export type OutgoingType = 'text' | 'postback' | 'media';

export interface SendMessageArgs extends ChatIdentity {
  message: string;
  message_type: OutgoingType;
  payload?: { payload: string } | MediaPayload;
  name?: string;
  locale?: Locale;
  /** The local media message this send belongs to (not sent). */
  localId?: string;
}

export interface SentMessage {
  _id: string;
  createdAt: string;
  session_id: string;
}

export type UploadKind = 'image' | 'video';

export interface UploadArgs extends ChatIdentity {
  localId: string;
  kind: UploadKind;
  file: File;
}

export interface MarkReadArgs extends ChatIdentity {
  /** The messages the player has seen; marked read here when the server says so (not sent). */
  ids: string[];
}

/**
 * Spec §8 handling for chat calls. A player is handled as everywhere (a refused token ends the session); a
 * guest refused with UNAUTHORIZED holds a guest id the server no longer accepts (its key changed), which must
 * not send a visitor to /login: the id is dropped so the widget asks for a new one.
 */
function afterFailure(error: FetchBaseQueryError, api: BaseQueryApi, guestId: string | undefined) {
  if (!sessionTokenOf(api.getState()) && classifyError(error).kind === 'reauth') {
    if (guestId) api.dispatch(guestIdRevoked(guestId));
    return;
  }
  reportFailure(error, api.dispatch as (action: UnknownAction) => unknown, CHAT_FAILURES);
}

/** Failures are shown by the widget in place; only `gone` and a refused player token act app-wide. */
const CHAT_FAILURES: ApiExtraOptions = { silent: true };
/** Every chat endpoint: the base query only makes the call (raw), `afterFailure` decides what a failure does. */
const CHAT_CALL: ApiExtraOptions = { raw: true };

type BaseQuery = (args: string | FetchArgs) => MaybePromise<QueryReturnValue<unknown, FetchBaseQueryError, unknown>>;
type MaybePromise<T> = T | PromiseLike<T>;

async function chatCall<T>(
  request: FetchArgs,
  api: BaseQueryApi,
  baseQuery: BaseQuery,
  guestId?: string,
): Promise<QueryReturnValue<T, FetchBaseQueryError, undefined>> {
  return settle<T>(await baseQuery(request), api, guestId);
}

function settle<T>(result: QueryReturnValue<unknown, FetchBaseQueryError, unknown>, api: BaseQueryApi, guestId?: string): QueryReturnValue<T, FetchBaseQueryError, undefined> {
  if (result.error) {
    afterFailure(result.error, api, guestId);
    return { error: result.error };
  }
  return { data: result.data as T };
}

/** The identity fields of a body, without the ones that are not set. */
function identityBody({ userId, guestId }: ChatIdentity): ChatIdentity {
  return { ...(userId ? { userId } : {}), ...(guestId ? { guestId } : {}) };
}

const origin = typeof window !== 'undefined' ? window.location.origin : 'http://localhost';

function parseBody(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if ((xhr.getResponseHeader('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * A multipart POST through XMLHttpRequest, the one browser API that reports upload progress; the base
 * query's headers (token, client marker) and its 5-minute upload timeout. Answers in fetchBaseQuery's shapes.
 */
function postForm(
  url: string,
  form: FormData,
  { token, signal, onProgress }: { token: string | null; signal: AbortSignal; onProgress: (loaded: number, total: number) => void },
): Promise<{ data: unknown } | { error: FetchBaseQueryError }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${origin}${url}`);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader(CLIENT_HEADER, CLIENT_MARKER);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      const data = parseBody(xhr);
      resolve(xhr.status >= 200 && xhr.status < 300 ? { data } : { error: { status: xhr.status, data } });
    };
    xhr.onerror = () => resolve({ error: { status: 'FETCH_ERROR', error: 'network error' } });
    xhr.ontimeout = () => resolve({ error: { status: 'TIMEOUT_ERROR', error: 'timeout' } });
    xhr.onabort = () => resolve({ error: { status: 'FETCH_ERROR', error: 'AbortError' } });
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** Spec §9: history pages hold 10 messages. */
export const HISTORY_PAGE_SIZE = 10;

/**
 * The chat calls of spec §7 (wire: docs/chat-wire.md). Failures are silent: the widget shows what went
 * wrong in place (a failed media message, a line under the input, a retry on the history), and a refused
 * guest id is renewed rather than sending a visitor to /login. History, send and read are mutations: the
 * chat slice keeps the messages (merged from pages and socket events), not the API cache.
 */
export const chatApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The socket's room prefix; null while the operator has chat off (no socket then). */
    getChatConfig: build.query<{ PREFIX: string | null }, void>({
      queryFn: (_arg, api, _extraOptions, baseQuery) => chatCall({ url: '/api/chat/config' }, api, baseQuery),
      extraOptions: CHAT_CALL,
    }),
    /** A new guest id for a visitor (kept in prefs.guestId). */
    createChatGuest: build.mutation<{ guestId: string }, void>({
      queryFn: (_arg, api, _extraOptions, baseQuery) => chatCall({ url: '/api/chat/guest', method: 'POST' }, api, baseQuery),
      extraOptions: CHAT_CALL,
    }),
    /** A player's call may also name the device's guest id: the server then adopts that guest conversation. */
    chatHistory: build.mutation<HistoryPage, HistoryArgs>({
      queryFn: async ({ kind: _kind, limit, skip, ...identity }, api, _extraOptions, baseQuery) => {
        const call = (who: ChatIdentity) => baseQuery({ url: '/api/chat/history', method: 'POST', body: { ...identityBody(who), limit, skip } });
        let result = await call(identity);
        // A guest id the server no longer accepts must not end a player's session: it goes, and the call again without it.
        if (result.error && identity.userId && identity.guestId && sessionTokenOf(api.getState()) && classifyError(result.error).kind === 'reauth') {
          api.dispatch(guestIdRevoked(identity.guestId));
          result = await call({ userId: identity.userId });
        }
        return settle<HistoryPage>(result, api, identity.guestId);
      },
      extraOptions: CHAT_CALL,
    }),
    sendChatMessage: build.mutation<SentMessage, SendMessageArgs>({
      queryFn: ({ localId: _localId, userId, guestId, ...body }, api, _extraOptions, baseQuery) =>
        chatCall(
          { url: '/api/chat/send-message', method: 'POST', body: { ...identityBody({ userId, guestId }), ...body } },
          api,
          baseQuery,
          guestId,
        ),
      extraOptions: CHAT_CALL,
    }),
    /** POST /api/chat/upload-image or /upload-video: the identity fields before `file` (the server streams it). */
    uploadChatMedia: build.mutation<{ path: string }, UploadArgs>({
      queryFn: async ({ localId, kind, file, ...identity }, api) => {
        const form = new FormData();
        const { userId, guestId } = identityBody(identity);
        if (userId) form.append('userId', userId);
        if (guestId) form.append('guestId', guestId);
        form.append('file', file, file.name);
        let percent = -1;
        const result = await postForm(`/api/chat/upload-${kind}`, form, {
          token: sessionTokenOf(api.getState()),
          signal: api.signal,
          onProgress: (loaded, total) => {
            // One event per whole percent is enough for a progress bar.
            const now = total > 0 ? Math.floor((loaded / total) * 100) : 0;
            if (now === percent) return;
            percent = now;
            api.dispatch(uploadProgressed({ localId, loaded, total }));
          },
        });
        if ('error' in result) {
          afterFailure(result.error, api, guestId);
          return { error: result.error };
        }
        const path = (result.data as { path?: unknown } | null)?.path;
        if (typeof path !== 'string') return { error: { status: 'PARSING_ERROR', originalStatus: 200, data: '', error: 'no path' } };
        return { data: { path } };
      },
      extraOptions: { ...CHAT_CALL, upload: true },
    }),
    /** PUT /api/chat/read-customer/: the staff and bot messages are read. */
    markChatRead: build.mutation<{ read: number }, MarkReadArgs>({
      queryFn: ({ ids: _ids, ...identity }, api, _extraOptions, baseQuery) =>
        chatCall(
          { url: '/api/chat/read-customer/', method: 'PUT', body: identityBody(identity) },
          api,
          baseQuery,
          identity.guestId,
        ),
      extraOptions: CHAT_CALL,
    }),
  }),
});

export const { useGetChatConfigQuery } = chatApi;
