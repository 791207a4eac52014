import moment from 'moment';
import 'moment/locale/th';
import 'moment/locale/lo';

import fc from 'fast-check';

import { formatChatDay } from './chatDay';
import { LOCALES, standardLanguageTag, type Locale } from './locale';
import {
  formatAccountNumber,
  formatAmount,
  formatChatTime,
  formatDateTime,
  formatDateTimeMinutes,
  formatPositiveAmount,
  formatRelativeTime,
  pageCount,
  paginationWindow,
  parseDate,
  relativeTimeParts,
  selectStatementSign,
} from './format';
import { i18n } from '../core/i18n';

describe('formatAmount', () => {
  it.each([
    [0, '0.00'],
    [10, '10.00'],
    [10.5, '10.50'],
    [1234567.891, '1,234,567.891'],
    ['250', '250.00'],
    [-5, '-5.00'],
  ])('shows %p as %p (at least 2 decimals)', (value, shown) => {
    expect(formatAmount(value)).toBe(shown);
  });

  it.each([[undefined], [null], [NaN], ['abc'], [''], [{}], [Infinity]])('shows a dash for %p', (value) => {
    expect(formatAmount(value)).toBe('-');
  });

  it('formats by the language: Thai and Lao (lo) conventions, Latin digits', () => {
    expect(formatAmount(1000, 'th')).toBe('1,000.00');
    expect(formatAmount(1000, 'la')).toBe('1.000,00'); // Lao (lo) groups with dots
  });

  it('writes every amount as Intl.NumberFormat does in each language, without making one', () => {
    const intl = Object.fromEntries(
      LOCALES.map((locale) => [locale, new Intl.NumberFormat(standardLanguageTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 4 })]),
    ) as Record<Locale, Intl.NumberFormat>;
    const made = jest.spyOn(Intl, 'NumberFormat');
    try {
      const same = (n: number) => LOCALES.every((locale) => formatAmount(n, locale) === intl[locale].format(n));
      // Satang amounts (what the wallet holds), any double, and the halves and nines where rounding carries.
      fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (satang) => same(satang / 100)), { numRuns: 2000 });
      fc.assert(fc.property(fc.double({ min: -1e16, max: 1e16, noNaN: true }), same), { numRuns: 3000 });
      fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(0.00005, 0.99995, 0.49995, 0.000049, 0.00015), (whole, part) => same(whole + Math.sign(whole || 1) * part)), { numRuns: 2000 });
      for (const n of [0, -0, 1e-7, -1e-7, 0.00005, -0.00005, 9999.99995, 999999.99999, 1.00005, 0.1 + 0.2, 123456789012.3456, 1e20, 5e-324]) expect([n, same(n)]).toEqual([n, true]);
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });

  it('shows table amounts only above zero', () => {
    expect(formatPositiveAmount(0)).toBe('-');
    expect(formatPositiveAmount(-1)).toBe('-');
    expect(formatPositiveAmount(20)).toBe('20.00');
  });
});

describe('date formats', () => {
  const at = new Date(2024, 1, 3, 4, 5, 6); // 3 Feb 2024 04:05:06 local time, a Saturday

  it('formats date-times as DD/MM/YYYY HH:mm:ss', () => {
    expect(formatDateTime(at)).toBe('03/02/2024 04:05:06');
    expect(formatDateTime(at.toISOString())).toBe('03/02/2024 04:05:06');
    expect(formatDateTime('not a date')).toBe('-');
    expect(formatDateTimeMinutes(at.getTime())).toBe('03/02/2024 04:05');
    expect(formatDateTimeMinutes('2024-13-01')).toBe('-');
  });

  it('formats chat times as HH:mm:ss and days as ddd, DD MMM YYYY in the player language', () => {
    expect(formatChatTime(at)).toBe('04:05:06');
    expect(formatChatDay(at, 'en')).toBe('Sat, 03 Feb 2024');
    expect(formatChatDay(at, 'th')).toBe('เสาร์, 03 ก.พ. 2024');
    expect(formatChatDay(at, 'la')).toBe('ເສົາ, 03 ກຸມພາ 2024');
  });
});

