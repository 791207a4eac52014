/**
 * Display formats of spec §9 as pure functions. No moment here: the home page formats amounts and a date, and
 * moment (~20 KB gzip with its Thai locale) was on that page's critical path for that date alone. Day and month
 * names, which need moment's locales, are in lib/chatDay.ts.
 */
import { standardLanguageTag, type Locale } from './locale';

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * How each language writes an amount, as its Intl.NumberFormat does (Thai and English 1,234.50; Lao 1.234,50).
 * Amounts are written here rather than by Intl.NumberFormat: making the first formatter of a language loads its
 * number data, one task of 13-19 ms on this machine kind (Lighthouse's 4x phone: 50-75 ms, blocking time on the
 * home page), whenever it is made. format.test.ts checks this against Intl.NumberFormat for every language.
 */
export const MARKS: Readonly<Record<Locale, { readonly group: string; readonly decimal: string }>> = {
  th: { group: ',', decimal: '.' },
  la: { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/** Beyond this JavaScript writes numbers with an exponent; Intl.NumberFormat writes them (no amount is this big). */
const PLAIN_LIMIT = 1e21;

/**
 * |n| rounded to 4 decimals as Intl.NumberFormat rounds: from the shortest decimal that reads back as n (what
 * String(n) writes), half away from zero. Returns the integer digits and the decimals, trailing zeros kept.
 */
function roundedDigits(n: number): [string, string] {
  const text = String(Math.abs(n));
  // Below 1e-6 String writes an exponent; every such amount rounds to 0.0000.
  if (text.includes('e')) return ['0', '0000'];
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length <= 4) return [whole, fraction.padEnd(4, '0')];
  const kept = whole + fraction.slice(0, 4);
  if (fraction[4] < '5') return [whole, fraction.slice(0, 4)];
  // Round up: add one to the last kept digit, carrying.
  const digits = kept.split('');
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') digits[i--] = '0';
  if (i >= 0) digits[i] = String(Number(digits[i]) + 1);
  else digits.unshift('1');
  const all = digits.join('');
  return [all.slice(0, all.length - 4), all.slice(-4)];
}

/** An amount with at least 2 decimals (more when the value has them, up to 4), or '-' when not a number. */
export function formatAmount(value: unknown, locale: Locale = 'en'): string {
  const n = toNumber(value);
  if (n === null) return '-';
  if (Math.abs(n) >= PLAIN_LIMIT) return new Intl.NumberFormat(standardLanguageTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(n);
  const { group, decimal } = MARKS[locale];
  const [whole, fraction] = roundedDigits(n);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, group);
  const decimals = fraction.replace(/0{1,2}$/, '');
  // Intl writes the sign of every negative amount, -0 and those that round to 0 included.
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return `${sign}${grouped}${decimal}${decimals}`;
}

/** Tables show the amount only when it is above zero (spec §9), a dash otherwise. */
export function formatPositiveAmount(value: unknown, locale: Locale = 'en'): string {
  const n = toNumber(value);
  return n !== null && n > 0 ? formatAmount(n, locale) : '-';
}

export type DateInput = string | number | Date;

/**
 * ISO-8601 calendar dates as moment's ISO_8601 parser reads them: a date, optionally a time (minutes, seconds and
 * a fraction optional) after T or a space, optionally an offset or Z.
 */
const ISO_DATE = /^\s*(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d)(?::(\d\d)(?::(\d\d)(?:[.,](\d+))?)?)?(?:([+-])(\d\d):?(\d\d)?|\s*(Z))?)?$/;

/** Dates come as ISO-8601 strings on the wire; anything else in a string is not a date (null). */
export function parseDate(value: DateInput): Date | null {
  if (typeof value !== 'string') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const ms = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return null; // 31 April
  // An offset or Z: that instant. None: local time, as moment reads it (a date alone is local midnight).
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (m[11]) return new Date(utc);
  if (m[8]) return new Date(utc - (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10] ?? 0)) * 60_000);
  return new Date(year, month - 1, day, hour, minute, second, ms);
}

const pad = (n: number) => String(n).padStart(2, '0');
const day = (d: Date) => `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/** DD/MM/YYYY HH:mm:ss in local time. */
export function formatDateTime(value: DateInput): string {
  const d = parseDate(value);
  return d ? `${day(d)} ${clock(d)}` : '-';
}

/** DD/MM/YYYY HH:mm in local time: digits only, whatever locale data the browser has. */
export function formatDateTimeMinutes(value: DateInput): string {
  const d = parseDate(value);
  return d ? `${day(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}` : '-';
}

/** Chat message time: HH:mm:ss. */
export function formatChatTime(value: DateInput): string {
  const d = parseDate(value);
  return d ? clock(d) : '-';
}

/** Relative-time units of spec §9, largest first, in seconds. */
export const RELATIVE_UNITS = [
  ['year', 31536000],
  ['month', 2592000],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
] as const;
export type RelativeUnit = (typeof RELATIVE_UNITS)[number][0];

/** The largest unit that fits the elapsed time, and how many of it. Future times count as 0 seconds. */
export function relativeTimeParts(value: DateInput, now: DateInput = Date.now()): { unit: RelativeUnit; count: number } {
  const seconds = Math.max(0, Math.floor((new Date(now).getTime() - new Date(value).getTime()) / 1000));
  for (const [unit, size] of RELATIVE_UNITS) {
    if (seconds >= size) return { unit, count: Math.floor(seconds / size) };
  }
  return { unit: 'second', count: 0 };
}

/** A translate function in i18next's shape; keys time.<unit> are pluralised, time.ago wraps them. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** '3 hours ago', translated: time.<unit>_one/_other for the unit, time.ago for the suffix. */
export function formatRelativeTime(value: DateInput, t: Translate, now: DateInput = Date.now()): string {
  if (Number.isNaN(new Date(value).getTime())) return '-';
  const { unit, count } = relativeTimeParts(value, now);
  return t('time.ago', { time: t(`time.${unit}`, { count }) });
}

/** Plus for money in (deposit, bonus), minus for withdraw, nothing for other types. */
export function selectStatementSign(type: string): '+' | '-' | '' {
  if (type === 'deposit' || type === 'bonus') return '+';
  if (type === 'withdraw') return '-';
  return '';
}

/** Page numbers to show: up to 3 before the current page and 1 after, within 1..totalPages. */
export function paginationWindow(current: number, totalPages: number): number[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, Math.floor(current)), totalPages);
  const pages: number[] = [];
  for (let p = Math.max(1, page - 3); p <= Math.min(totalPages, page + 1); p++) pages.push(p);
  return pages;
}

/** Total pages for a list of `total` items, `size` per page. */
export function pageCount(total: number, size: number): number {
  return size > 0 && total > 0 ? Math.ceil(total / size) : 0;
}

/** A bank account number of exactly 10 digits shown as 3-3-4 with dashes; anything else as is. */
export function formatAccountNumber(value: string | null | undefined): string {
  if (value == null) return '';
  return /^\d{10}$/.test(value) ? `${value.slice(0, 3)}-${value.slice(3, 6)}-${value.slice(6)}` : value;
}
