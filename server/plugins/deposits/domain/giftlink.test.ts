import AES from 'crypto-js/aes';
import { GIFTLINK_KEY } from '../../../../shared/giftlink-key';
import { decryptGiftLink, encryptGiftLink, giftLinkFor, openGiftLink, voucherIdOf } from './giftlink';

const link = 'https://gift.truemoney.com/campaign/?v=019a2b3c4d5e6f7a8b9cAbCdEf';

test('a voucher link encrypted the way the client does opens to its voucher id', () => {
  const sent = AES.encrypt(link, GIFTLINK_KEY).toString();
  expect(openGiftLink(sent)).toEqual({ ok: true, voucherId: '019a2b3c4d5e6f7a8b9cAbCdEf', link });
  expect(decryptGiftLink(encryptGiftLink(link))).toBe(link);
});

test('a link encrypted with another key, or not encrypted at all, is TRUELINK_INVALID', () => {
  expect(openGiftLink(AES.encrypt(link, 'some-other-key').toString())).toEqual({ ok: false, code: 'TRUELINK_INVALID' });
  expect(openGiftLink(link)).toEqual({ ok: false, code: 'TRUELINK_INVALID' });
  expect(openGiftLink('')).toEqual({ ok: false, code: 'TRUELINK_INVALID' });
  expect(openGiftLink('U2FsdGVkX1' + 'A'.repeat(5000))).toEqual({ ok: false, code: 'TRUELINK_INVALID' });
});

test('only gift-voucher links count', () => {
  expect(voucherIdOf(giftLinkFor('abcDEF123456'))).toBe('abcDEF123456');
  expect(voucherIdOf('https://gift.truemoney.com/campaign?v=abcDEF123456')).toBe('abcDEF123456');
  for (const bad of [
    'http://gift.truemoney.com/campaign/?v=abcDEF123456',
    'https://gift.truemoney.com.evil.example/campaign/?v=abcDEF123456',
    'https://evil.example/campaign/?v=abcDEF123456',
    'https://gift.truemoney.com/other/?v=abcDEF123456',
    'https://gift.truemoney.com/campaign/?v=short',
    'https://gift.truemoney.com/campaign/?v=abc-DEF-123456',
    'https://gift.truemoney.com/campaign/?v=abcDEF123456&v=zzzzzzzzzzzz',
    'https://user:pw@gift.truemoney.com/campaign/?v=abcDEF123456',
    'https://gift.truemoney.com:8443/campaign/?v=abcDEF123456',
    'javascript:alert(1)',
    'not a url',
  ]) {
    expect(voucherIdOf(bad)).toBeNull();
    expect(openGiftLink(encryptGiftLink(bad))).toEqual({ ok: false, code: 'TRUELINK_INVALID' });
  }
});
