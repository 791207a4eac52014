import type { BonusDefinitionsTable, BonusKind, BonusType } from '../../db/schema-bonus';
import { parseBaht, toBaht } from '../../ledger/money';
import { parseBanners, parseLocalized, type Banner, type Localized } from '../../lib/localized';

/**
 * Bonus and promotion definitions as the operator writes them (JSON files for `npm run operator -- bonus|promotion
 * add <file>`) and as the API shows them: amounts in baht, percentages and the multiple as plain numbers with at
 * most 2 decimals, texts `{th, la, en}` (HTML allowed; the SPA sanitizes it). docs/bonus.md "Defining bonuses".
 */
export type { Localized, Banner };

export interface DefinitionInput {
  code: string;
  name?: Localized;
  /** Bonuses: the modal's notice (may hold %percentFail%). */
  notice?: Localized;
  /** Promotions: what the promotion modal shows. */
  description?: Localized;
  type?: BonusType;
  maxReceived?: number;
  percent?: number;
  cap?: number;
  turnoverMultiple?: number;
  percentFail?: number;
  budget?: number | null;
  banners?: Banner[];
  validFrom?: string | null;
  validTo?: string | null;
  active?: boolean;
  sort?: number;
}

/** Defaults of RULES.md "Bonuses and promotions": 10% up to 500 baht, turnover 3x. */
export const DEFAULTS = { percent: 10, cap: 500, turnoverMultiple: 3, percentFail: 10 } as const;

export const CODE_PATTERN = /^[A-Z0-9_-]{1,32}$/;

/** Upper-cased code, or null when it cannot be a code (codes are case-insensitive). */
export function normalizeCode(raw: string): string | null {
  const c = raw.trim().toUpperCase();
  return CODE_PATTERN.test(c) ? c : null;
}

/** A number with at most 2 decimals in [min, max], as hundredths; errors otherwise. */
function hundredths(v: unknown, field: string, min: number, max: number, errors: string[]): number | undefined {
  if (typeof v !== 'number') {
    errors.push(`${field} must be a number`);
    return undefined;
  }
  const h = parseBaht(v);
  if (h === null || v < min || v > max) {
    errors.push(`${field} must be between ${min} and ${max} with at most 2 decimals, got ${v}`);
    return undefined;
  }
  return h;
}

function isoOrNull(v: unknown, field: string, errors: string[]): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v)) || !/^\d{4}-\d{2}-\d{2}/.test(v)) {
    errors.push(`${field} must be an ISO-8601 date or date-time (or null)`);
    return null;
  }
  return new Date(v).toISOString();
}

const KNOWN = new Set([
  'code', 'name', 'notice', 'description', 'type', 'maxReceived', 'percent', 'cap', 'turnoverMultiple', 'percentFail', 'budget',
  'banners', 'validFrom', 'validTo', 'active', 'sort',
]);

/**
 * Checks one definition from the operator's file and turns it into a row (without timestamps). A promotion is
 * received once per player, so its type is limit and maxReceived 1; its `description` is stored as the notice.
 */
