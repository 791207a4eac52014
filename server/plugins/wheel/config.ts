import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { WheelPrizeType } from '../../db/schema-invite-wheel';
import { parseBaht } from '../../ledger/money';
import { parseLocalized, type Localized } from '../../lib/localized';
import { readSettingDoc, writeSettingDoc } from '../../settings';
import { normalizeCode } from '../bonus';

/**
 * The prize wheel as the operator defines it (docs/invite-wheel.md "Defining the wheel"): one settings document
 * `spinwheel`, written from a JSON file by `npm run operator -- wheel set <file>` (`wheel on|off` switches it).
 * Amounts are wire values: baht for a cash prize, whole coins for a coin prize.
 */
export interface WheelPrize {
  type: WheelPrizeType;
  /** Baht (cash), coins (coin), 0 (none). */
  amount: number;
  /** The coupon's prize name; the slice label in every language when the file leaves it out. */
  name: Localized;
  htmlDescription: Localized;
}

export interface WheelSlice {
  code: string;
  label: string;
  /**
   * The slice's label per language (issue 40 item 13), drawn on the wheel in the player's language; the file's
   * `labels` {th, la, en}, else `label` in every language. `label` stays the spec's wire field.
   */
  labels: Localized;
  bgColor: string;
  textColor: string;
  /** Relative chance: a slice is drawn with probability weight / (sum of the active slices' weights). */
  weight: number;
  active: boolean;
  prize: WheelPrize;
}

export interface Wheel {
  isActive: boolean;
  name: Localized;
  /** Days a won coupon can be claimed [7]. */
  couponValidDays: number;
  /** In wheel order, clockwise from the top. */
  slices: WheelSlice[];
}

export const DEFAULT_COUPON_VALID_DAYS = 7;
/** The SPA draws 2 to 16 sectors. */
export const MIN_SLICES = 2;
export const MAX_SLICES = 16;
const MAX_WEIGHT = 1_000_000;
const COLOR = /^#[0-9a-fA-F]{6}$/;

const unknownKeys = (o: Record<string, unknown>, known: string[], field: string, errors: string[]) => {
  const extra = Object.keys(o).filter((k) => !known.includes(k));
  if (extra.length) errors.push(`${field}has unknown fields: ${extra.join(', ')}`);
};

function parsePrize(v: unknown, at: string, label: string, errors: string[]): WheelPrize {
  const o = (v && typeof v === 'object' && !Array.isArray(v) ? v : {}) as Record<string, unknown>;
  if (o !== v) errors.push(`${at}.prize must be an object {type, amount, name, htmlDescription}`);
  unknownKeys(o, ['type', 'amount', 'name', 'htmlDescription'], `${at}.prize `, errors);
  const type = o.type as WheelPrizeType;
  let amount = 0;
  if (type === 'cash') {
    const s = typeof o.amount === 'number' ? parseBaht(o.amount) : null;
    if (s === null || s <= 0 || s > 100_000_000) errors.push(`${at}.prize.amount must be 0.01-1,000,000 baht with at most 2 decimals for a cash prize`);
    else amount = o.amount as number;
  } else if (type === 'coin') {
    if (!Number.isInteger(o.amount) || (o.amount as number) < 1 || (o.amount as number) > 1000) errors.push(`${at}.prize.amount must be a whole number of coins 1-1000 for a coin prize`);
    else amount = o.amount as number;
  } else if (type === 'none') {
    if (o.amount !== undefined && o.amount !== 0) errors.push(`${at}.prize.amount must be 0 or left out for a none prize`);
  } else {
    errors.push(`${at}.prize.type must be cash, coin or none`);
  }
  const fallback = { th: label, la: label, en: label };
  const name = parseLocalized(o.name, `${at}.prize.name`, errors, false, 200) ?? fallback;
  const htmlDescription = parseLocalized(o.htmlDescription, `${at}.prize.htmlDescription`, errors, true) ?? fallback;
  return { type, amount, name, htmlDescription };
}

