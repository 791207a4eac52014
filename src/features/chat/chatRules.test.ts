import { formatChatDay } from '../../lib/chatDay';
import { formatChatTime } from '../../lib/format';
import type { LocalMedia } from './chatSlice';
import {
  anchoredScrollTop,
  chatItems,
  checkAttachment,
  isNearBottom,
  isNearTop,
  mediaSrc,
  offersQuickReplies,
  outgoingText,
  telHref,
  webTarget,
} from './chatRules';
import { chatMessage } from '../../test/support/chat';

const MB = 1024 * 1024;

describe('attachments (spec §5 Chat)', () => {
  it.each(['cat.png', 'cat.PNG', 'a.b.jpeg', 'photo.jpg', 'anim.gif'])('accepts the image %s up to 10 MB', (name) => {
    expect(checkAttachment({ name, size: 10 * MB })).toEqual({ ok: true, kind: 'image' });
    expect(checkAttachment({ name, size: 10 * MB + 1 })).toEqual({ ok: false, reason: 'tooLarge', maxMb: 10 });
  });

  it.each(['clip.mp4', 'clip.MOV'])('accepts the video %s up to 20 MB', (name) => {
    expect(checkAttachment({ name, size: 20 * MB })).toEqual({ ok: true, kind: 'video' });
    expect(checkAttachment({ name, size: 20 * MB + 1 })).toEqual({ ok: false, reason: 'tooLarge', maxMb: 20 });
  });

  it.each(['notes.pdf', 'movie.avi', 'image.webp', 'noextension', 'png', '.png', 'cat.png.exe', 'cat.'])('refuses %s as not supported', (name) => {
    expect(checkAttachment({ name, size: 100 })).toEqual({ ok: false, reason: 'unsupported' });
  });
});

describe('text (spec §5 Chat)', () => {
  it('ignores empty and blank text', () => {
    expect(outgoingText('')).toBeNull();
    expect(outgoingText('   \n\t ')).toBeNull();
  });

  it('trims and caps at 2000 characters', () => {
    expect(outgoingText('  hi  ')).toBe('hi');
    expect(outgoingText('a'.repeat(2000))).toHaveLength(2000);
    expect(outgoingText('a'.repeat(2500))).toBe('a'.repeat(2000));
  });

  it('never cuts a character in half at the cap', () => {
    const text = `${'a'.repeat(1999)}😀`;
    expect(outgoingText(text)).toBe('a'.repeat(1999));
  });
});

describe('scrolling', () => {
  it('near the bottom means within 60 px of the end (spec §9)', () => {
    expect(isNearBottom({ scrollTop: 440, scrollHeight: 1000, clientHeight: 500 })).toBe(true); // 60 px left
    expect(isNearBottom({ scrollTop: 439, scrollHeight: 1000, clientHeight: 500 })).toBe(false); // 61 px left
    expect(isNearBottom({ scrollTop: 0, scrollHeight: 300, clientHeight: 500 })).toBe(true); // nothing to scroll
  });

  it('near the top loads older messages', () => {
    expect(isNearTop({ scrollTop: 60 })).toBe(true);
    expect(isNearTop({ scrollTop: 61 })).toBe(false);
  });

  it('keeps the message the player reads in place when older ones are put above it', () => {
    // Reading at 30 px from the top; 800 px of older messages arrive above.
    expect(anchoredScrollTop({ scrollTop: 30, scrollHeight: 1000 }, 1800)).toBe(830);
    expect(anchoredScrollTop({ scrollTop: 0, scrollHeight: 1000 }, 1000)).toBe(0);
  });
});

