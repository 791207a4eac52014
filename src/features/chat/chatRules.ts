import type { ChatButton, ChatMessage, UploadKind } from './chatApi';
import type { LocalMedia } from './chatSlice';

/** Spec §9 chat constants. */
export const TEXT_MAX = 2000;
export const NEAR_BOTTOM_PX = 60;
/** Older messages load when the list is scrolled this close to its top. */
export const NEAR_TOP_PX = 60;
export const MARK_READ_DELAY_MS = 1000;
const MB = 1024 * 1024;
export const IMAGE_MAX_MB = 10;
export const VIDEO_MAX_MB = 20;

/** Spec §5 Chat: the extensions an attachment may have, and what each is. */
const EXTENSIONS: Record<string, UploadKind> = { png: 'image', jpeg: 'image', jpg: 'image', gif: 'image', mov: 'video', mp4: 'video' };
export const ATTACH_ACCEPT = Object.keys(EXTENSIONS)
  .map((ext) => `.${ext}`)
  .join(',');

export type AttachmentCheck = { ok: true; kind: UploadKind } | { ok: false; reason: 'unsupported' } | { ok: false; reason: 'tooLarge'; maxMb: number };

/**
 * Spec §5 Chat: an attachment needs an extension among mov, mp4, png, jpeg, jpg and gif; images up to 10 MB,
 * videos up to 20 MB. (The server checks the bytes again.)
 */
export function checkAttachment(file: { name: string; size: number }): AttachmentCheck {
  const dot = file.name.lastIndexOf('.');
  const kind = dot > 0 ? EXTENSIONS[file.name.slice(dot + 1).toLowerCase()] : undefined;
  if (!kind) return { ok: false, reason: 'unsupported' };
  const maxMb = kind === 'image' ? IMAGE_MAX_MB : VIDEO_MAX_MB;
  if (file.size > maxMb * MB) return { ok: false, reason: 'tooLarge', maxMb };
  return { ok: true, kind };
}

/**
 * Spec §5 Chat: the text to send, capped at 2000 characters (UTF-16 units, as the input's maxLength counts;
 * a character is never cut in half); null when there is nothing to send.
 */
export function outgoingText(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return null;
  if (text.length <= TEXT_MAX) return text;
  const last = text.charCodeAt(TEXT_MAX - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? TEXT_MAX - 1 : TEXT_MAX);
}

export interface ScrollBox {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/** Spec §9: within 60 px of the end counts as at the end (new messages then show without a notice). */
export function isNearBottom(box: ScrollBox, threshold = NEAR_BOTTOM_PX): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= threshold;
}

export function isNearTop(box: Pick<ScrollBox, 'scrollTop'>, threshold = NEAR_TOP_PX): boolean {
  return box.scrollTop <= threshold;
}

/**
 * Older messages were put above what the player reads: the scroll position that keeps the same message in
 * the same place (the list grew by the new content's height, all of it above).
 */
export function anchoredScrollTop(before: Pick<ScrollBox, 'scrollTop' | 'scrollHeight'>, scrollHeightAfter: number): number {
  return Math.max(0, before.scrollTop + (scrollHeightAfter - before.scrollHeight));
}

/** What the history list shows, in order. */
export type ChatItem =
  | { kind: 'day'; key: string; at: string }
  | { kind: 'message'; key: string; message: ChatMessage }
  | { kind: 'local'; key: string; media: LocalMedia }
  | { kind: 'end'; key: string };

const dayOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toDateString();
};

/**
 * The list with its markers: a day heading where the (local) day changes, an end-of-conversation marker where
 * the session changes and after the last message when the current session is closed, and local media messages
 * that the server does not hold yet after the messages.
 */
export function chatItems(messages: readonly ChatMessage[], closed: boolean, outbox: readonly LocalMedia[] = []): ChatItem[] {
  const items: ChatItem[] = [];
  let day = '';
  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    if (previous && previous.session_id !== message.session_id) items.push({ kind: 'end', key: `end-${previous._id}` });
    const thisDay = dayOf(message.createdAt);
    if (thisDay !== day) {
      items.push({ kind: 'day', key: `day-${message._id}`, at: message.createdAt });
      day = thisDay;
    }
    items.push({ kind: 'message', key: message._id, message });
  });
  if (closed && messages.length > 0) items.push({ kind: 'end', key: `end-${messages[messages.length - 1]._id}` });
  // The socket may bring a media message before its send is answered: it shows once, as the server's.
  const stored = new Set(messages.flatMap((m) => (m.payload && 'filePath' in m.payload ? [m.payload.filePath] : [])));
  for (const media of outbox) {
    const { machine } = media;
    if (machine.status === 'succeed') continue;
    if (machine.status === 'sending' && stored.has(machine.filePath)) continue;
    items.push({ kind: 'local', key: `local-${media.localId}`, media });
  }
  return items;
}

/** Whether a message's quick replies are offered: only on the newest message (a reply hides them). */
export function offersQuickReplies(messages: readonly ChatMessage[], message: ChatMessage): boolean {
  return message.message_type === 'quick_replies' && messages[messages.length - 1]?._id === message._id;
}

/** The bot's postback that hands the conversation to a person (server/plugins/chat/bot.ts). */
export const TALK_TO_STAFF = 'TALK_TO_STAFF';

/**
 * Whether a message offers "talk to staff" under it: every bot message (issue 40 item 6: a customer stuck on an
 * older answer must not scroll to find the way to a person), except the newest greeting, whose own quick replies
 * already offer it.
 */
export function offersTalkToStaff(messages: readonly ChatMessage[], message: ChatMessage): boolean {
  if (message.sender !== 'other' || message.username !== 'bot') return false;
  return !(offersQuickReplies(messages, message) && buttonsOf(message).some((button) => button.type === 'postback' && button.payload === TALK_TO_STAFF));
}

/** Where a `web` button goes: a same-site path through the router, an https URL in a new tab, nothing else. */
export type WebTarget = { kind: 'internal'; to: string } | { kind: 'external'; href: string };

export function webTarget(payload: string): WebTarget | null {
  const value = payload.trim();
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return { kind: 'internal', to: value };
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? { kind: 'external', href: url.href } : null;
  } catch {
    return null;
  }
}

/** A `call` button's tel: link: digits and a leading + only; null when no number is left. */
export function telHref(payload: string): string | null {
  const trimmed = payload.trim();
  const digits = trimmed.replace(/[^\d]/g, '');
  if (digits === '') return null;
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

/** A picture, video or file the chat may load: same-site paths and https URLs only. */
export function mediaSrc(path: string | null | undefined): string | null {
  if (!path) return null;
  const target = webTarget(path);
  if (!target) return null;
  return target.kind === 'internal' ? target.to : target.href;
}

/** The buttons a message offers, by its type. */
export function buttonsOf(message: ChatMessage): ChatButton[] {
  const payload = message.payload;
  if (!payload) return [];
  if (message.message_type === 'buttons' && 'buttons' in payload) return payload.buttons ?? [];
  if (message.message_type === 'quick_replies' && 'quick_replies' in payload) return payload.quick_replies ?? [];
  return [];
}
