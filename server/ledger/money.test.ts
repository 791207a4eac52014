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