describe('relative time', () => {
  const now = new Date('2024-06-01T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it.each([
    [0, 'second', 0],
    [59, 'second', 59],
    [60, 'minute', 1],
    [3599, 'minute', 59],
    [3600, 'hour', 1],
    [86399, 'hour', 23],
    [86400, 'day', 1],
    [2591999, 'day', 29],
    [2592000, 'month', 1],
    [31535999, 'month', 12],
    [31536000, 'year', 1],
    [3 * 31536000, 'year', 3],
  ])('%p seconds ago is %p x%p', (seconds, unit, count) => {
    expect(relativeTimeParts(ago(seconds), now)).toEqual({ unit, count });
  });

  it('counts a future time as now', () => {
    expect(relativeTimeParts(new Date(now.getTime() + 5000), now)).toEqual({ unit: 'second', count: 0 });
  });

  it('is pluralised and translated with "ago"', async () => {
    const t = i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
    expect(formatRelativeTime(ago(1), t, now)).toBe('1 second ago');
    expect(formatRelativeTime(ago(7200), t, now)).toBe('2 hours ago');
    expect(formatRelativeTime(ago(31536000), t, now)).toBe('1 year ago');
    await i18n.changeLanguage('th');
    expect(formatRelativeTime(ago(7200), i18n.t.bind(i18n) as typeof t, now)).toBe('2 ชั่วโมงที่แล้ว');
    await i18n.changeLanguage('la');
    expect(formatRelativeTime(ago(180), i18n.t.bind(i18n) as typeof t, now)).toBe('3 ນາທີທີ່ຜ່ານມາ');
    expect(formatRelativeTime('nonsense', t, now)).toBe('-');
  });
});

describe('selectStatementSign', () => {
  it.each([
    ['deposit', '+'],
    ['bonus', '+'],
    ['withdraw', '-'],
    ['transfer', ''],
    ['finish_bonus', ''],
    ['anything', ''],
  ])('%s -> %p', (type, sign) => {
    expect(selectStatementSign(type)).toBe(sign);
  });
});

describe('paginationWindow', () => {
  it.each([
    [1, 10, [1, 2]],
    [2, 10, [1, 2, 3]],
    [5, 10, [2, 3, 4, 5, 6]],
    [10, 10, [7, 8, 9, 10]],
    [1, 1, [1]],
    [4, 4, [1, 2, 3, 4]],
    [12, 10, [7, 8, 9, 10]],
    [0, 3, [1, 2]],
    [1, 0, []],
  ])('page %p of %p shows %p', (current, total, pages) => {
    expect(paginationWindow(current, total)).toEqual(pages);
  });

  it('counts pages', () => {
    expect(pageCount(0, 10)).toBe(0);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });
});

describe('formatAccountNumber', () => {
  it.each([
    ['1234567890', '123-456-7890'],
    ['123456789', '123456789'],
    ['12345678901', '12345678901'],
    ['12345abcde', '12345abcde'],
    ['', ''],
    [null, ''],
  ])('%p -> %p', (value, shown) => {
    expect(formatAccountNumber(value)).toBe(shown);
  });
});

describe('parseDate', () => {
  // moment read these before (format.ts used moment(value, moment.ISO_8601)): the same instants, or not a date.
  it.each([
    '2024-02-03T04:05:06.789Z',
    '2024-02-03T04:05:06Z',
    '2024-02-03T04:05:06+07:00',
    '2024-02-03T04:05:06-0330',
    '2024-02-03T04:05:06+07',
    '2024-02-03T04:05:06',
    '2024-02-03 04:05:06.5',
    '2024-02-03T04:05',
    '2024-02-03T04',
    '2024-02-03',
    '2024-02-29',
    '2023-02-29',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '2024-02-03T25:00:00',
    '2024-02-03T04:60:00',
    '03/02/2024',
    'not a date',
    '',
    '2024-02-03T04:05:06Zjunk',
  ])('%s as moment reads it', (text) => {
    const expected = moment(text, moment.ISO_8601);
    const actual = parseDate(text);
    if (expected.isValid()) expect(actual?.getTime()).toBe(expected.valueOf());
    else expect(actual).toBeNull();
  });

  it('takes Date objects and epoch milliseconds as they are', () => {
    const at = new Date(2024, 1, 3, 4, 5, 6);
    expect(parseDate(at)?.getTime()).toBe(at.getTime());
    expect(parseDate(at.getTime())?.getTime()).toBe(at.getTime());
    expect(parseDate(Number.NaN)).toBeNull();
  });
});