describe('the list with its markers', () => {
  const kinds = (items: ReturnType<typeof chatItems>) => items.map((i) => (i.kind === 'message' ? i.message._id : i.kind === 'local' ? `local:${i.media.localId}` : i.kind));

  it('puts an end-of-conversation marker where the session changes and a day heading where the day changes', () => {
    const messages = [
      chatMessage('a', { createdAt: '2026-11-25T10:00:00', session_id: 's1' }),
      chatMessage('b', { createdAt: '2026-11-25T10:05:00', session_id: 's1' }),
      chatMessage('c', { createdAt: '2026-11-25T11:00:00', session_id: 's2' }),
      chatMessage('d', { createdAt: '2026-11-26T09:00:00', session_id: 's2' }),
    ];
    expect(kinds(chatItems(messages, false))).toEqual(['day', 'a', 'b', 'end', 'c', 'day', 'd']);
  });

  it('ends with a marker when the current session is closed, not before any message', () => {
    const messages = [chatMessage('a', { createdAt: '2026-11-25T10:00:00' })];
    expect(kinds(chatItems(messages, true))).toEqual(['day', 'a', 'end']);
    expect(kinds(chatItems([], true))).toEqual([]);
  });

  it('shows local media messages after the messages until the server holds them', () => {
    const base = { fileName: 'cat.png', kind: 'image' as const, size: 10, createdAt: '2026-11-26T10:00:00' };
    const outbox: LocalMedia[] = [
      { ...base, localId: 'up', machine: { status: 'uploading_file', requestId: 'r', loaded: 1, total: 10 } },
      { ...base, localId: 'done', machine: { status: 'succeed', messageId: 'm' } },
      { ...base, localId: 'echoed', machine: { status: 'sending', requestId: 'r2', filePath: '/api/chat/media/e.png' } },
      { ...base, localId: 'bad', machine: { status: 'failed', filePath: null, code: 'NETWORK' } },
    ];
    const echo = chatMessage('e', {
      sender: 'customer',
      message_type: 'media',
      createdAt: '2026-11-26T10:00:00',
      payload: { message: 'cat.png', url: true, fileType: 'image', filePath: '/api/chat/media/e.png' },
    });
    expect(kinds(chatItems([echo], false, outbox))).toEqual(['day', 'e', 'local:up', 'local:bad']);
  });

  it('offers quick replies on the newest message only', () => {
    const qr = chatMessage('q', { message_type: 'quick_replies', payload: { quick_replies: [] } });
    const later = chatMessage('r', { sender: 'customer' });
    expect(offersQuickReplies([qr], qr)).toBe(true);
    expect(offersQuickReplies([qr, later], qr)).toBe(false);
  });
});

describe('button and media targets', () => {
  it('opens same-site paths in the app and https URLs in a new tab; nothing else', () => {
    expect(webTarget('/user/home')).toEqual({ kind: 'internal', to: '/user/home' });
    expect(webTarget(' /howto ')).toEqual({ kind: 'internal', to: '/howto' });
    expect(webTarget('https://example.com/a?b=1')).toEqual({ kind: 'external', href: 'https://example.com/a?b=1' });
    for (const bad of ['//evil.example', '/\\evil.example', 'http://example.com', 'javascript:alert(1)', 'data:text/html,x', 'user/home', '']) {
      expect([bad, webTarget(bad)]).toEqual([bad, null]);
    }
  });

  it('dials numbers only', () => {
    expect(telHref('02-123 4567')).toBe('tel:021234567');
    expect(telHref('+66 81 234 5678')).toBe('tel:+66812345678');
    expect(telHref('call us')).toBeNull();
  });

  it('loads media from the site or https only', () => {
    expect(mediaSrc('/api/chat/media/a.png')).toBe('/api/chat/media/a.png');
    expect(mediaSrc('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(mediaSrc('javascript:alert(1)')).toBeNull();
    expect(mediaSrc(null)).toBeNull();
  });
});

describe('chat times (spec §9)', () => {
  it('formats HH:mm:ss and ddd, DD MMM YYYY in the app\'s language', () => {
    const at = new Date(2026, 10, 26, 9, 5, 7);
    expect(formatChatTime(at.toISOString())).toBe('09:05:07');
    expect(formatChatDay(at.toISOString(), 'en')).toBe('Thu, 26 Nov 2026');
    expect(formatChatDay(at.toISOString(), 'th')).toBe('พฤหัส, 26 พ.ย. 2026');
  });
});
