import fc from 'fast-check';
import { formatBaht, toBaht, toSatang } from './amount';

test('decimal baht become exact satang, from numbers and strings', () => {
  expect(toSatang(100)).toBe(10000);
  expect(toSatang(100.1)).toBe(10010);
  expect(toSatang(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
  expect(toSatang('1.005')).toBeNull();
  expect(toSatang('19.99')).toBe(1999);
  expect(toSatang(' 2 ')).toBe(200);
  expect(toSatang('0')).toBe(0);
});

test('anything that is not a non-negative amount with at most 2 decimals is refused', () => {
  for (const bad of [-1, 1.234, NaN, Infinity, 1e21, '1e3', '', 'abc', '01', '1.', '.5', null, undefined, {}, true]) {
    expect(toSatang(bad)).toBeNull();
  }
});

test('satang round-trip through the wire number and the receipt text', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e12 }), (n) => {
      expect(toSatang(toBaht(n))).toBe(n);
      expect(toSatang(formatBaht(n))).toBe(n);
    }),
  );
  expect(formatBaht(10050)).toBe('100.50');
  expect(formatBaht(5)).toBe('0.05');
});
