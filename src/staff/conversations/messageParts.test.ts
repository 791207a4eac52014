import { message } from '../../test/support/staff';
import type { ChatMessage } from '../types';
import { messagePreview, messageView, safeUrl, telHref } from './messageParts';
import { customerFromMessages, customerOf, senderOf } from './participants';

const words = { image: 'Image', video: 'Video', file: 'File' };
const of = (over: Partial<ChatMessage>) => messageView(message('x', over));

describe('message rendering per type', () => {
  it('text', () => {
    expect(of({ message: 'hello\nthere' })).toEqual({ kind: 'text', text: 'hello\nthere' });
  });

  it('buttons: web links (https or same-site), calls, postbacks; anything else is not a link', () => {
    const view = of({
      message: 'Deposit help',
      message_type: 'buttons',
      payload: {
        buttons: [
          { title: 'Deposit', type: 'web', payload: '/user/home' },
          { title: 'Guide', type: 'web', payload: 'https://help.example.com/deposit' },
          { title: 'Evil', type: 'web', payload: 'javascript:alert(1)' },
          { title: 'Call us', type: 'call', payload: '+66 2-123-4567' },
          { title: 'Bad call', type: 'call', payload: 'tel:123;x' },
          { title: 'Talk to staff', type: 'postback', payload: 'TALK_TO_STAFF' },
          { title: 'Other', type: 'other', payload: 'x' },
        ],
      },
    });
    expect(view).toEqual({
      kind: 'buttons',
      text: 'Deposit help',
      buttons: [
        { title: 'Deposit', action: { kind: 'link', href: '/user/home', external: false } },
        { title: 'Guide', action: { kind: 'link', href: 'https://help.example.com/deposit', external: true } },
        { title: 'Evil', action: { kind: 'none' } },
        { title: 'Call us', action: { kind: 'call', href: 'tel:+6621234567', number: '+66 2-123-4567' } },
        { title: 'Bad call', action: { kind: 'none' } },
        { title: 'Talk to staff', action: { kind: 'postback', payload: 'TALK_TO_STAFF' } },
        { title: 'Other', action: { kind: 'none' } },
      ],
    });
    expect(messagePreview(view, words)).toBe('Deposit help [Deposit] [Guide] [Evil] [Call us] [Bad call] [Talk to staff] [Other]');
  });

  it('media: image, video and file with their same-site URL; a foreign or scripted URL is not shown', () => {
    const media = (fileType: 'image' | 'video' | 'file', filePath: string, text = '') =>
      of({ message: text, message_type: 'media', payload: { message: '', url: true, fileType, filePath } });
    expect(media('image', '/api/chat/media/abc.png')).toEqual({ kind: 'media', text: '', fileType: 'image', url: '/api/chat/media/abc.png' });
    expect(media('video', '/api/chat/media/abc.mp4', 'my slip')).toEqual({ kind: 'media', text: 'my slip', fileType: 'video', url: '/api/chat/media/abc.mp4' });
    expect(media('file', 'data:text/html,<script>x</script>')).toMatchObject({ fileType: 'file', url: null });
    expect(media('image', '//evil.example/x.png')).toMatchObject({ url: null });
    expect(media('image', 'http://plain.example/x.png')).toMatchObject({ url: null });
    expect(messagePreview(media('image', '/api/chat/media/abc.png'), words)).toBe('[Image]');
    expect(messagePreview(media('video', '/a.mp4', 'my slip'), words)).toBe('[Video] my slip');
  });

  it('quick replies: the offered postbacks', () => {
    const view = of({
      message: 'How can we help?',
      message_type: 'quick_replies',
      payload: { quick_replies: [{ title: 'Deposit', type: 'postback', payload: 'HELP_DEPOSIT' }] },
    });
    expect(view).toEqual({ kind: 'quick_replies', text: 'How can we help?', replies: [{ title: 'Deposit', action: { kind: 'postback', payload: 'HELP_DEPOSIT' } }] });
    expect(messagePreview(view, words)).toBe('How can we help? [Deposit]');
  });

  it('generic cards: image, title, subtitle, buttons', () => {
    const view = of({
      message: '',
      message_type: 'generic',
      payload: {
        elements: [
          { image_url: '/media/howto/wallet.jpg', title: 'How to deposit', subtitle: 'Two minutes', buttons: [{ title: 'Watch', type: 'web', payload: '/howto' }] },
          { image_url: null, title: 'Bonus', subtitle: null, buttons: [] },
        ],
      },
    });
    expect(view).toEqual({
      kind: 'generic',
      text: '',
      cards: [
        { title: 'How to deposit', subtitle: 'Two minutes', imageUrl: '/media/howto/wallet.jpg', buttons: [{ title: 'Watch', action: { kind: 'link', href: '/howto', external: false } }] },
        { title: 'Bonus', subtitle: null, imageUrl: null, buttons: [] },
      ],
    });
    expect(messagePreview(view, words)).toBe('[How to deposit] [Bonus]');
  });

  it('postback: what the customer tapped, and its code', () => {
    expect(of({ message: 'Deposit', message_type: 'postback', payload: { payload: 'HELP_DEPOSIT' } })).toEqual({ kind: 'postback', title: 'Deposit', payload: 'HELP_DEPOSIT' });
    expect(of({ message: 'Deposit', message_type: 'postback', payload: null })).toEqual({ kind: 'postback', title: 'Deposit', payload: null });
  });

  it('a payload without the promised shape is shown as its text', () => {
    expect(of({ message: 'hi', message_type: 'buttons', payload: null })).toEqual({ kind: 'text', text: 'hi' });
    expect(of({ message: 'hi', message_type: 'quick_replies', payload: { payload: 'x' } })).toEqual({ kind: 'text', text: 'hi' });
    expect(of({ message: 'hi', message_type: 'generic', payload: null })).toEqual({ kind: 'text', text: 'hi' });
    expect(of({ message: 'hi', message_type: 'media', payload: null })).toEqual({ kind: 'text', text: 'hi' });
    expect(of({ message: 'hi', message_type: 'unknown' as ChatMessage['message_type'] })).toEqual({ kind: 'text', text: 'hi' });
  });
});

