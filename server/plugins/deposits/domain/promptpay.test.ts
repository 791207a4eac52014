import fc from 'fast-check';
import { parse } from 'promptparse';
import { anyId as readAnyId } from 'promptparse/validate';
import { DEMO_PROMPTPAY_ID, promptPayIdType, promptPayPayload, qrSvg } from './promptpay';
import { formatSatang } from '../../../ledger/money';

test('the KBANK payload parses back to the operator id and the amount, with a valid CRC', () => {
  const payload = promptPayPayload(DEMO_PROMPTPAY_ID, 10050);
  const qr = parse(payload, true);
  expect(qr).not.toBeNull();
  expect(qr!.validate('63')).toBe(true);
  expect(qr!.getTagValue('54')).toBe('100.50');
  expect(qr!.getTagValue('53')).toBe('764'); // THB
  expect(qr!.getTagValue('01')).toBe('12'); // dynamic: one payment
  expect(readAnyId(payload)).toEqual({ type: 'MSISDN', target: DEMO_PROMPTPAY_ID, amount: 100.5 });
});

test('a corrupted payload fails the CRC', () => {
  const payload = promptPayPayload(DEMO_PROMPTPAY_ID, 10000);
  const tampered = payload.replace('5406100.00', '5406900.00');
  expect(tampered).not.toBe(payload);
  expect(parse(tampered, true)).toBeNull();
});

test('tax ids and e-wallet ids are their own proxy types', () => {
  expect(promptPayIdType('0105555123456')).toBe('NATID');
  expect(promptPayIdType('081-234-5678')).toBe('MSISDN');
  expect(promptPayIdType('123456789012345')).toBe('EWALLETID');
  expect(promptPayIdType('12345')).toBeNull();
  expect(readAnyId(promptPayPayload('0105555123456', 1))).toEqual({ type: 'NATID', target: '0105555123456', amount: 0.01 });
  expect(() => promptPayPayload('12345', 100)).toThrow(/PROMPTPAY_ID/);
});

test('every satang amount is written exactly in tag 54', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 99_999_999_99 }), (n) => {
      const qr = parse(promptPayPayload(DEMO_PROMPTPAY_ID, n), true);
      expect(qr?.getTagValue('54')).toBe(formatSatang(n));
    }),
    { numRuns: 300 },
  );
});

test('zero, negative and fractional satang are refused', () => {
  for (const bad of [0, -100, 1.5]) expect(() => promptPayPayload(DEMO_PROMPTPAY_ID, bad)).toThrow();
});

test('the QR renders as standalone SVG markup', async () => {
  const svg = await qrSvg(promptPayPayload(DEMO_PROMPTPAY_ID, 100));
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*viewBox=/);
  expect(svg).not.toMatch(/<script/i);
});