function parseSlice(v: unknown, i: number, errors: string[]): WheelSlice {
  const at = `slices[${i}]`;
  const o = (v && typeof v === 'object' && !Array.isArray(v) ? v : {}) as Record<string, unknown>;
  if (o !== v) errors.push(`${at} must be an object`);
  unknownKeys(o, ['code', 'label', 'labels', 'bgColor', 'textColor', 'weight', 'active', 'prize'], `${at} `, errors);
  const code = typeof o.code === 'string' ? normalizeCode(o.code) : null;
  if (!code) errors.push(`${at}.code must be 1-32 characters A-Z, 0-9, _ or - (case-insensitive)`);
  const label = typeof o.label === 'string' ? o.label.trim() : '';
  if (!label || label.length > 32) errors.push(`${at}.label must be 1-32 characters`);
  const labels = parseLocalized(o.labels, `${at}.labels`, errors, false, 32) ?? { th: label, la: label, en: label };
  for (const k of ['bgColor', 'textColor'] as const) if (typeof o[k] !== 'string' || !COLOR.test(o[k] as string)) errors.push(`${at}.${k} must be a colour #rrggbb`);
  if (!Number.isInteger(o.weight) || (o.weight as number) < 1 || (o.weight as number) > MAX_WEIGHT) errors.push(`${at}.weight must be a whole number 1-${MAX_WEIGHT}`);
  if (o.active !== undefined && typeof o.active !== 'boolean') errors.push(`${at}.active must be true or false`);
  return {
    code: code ?? String(o.code ?? ''),
    label,
    labels: { th: labels.th.trim(), la: labels.la.trim(), en: labels.en.trim() },
    bgColor: String(o.bgColor ?? '').toLowerCase(),
    textColor: String(o.textColor ?? '').toLowerCase(),
    weight: Number(o.weight),
    active: o.active !== false,
    prize: parsePrize(o.prize, at, label, errors),
  };
}

/** Checks a wheel file as a whole: the wheel, or every problem found. */
export function parseWheel(input: unknown): { ok: true; wheel: Wheel } | { ok: false; errors: string[] } {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { ok: false, errors: ['the wheel must be a JSON object'] };
  const errors: string[] = [];
  const d = input as Record<string, unknown>;
  unknownKeys(d, ['isActive', 'name', 'couponValidDays', 'slices'], 'the wheel ', errors);
  if (d.isActive !== undefined && typeof d.isActive !== 'boolean') errors.push('isActive must be true or false');
  const name = parseLocalized(d.name, 'name', errors, true, 200);
  const days = d.couponValidDays ?? DEFAULT_COUPON_VALID_DAYS;
  if (!Number.isInteger(days) || (days as number) < 1 || (days as number) > 365) errors.push('couponValidDays must be a whole number of days 1-365');
  let slices: WheelSlice[] = [];
  if (!Array.isArray(d.slices) || d.slices.length === 0) errors.push('slices must be a non-empty array');
  else if (d.slices.length > 64) errors.push('slices: at most 64');
  else slices = d.slices.map((s, i) => parseSlice(s, i, errors));
  const seen = new Set<string>();
  for (const s of slices) {
    if (s.code && seen.has(s.code)) errors.push(`slice code ${s.code} is used twice`);
    seen.add(s.code);
  }
  const active = slices.filter((s) => s.active).length;
  if (active > MAX_SLICES) errors.push(`at most ${MAX_SLICES} active slices (the wheel shows them all), got ${active}`);
  if (d.isActive === true && active < MIN_SLICES) errors.push(`an active wheel needs at least ${MIN_SLICES} active slices, got ${active}`);
  if (errors.length) return { ok: false, errors };
  return { ok: true, wheel: { isActive: d.isActive === true, name: name!, couponValidDays: days as number, slices } };
}

type Db = Kysely<DB> | Transaction<DB>;

/** The stored wheel, or null when there is none or it does not pass the checks (then no wheel shows). */
export async function readWheel(db: Db): Promise<Wheel | null> {
  const v = await readSettingDoc(db, 'spinwheel');
  if (!v) return null;
  const parsed = parseWheel(v);
  return parsed.ok ? parsed.wheel : null;
}

export async function writeWheel(db: Db, wheel: Wheel, now = new Date()): Promise<void> {
  await writeSettingDoc(db, 'spinwheel', wheel, now);
}

/** The wheel players see: switched on, with its active slices only; null when there is none. */
export async function activeWheel(db: Db): Promise<Wheel | null> {
  const w = await readWheel(db);
  if (!w || !w.isActive) return null;
  const slices = w.slices.filter((s) => s.active);
  return slices.length >= MIN_SLICES ? { ...w, slices } : null;
}

/** Satang (cash) or coins (coin) as stored on a coupon. */
export function prizeUnits(p: WheelPrize): number {
  if (p.type === 'cash') return parseBaht(p.amount) ?? 0;
  return p.type === 'coin' ? p.amount : 0;
}
