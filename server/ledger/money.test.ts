import fc from 'fast-check';
import { formatSatang, parseBaht, toBaht } from './money';

test('parses baht with at most two decimals exactly into satang', () => {
  expect(parseBaht('12.34')).toBe(1234);
  expect(parseBaht(12.34)).toBe(1234);
  expect(parseBaht(0.1)).toBe(10);
  expect(parseBaht(1.005)).toBeNull();
  expect(parseBaht('100')).toBe(10000);
  expect(parseBaht('0.5')).toBe(50);
  expect(parseBaht(19.99)).toBe(1999);
  expect(parseBaht(-1)).toBeNull();
  expect(parseBaht('1e3')).toBeNull();
  expect(parseBaht(1e21)).toBeNull();
  expect(parseBaht('abc')).toBeNull();
  expect(parseBaht(null)).toBeNull();
  expect(parseBaht(Number.NaN)).toBeNull();
});

test('satang -> baht -> satang round-trips for every amount', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 1e13 }), (s) => parseBaht(toBaht(s)) === s));
  fc.assert(fc.property(fc.integer({ min: 0, max: 1e13 }), (s) => parseBaht(JSON.parse(JSON.stringify({ a: toBaht(s) })).a) === s));
});

test('formats satang for reports', () => {
  expect(formatSatang(-1234)).toBe('-12.34');
  expect(formatSatang(5)).toBe('0.05');
});

// Cases first written for the deposit wire (the same parser serves every money-moving route).

test('decimal baht become exact satang, from numbers and strings', () => {
  expect(parseBaht(100)).toBe(10000);
  expect(parseBaht(100.1)).toBe(10010);
  expect(parseBaht(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
  expect(parseBaht('1.005')).toBeNull();
  expect(parseBaht('19.99')).toBe(1999);
  expect(parseBaht(' 2 ')).toBe(200);
  expect(parseBaht('0')).toBe(0);
});

test('anything that is not a non-negative amount with at most 2 decimals is refused', () => {
  for (const bad of [-1, 1.234, NaN, Infinity, 1e21, '1e3', '', 'abc', '01', '1.', '.5', null, undefined, {}, true]) {
    expect(parseBaht(bad)).toBeNull();
  }
});

test('satang round-trip through the wire number and the receipt text', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e12 }), (n) => {
      expect(parseBaht(toBaht(n))).toBe(n);
      expect(parseBaht(formatSatang(n))).toBe(n);
    }),
  );
  expect(formatSatang(10050)).toBe('100.50');
  expect(formatSatang(5)).toBe('0.05');
});