describe('links and phone numbers', () => {
  it.each([
    ['/user/home', '/user/home'],
    [' https://a.example/x?y=1 ', 'https://a.example/x?y=1'],
    ['https://a.example', 'https://a.example/'],
  ])('%s is a link to %s', (input, href) => expect(safeUrl(input)?.href).toBe(href));

  it.each(['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'http://a.example', '//a.example', '/\\a.example', 'vbscript:x', 'ftp://a', '', 42, null])(
    '%p is not a link',
    (input) => expect(safeUrl(input)).toBeNull(),
  );

  it('telephone numbers only', () => {
    expect(telHref('1234')).toBe('tel:1234');
    expect(telHref('(02) 123 4567')).toBe('tel:021234567');
    expect(telHref('call me')).toBeNull();
    expect(telHref('12')).toBeNull();
    expect(telHref('+66;ext=1')).toBeNull();
  });
});

describe('who is who', () => {
  it('a player by id and name, a guest as a guest (the guest id is a secret and never shown)', () => {
    expect(customerOf({ userId: '42', name: 'Somchai' })).toEqual({ kind: 'player', id: '42', name: 'Somchai' });
    expect(customerOf({ userId: '42', name: '  ' })).toEqual({ kind: 'player', id: '42', name: null });
    expect(customerOf({ userId: null, name: 'Visitor' })).toEqual({ kind: 'guest' });
  });

  it('the customer of a deep-linked conversation is read from its messages', () => {
    expect(customerFromMessages([message('1', { sender: 'other', userId: null }), message('2', { userId: '7', name: 'Noy' })])).toEqual({ userId: '7', name: 'Noy' });
    expect(customerFromMessages([message('1', { userId: null, guestId: 'g_x', name: null })])).toEqual({ userId: null, name: null });
  });

  it('bot messages carry username bot; other replies are staff', () => {
    expect(senderOf({ sender: 'customer', username: null, name: 'Somchai' })).toEqual({ kind: 'customer' });
    expect(senderOf({ sender: 'other', username: 'bot', name: 'Helper' })).toEqual({ kind: 'bot', name: 'Helper' });
    expect(senderOf({ sender: 'other', username: 'nok', name: null })).toEqual({ kind: 'staff', name: 'nok' });
  });
});
