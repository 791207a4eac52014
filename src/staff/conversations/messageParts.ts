import type { ChatButton, ChatMessage } from '../types';

/**
 * What the console shows for a message, per message_type of the contract, decided here so the view only lays it
 * out. Links are only https:// URLs or same-site paths and phone buttons only phone numbers: a message is
 * customer- or bot-supplied content, and nothing in it may become a javascript: or data: link in a staff
 * member's browser. A payload that does not have the shape its type promises is shown as its text.
 */
export type ButtonAction =
  | { kind: 'link'; href: string; external: boolean }
  | { kind: 'call'; href: string; number: string }
  | { kind: 'postback'; payload: string }
  | { kind: 'none' };

export interface ButtonView {
  title: string;
  action: ButtonAction;
}

export interface CardView {
  title: string;
  subtitle: string | null;
  imageUrl: string | null;
  buttons: ButtonView[];
}

export type MediaKind = 'image' | 'video' | 'file';

export type MessageView =
  | { kind: 'text'; text: string }
  | { kind: 'buttons'; text: string; buttons: ButtonView[] }
  | { kind: 'media'; text: string; fileType: MediaKind; url: string | null }
  | { kind: 'quick_replies'; text: string; replies: ButtonView[] }
  | { kind: 'generic'; text: string; cards: CardView[] }
  | { kind: 'postback'; title: string; payload: string | null };

/** An https:// URL or a same-site path (`/user/home`, `/api/chat/media/x.png`), normalised; anything else null. */
export function safeUrl(value: unknown): { href: string; external: boolean } | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  if (v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\')) return { href: v, external: false };
  try {
    const url = new URL(v);
    return url.protocol === 'https:' ? { href: url.href, external: true } : null;
  } catch {
    return null;
  }
}

/** A dialable number (digits, optional leading +, spaces, dashes, dots, brackets) as a tel: link. */
export function telHref(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\+?[\d\s().-]{3,20}$/.test(value.trim())) return null;
  const digits = value.trim().replace(/[^\d+]/g, '');
  return /\d{3,}/.test(digits) ? `tel:${digits}` : null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function buttonView(button: ChatButton): ButtonView {
  const title = text(button.title);
  switch (button.type) {
    case 'web': {
      const url = safeUrl(button.payload);
      return { title, action: url ? { kind: 'link', ...url } : { kind: 'none' } };
    }
    case 'call': {
      const href = telHref(button.payload);
      return { title, action: href ? { kind: 'call', href, number: button.payload.trim() } : { kind: 'none' } };
    }
    case 'postback':
      return { title, action: { kind: 'postback', payload: text(button.payload) } };
    default:
      return { title, action: { kind: 'none' } };
  }
}

function buttonsOf(value: unknown): ButtonView[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isObject).map((b) => buttonView(b as unknown as ChatButton));
}

const MEDIA_KINDS: readonly string[] = ['image', 'video', 'file'];

export function messageView(message: ChatMessage): MessageView {
  const body = text(message.message);
  const payload: unknown = message.payload;
  switch (message.message_type) {
    case 'buttons': {
      const buttons = isObject(payload) ? buttonsOf(payload.buttons) : null;
      return buttons ? { kind: 'buttons', text: body, buttons } : { kind: 'text', text: body };
    }
    case 'quick_replies': {
      const replies = isObject(payload) ? buttonsOf(payload.quick_replies) : null;
      return replies ? { kind: 'quick_replies', text: body, replies } : { kind: 'text', text: body };
    }
    case 'media': {
      if (!isObject(payload)) return { kind: 'text', text: body };
      const fileType = (MEDIA_KINDS.includes(text(payload.fileType)) ? payload.fileType : 'file') as MediaKind;
      const caption = body || text(payload.message);
      return { kind: 'media', text: caption, fileType, url: safeUrl(payload.filePath)?.href ?? null };
    }
    case 'generic': {
      if (!isObject(payload) || !Array.isArray(payload.elements)) return { kind: 'text', text: body };
      const cards = payload.elements.filter(isObject).map((e) => ({
        title: text(e.title),
        subtitle: typeof e.subtitle === 'string' && e.subtitle ? e.subtitle : null,
        imageUrl: safeUrl(e.image_url)?.href ?? null,
        buttons: buttonsOf(e.buttons) ?? [],
      }));
      return { kind: 'generic', text: body, cards };
    }
    case 'postback':
      return { kind: 'postback', title: body, payload: isObject(payload) && typeof payload.payload === 'string' ? payload.payload : null };
    default:
      return { kind: 'text', text: body };
  }
}

/** A one-line plain-text form of a message (list previews, screen-reader announcements). */
export function messagePreview(view: MessageView, words: { image: string; video: string; file: string }): string {
  switch (view.kind) {
    case 'media':
      return view.text ? `[${words[view.fileType]}] ${view.text}` : `[${words[view.fileType]}]`;
    case 'postback':
      return view.title;
    case 'buttons':
    case 'quick_replies':
    case 'generic': {
      const titles = view.kind === 'buttons' ? view.buttons : view.kind === 'quick_replies' ? view.replies : view.cards;
      return [view.text, ...titles.map((b) => `[${b.title}]`)].filter(Boolean).join(' ');
    }
    default:
      return view.text;
  }
}
