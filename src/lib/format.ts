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
 * One number formatter per language, made on first use: building an Intl.NumberFormat loads the language's
 * number data each time, and the home page formats dozens of amounts (issue 13's profile: ~30 ms of its first
 * render went to making formatters, one per amount).
 */
const amountFormats = new Map<Locale, Intl.NumberFormat>();
function amountFormat(locale: Locale): Intl.NumberFormat {
  let format = amountFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(standardLanguageTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 4 });
    amountFormats.set(locale, format);
  }
  return format;
}

/**
 * Makes `locale`'s number formatter now, if it is not made yet. The first one of a language costs a long piece of a
 * task (the browser loads the language's number data: ~10 ms on this machine kind, ~40 ms on Lighthouse's 4x phone),
 * and made during the home page's render with its data it lengthened that render's task past 100 ms (blocking time).
 * useFormatAmount calls this in a task of its own while the screen's data is on its way.
 */
export function prepareAmountFormat(locale: Locale): void {
  if (!amountFormats.has(locale)) amountFormat(locale).format(1234.5);
}

/** An amount with at least 2 decimals (more when the value has them, up to 4), or '-' when not a number. */
export function formatAmount(value: unknown, locale: Locale = 'en'): string {
  const n = toNumber(value);
  if (n === null) return '-';
  return amountFormat(locale).format(n);
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

export type StatementType = 'deposit' | 'bonus' | 'finish_bonus' | 'withdraw' | 'transfer';

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
