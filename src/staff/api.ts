/**
 * The staff console's API: one typed function per staff route of the chat contract.
 *
 * Plain fetch on purpose. The RTK-Query-only rule (docs/client.md "Talking to the server") is about the player
 * SPA and its one store; the console is a separate small app without Redux, and a dozen lines of fetch keep its
 * bundle free of the player's store and API layer.
 */
import type { ChatButton, ConversationFilter, ConversationSummary, HistoryPage, StaffProfile } from './types';
import { readStaffToken } from './session/token';

/** A refusal in the server's envelope (`{message: CODE}`), or a client code: NETWORK, TIMEOUT, GENERIC. */
export class StaffApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
  ) {
    super(code);
    this.name = 'StaffApiError';
  }
}

/** Codes that mean the staff session is over (expired, revoked, or not a staff token). */
export const SESSION_ENDED_CODES: ReadonlySet<string> = new Set(['invalid-token', 'UNAUTHORIZED', 'EXPIRED_AUTH_TOKEN']);

const TIMEOUT_MS = 30_000;

let sessionEndedListener: (() => void) | null = null;

/** The session provider hears here when any call (except the login itself) answers with an ended session. */
export function onStaffSessionEnded(listener: (() => void) | null): void {
  sessionEndedListener = listener;
}

export async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, { anonymous = false } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = anonymous ? null : readStaffToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let res: Response;
  try {
    // eslint-disable-next-line no-restricted-globals -- the console is not the player SPA (see the file comment)
    res = await fetch(`${window.location.origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: controller.signal });
  } catch {
    throw new StaffApiError(controller.signal.aborted ? 'TIMEOUT' : 'NETWORK', 0);
  } finally {
    clearTimeout(timer);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const code = typeof (data as { message?: unknown } | null)?.message === 'string' ? (data as { message: string }).message : 'GENERIC';
    if (!anonymous && res.status === 401 && SESSION_ENDED_CODES.has(code)) sessionEndedListener?.();
    throw new StaffApiError(code, res.status);
  }
  return data as T;
}

const conversation = (id: string | number) => `/api/staff/conversations/${encodeURIComponent(String(id))}`;

export interface ReplyBody {
  message: string;
  message_type: 'text' | 'quick_replies';
  payload?: { quick_replies: ChatButton[] };
}

export const staffApi = {
  /** Signed in, or (an account with a second factor) a challenge for loginTotp. */
  login: (username: string, password: string) =>
    call<{ token: string; staff: StaffProfile } | { totpRequired: true; challenge: string }>('POST', '/api/staff/login', { username, password }, { anonymous: true }),
  loginTotp: (challenge: string, code: string) =>
    call<{ token: string; staff: StaffProfile }>('POST', '/api/staff/login/totp', { challenge, code }, { anonymous: true }),
  logout: () => call<{ ok: true }>('POST', '/api/staff/logout'),
  me: () => call<StaffProfile>('GET', '/api/staff/me'),
  conversations: (status: ConversationFilter) =>
    call<{ conversations: ConversationSummary[] }>('GET', `/api/staff/conversations?status=${status}`),
  history: (id: string | number, page: { limit: number; skip: number }) => call<HistoryPage>('POST', `${conversation(id)}/history`, page),
  reply: (id: string | number, body: ReplyBody) => call<{ _id: string; createdAt: string }>('POST', `${conversation(id)}/reply`, body),
  close: (id: string | number) => call<{ ok: true }>('POST', `${conversation(id)}/close`),
  markRead: (id: string | number) => call<{ read: number }>('PUT', `${conversation(id)}/read`),
};
