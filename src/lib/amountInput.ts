/**
 * Amount fields in the player's language (issue 40): one reader and one writer per language, with the marks the
 * display uses (lib/format.ts MARKS, Intl's decimal and group separators: Thai and English 1,030.50, Lao 1.030,50).
 * A field accepts what the app itself writes in that language (grouped or not, with or without decimals) and
 * refuses anything that reads two ways: a Lao '150.50' or a Thai '150,50' is refused, never taken as 15050.
 * Amounts are integer satang here; the wire's baht are satang / 100.
 */
import { MARKS } from './format';
import type { Locale } from './locale';

export type AmountRefusal =
  /** Not an amount at all: letters, a sign, two decimal marks, nothing but marks. */
  | 'invalid'
  /** More than 2 decimals. */
  | 'decimals'
  /** Marks in the wrong roles for this language (a group mark not between thousands, a decimal mark before one). */
  | 'ambiguous';

export type AmountReading = { kind: 'empty' } | { kind: 'amount'; satang: number } | { kind: 'refused'; reason: AmountRefusal };

/** Spaces a phone keyboard or a paste may carry: kept out of the reading (Intl writes some languages' groups so). */
const SPACES = /[\s\u00a0\u202f]/g;

/** The largest amount a field takes: well inside Number's exact integers once in satang. */
const MAX_DIGITS = 13;

/** What the player typed, read in `locale`'s marks. */
export function readAmount(text: string, locale: Locale): AmountReading {
  const clean = text.replace(SPACES, '');
  if (clean === '') return { kind: 'empty' };
  const { group, decimal } = MARKS[locale];
  if (!/^[\d.,]+$/.test(clean) || !/\d/.test(clean)) return { kind: 'refused', reason: 'invalid' };
  const parts = clean.split(decimal);
  if (parts.length > 2) return { kind: 'refused', reason: parts.join('').includes(group) ? 'ambiguous' : 'invalid' };
  const [whole, fraction = ''] = parts;
  // After the decimal mark only digits: a group mark there is the other language's order (1.000,50 in Thai).
  if (fraction.includes(group)) return { kind: 'refused', reason: 'ambiguous' };
  // Group marks only between thousands: '1,5' in Thai or '150.50' in Lao is the other language's decimal.
  if (whole.includes(group) && !new RegExp(`^\\d{1,3}(\\${group}\\d{3})+$`).test(whole)) return { kind: 'refused', reason: 'ambiguous' };
  if (fraction.length > 2) return { kind: 'refused', reason: 'decimals' };
  const digits = whole.split(group).join('');
  if (digits.replace(/^0+/, '').length > MAX_DIGITS) return { kind: 'refused', reason: 'invalid' };
  return { kind: 'amount', satang: Number(digits || '0') * 100 + Number(fraction.padEnd(2, '0')) };
}

/**
 * An amount for a field or a quick pick, as the app writes amounts in `locale`: grouped, with the 2 decimals only
 * when there are satang (1.000 and 1.030,50 in Lao). readAmount reads it back exactly.
 */
export function writeAmount(satang: number, locale: Locale): string {
  const { group, decimal } = MARKS[locale];
  const whole = Math.floor(Math.abs(satang) / 100);
  const cents = Math.abs(satang) % 100;
  const grouped = String(whole).replace(/\B(?=(\d{3})+$)/g, group);
  return `${satang < 0 ? '-' : ''}${grouped}${cents ? decimal + String(cents).padStart(2, '0') : ''}`;
}

/** What an ambiguous amount's message (wallet.ambiguousAmount) names: the language's own 1,030.50 and decimal mark. */
export function amountExample(locale: Locale): { example: string; decimal: string } {
  return { example: writeAmount(103050, locale), decimal: MARKS[locale].decimal };
}

/** A keystroke filter for amount fields: digits, the two marks (so a refusal can explain a wrong one) and spaces. */
export const keepAmountCharacters = (text: string): string => text.replace(/[^\d.,\s]/g, '');
