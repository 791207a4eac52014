import fc from 'fast-check';

import { amountExample, keepAmountCharacters, readAmount, writeAmount } from './amountInput';
import { formatAmount, MARKS } from './format';
import { LOCALES, standardLanguageTag, type Locale } from './locale';

const satangArb = fc.integer({ min: 0, max: 1_000_000_000 });
const localeArb = fc.constantFrom<Locale>(...LOCALES);

describe('amount marks', () => {
  it.each(LOCALES)("are Intl's decimal and group separators in %s", (locale) => {
    const parts = new Intl.NumberFormat(standardLanguageTag(locale)).formatToParts(1234567.5);
    expect(MARKS[locale]).toEqual({ group: parts.find((p) => p.type === 'group')?.value, decimal: parts.find((p) => p.type === 'decimal')?.value });
  });
});

describe('writeAmount then readAmount', () => {
  it('is the identity in every language on 0..10^9 satang', () => {
    fc.assert(
      fc.property(localeArb, satangArb, (locale, satang) => {
        expect(readAmount(writeAmount(satang, locale), locale)).toEqual({ kind: 'amount', satang });
      }),
    );
  });

  it('reads back what the display writes (formatAmount, 2 decimals) in every language', () => {
    fc.assert(
      fc.property(localeArb, satangArb, (locale, satang) => {
        expect(readAmount(formatAmount(satang / 100, locale), locale)).toEqual({ kind: 'amount', satang });
      }),
    );
  });

  it('reads the amount without group marks too', () => {
    fc.assert(
      fc.property(localeArb, satangArb, (locale, satang) => {
        const plain = writeAmount(satang, locale).split(MARKS[locale].group).join('');
        expect(readAmount(plain, locale)).toEqual({ kind: 'amount', satang });
      }),
    );
  });
});

describe('readAmount refuses', () => {
  /** 1,030.50 written with the marks swapped: what the other kind of language writes. */
  const swapped = (satang: number, locale: Locale) => {
    const { group, decimal } = MARKS[locale];
    return writeAmount(satang, locale).replace(/[.,]/g, (mark) => (mark === group ? decimal : group));
  };

  it('a string with both marks in the wrong roles, in every language', () => {
    fc.assert(
      // At least 1,000.01: both a group and a decimal mark are written.
      fc.property(localeArb, fc.integer({ min: 100_000, max: 1_000_000_000 }).filter((s) => s % 100 !== 0), (locale, satang) => {
        expect(readAmount(swapped(satang, locale), locale)).toEqual({ kind: 'refused', reason: 'ambiguous' });
      }),
    );
  });

  it('the other languages\' decimal mark before 1 or 2 digits (never read 100 times too high)', () => {
    fc.assert(
      fc.property(localeArb, fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 99 }), fc.boolean(), (locale, whole, cents, two) => {
        const other = MARKS[locale].group;
        const text = `${whole}${other}${two ? String(cents).padStart(2, '0') : String(cents % 10)}`;
        expect(readAmount(text, locale)).toEqual({ kind: 'refused', reason: 'ambiguous' });
      }),
    );
  });

  it.each<[Locale, string]>([
    ['la', '150.50'],
    ['la', '1,000.50'],
    ['la', '1.5'],
    ['th', '150,50'],
    ['th', '1.000,50'],
    ['en', '1,5'],
    ['th', ',100'],
    ['th', '1,0000'],
  ])('%s %p as ambiguous', (locale, text) => {
    expect(readAmount(text, locale)).toEqual({ kind: 'refused', reason: 'ambiguous' });
  });

  it.each<[Locale, string, string]>([
    ['th', '1.234', 'decimals'],
    ['la', '1,234', 'decimals'],
    ['th', '-5', 'invalid'],
    ['th', 'abc', 'invalid'],
    ['th', '.', 'invalid'],
    ['th', '1..5', 'invalid'],
    ['la', '1,,5', 'invalid'],
    ['en', '99999999999999', 'invalid'],
  ])('%s %p (%s)', (locale, text, reason) => {
    expect(readAmount(text, locale)).toEqual({ kind: 'refused', reason });
  });
});

describe('readAmount reads', () => {
  it.each<[Locale, string, number]>([
    ['la', '150,50', 15050],
    ['la', '1.000', 100000],
    ['la', '1.030,00', 103000],
    ['la', ',5', 50],
    ['la', '1,', 100],
    ['th', '150.50', 15050],
    ['th', '1,000', 100000],
    ['th', '.5', 50],
    ['en', ' 1 000.5 ', 100050],
    ['th', '0', 0],
  ])('%s %p as %p satang', (locale, text, satang) => {
    expect(readAmount(text, locale)).toEqual({ kind: 'amount', satang });
  });

  it('says empty for nothing or spaces', () => {
    expect(readAmount('', 'la')).toEqual({ kind: 'empty' });
    expect(readAmount('  ', 'th')).toEqual({ kind: 'empty' });
  });
});

describe('writeAmount', () => {
  it.each<[Locale, number, string]>([
    ['la', 103050, '1.030,50'],
    ['la', 100000, '1.000'],
    ['th', 103050, '1,030.50'],
    ['en', 5, '0.05'],
    ['th', 0, '0'],
  ])('%s %p satang as %p', (locale, satang, text) => {
    expect(writeAmount(satang, locale)).toBe(text);
  });
});

describe('amountExample', () => {
  it("is the language's own 1,030.50 and decimal mark", () => {
    expect(amountExample('la')).toEqual({ example: '1.030,50', decimal: ',' });
    expect(amountExample('th')).toEqual({ example: '1,030.50', decimal: '.' });
  });
});

describe('keepAmountCharacters', () => {
  it('keeps digits, marks and spaces only', () => {
    expect(keepAmountCharacters('1a.0-0,5 ฿')).toBe('1.00,5 ');
  });
});