export function parseDefinition(
  input: unknown,
  kind: BonusKind,
): { ok: true; row: Omit<BonusDefinitionsTable, 'created_at' | 'updated_at'> } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { ok: false, errors: ['a definition must be a JSON object'] };
  const d = input as Record<string, unknown>;
  const unknown = Object.keys(d).filter((k) => !KNOWN.has(k));
  if (unknown.length) errors.push(`unknown fields: ${unknown.join(', ')}`);
  const code = typeof d.code === 'string' ? normalizeCode(d.code) : null;
  if (!code) errors.push('code must be 1-32 characters A-Z, 0-9, _ or - (case-insensitive)');
  let type: BonusType = 'limit';
  let maxReceived = 1;
  if (kind === 'bonus') {
    if (d.type !== 'limit' && d.type !== 'day' && d.type !== 'week') errors.push('type must be limit, day or week');
    else type = d.type;
    if (!Number.isInteger(d.maxReceived) || (d.maxReceived as number) < 1 || (d.maxReceived as number) > 1000) errors.push('maxReceived must be a whole number 1-1000');
    else maxReceived = d.maxReceived as number;
  } else {
    if (d.type !== undefined && d.type !== 'limit') errors.push('a promotion is received once per player: leave type out (or limit)');
    if (d.maxReceived !== undefined && d.maxReceived !== 1) errors.push('a promotion is received once per player: leave maxReceived out (or 1)');
  }
  const name = parseLocalized(d.name, 'name', errors, kind === 'bonus');
  const text = kind === 'bonus' ? parseLocalized(d.notice, 'notice', errors, true) : parseLocalized(d.description, 'description', errors, true);
  if (kind === 'bonus' && d.description !== undefined) errors.push('description is for promotions; a bonus has a notice');
  if (kind === 'promotion' && d.notice !== undefined) errors.push('notice is for bonuses; a promotion has a description');
  const percent = hundredths(d.percent ?? DEFAULTS.percent, 'percent', 0.01, 1000, errors);
  const cap = hundredths(d.cap ?? DEFAULTS.cap, 'cap', 0.01, 10_000_000, errors);
  const multiple = hundredths(d.turnoverMultiple ?? DEFAULTS.turnoverMultiple, 'turnoverMultiple', 0, 1000, errors);
  const percentFail = hundredths(d.percentFail ?? DEFAULTS.percentFail, 'percentFail', 0, 100, errors);
  let budget: number | null = null;
  if (d.budget !== undefined && d.budget !== null) budget = hundredths(d.budget, 'budget', 0, 1_000_000_000, errors) ?? null;
  const validFrom = isoOrNull(d.validFrom, 'validFrom', errors);
  const validTo = isoOrNull(d.validTo, 'validTo', errors);
  if (validFrom && validTo && validFrom >= validTo) errors.push('validTo must be after validFrom');
  if (d.active !== undefined && typeof d.active !== 'boolean') errors.push('active must be true or false');
  if (d.sort !== undefined && !Number.isInteger(d.sort)) errors.push('sort must be a whole number');
  const bannerList = parseBanners(d.banners, errors);
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    row: {
      code: code!,
      kind,
      type,
      max_received: maxReceived,
      name: JSON.stringify(name ?? { th: code, la: code, en: code }),
      notice: JSON.stringify(text),
      banners: JSON.stringify(bannerList),
      percent_bp: percent!,
      cap: cap!,
      turnover_x100: multiple!,
      percent_fail_bp: percentFail!,
      budget,
      valid_from: validFrom,
      valid_to: validTo,
      active: d.active === false ? 0 : 1,
      sort: (d.sort as number | undefined) ?? 0,
    },
  };
}

/** A stored definition in the operator's file format (what `bonus list --json` prints and `add` reads back). */
export function definitionToInput(r: BonusDefinitionsTable): DefinitionInput {
  const text = JSON.parse(r.notice) as Localized;
  return {
    code: r.code,
    name: JSON.parse(r.name) as Localized,
    ...(r.kind === 'bonus' ? { notice: text, type: r.type, maxReceived: Number(r.max_received) } : { description: text }),
    percent: Number(r.percent_bp) / 100,
    cap: toBaht(Number(r.cap)),
    turnoverMultiple: Number(r.turnover_x100) / 100,
    percentFail: Number(r.percent_fail_bp) / 100,
    budget: r.budget === null ? null : toBaht(Number(r.budget)),
    banners: JSON.parse(r.banners) as Banner[],
    validFrom: r.valid_from,
    validTo: r.valid_to,
    active: Number(r.active) === 1,
    sort: Number(r.sort),
  };
}

/** Whether a definition can be received at this instant: switched on and inside its validity dates. */
export function isOpen(r: Pick<BonusDefinitionsTable, 'active' | 'valid_from' | 'valid_to'>, nowIso: string): boolean {
  if (Number(r.active) !== 1) return false;
  if (r.valid_from && nowIso < r.valid_from) return false;
  if (r.valid_to && nowIso >= r.valid_to) return false;
  return true;
}

/** The bonus amount for a wallet balance: percent of it, at most the cap (satang, rounded down). */
export function bonusAmount(walletBalance: number, percentBp: number, cap: number): number {
  if (walletBalance <= 0) return 0;
  return Math.min(cap, Math.floor((walletBalance * percentBp) / 10_000));
}

/** Turnover target: start amount x multiple (satang, rounded up so the target is never below the rule). */
export const turnoverTarget = (startAmount: number, multipleX100: number) => Math.ceil((startAmount * multipleX100) / 100);

/** The total balance at or below which a bonus fails: start amount x percentFail% (rounded down). */
export const failThreshold = (startAmount: number, percentFailBp: number) => Math.floor((startAmount * percentFailBp) / 10_000);
