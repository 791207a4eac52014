import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { parseBaht } from '../../ledger/money';
import type { Banner, Localized } from './definitions';
import { readSettingDoc, writeSettingDoc } from '../../settings';

/**
 * Two settings documents (rows of the `settings` table, wire values like the other documents: baht, percent):
 *   bonus  { minimum, timeZone }                         activation rules shared by every bonus
 *   refund { isActive, refundSuccess, refundFail, info, banners }
 * A missing document means the defaults below (refund switched off). Written by `npm run operator -- bonus
 * settings <file>` and `refund set <file>` / `refund on|off`. docs/bonus.md.
 */
export interface BonusRules {
  /** Baht: the smallest wallet balance an activation accepts (BONUS_REMAINING below it). */
  minimum: number;
  /** IANA zone of the operator's calendar: day and week receive limits turn over at its midnight. */
  timeZone: string;
}

export interface RefundSettings {
  isActive: boolean;
  /** Percent of the net loss refunded [5]. */
  refundSuccess: number;
  /** Percent when a bonus failed in the period [10]. */
  refundFail: number;
  info: Localized;
  banners: Banner[];
}

export const DEFAULT_BONUS_RULES: BonusRules = { minimum: 1, timeZone: 'Asia/Bangkok' };

export const DEFAULT_REFUND: RefundSettings = {
  isActive: false,
  refundSuccess: 5,
  refundFail: 10,
  info: {
    th: '<p>รับเงินคืนยอดเสีย %refundSuccess%% ของยอดเสียสุทธิ หรือ %refundFail%% เมื่อมีโบนัสที่ไม่ผ่านเงื่อนไขในช่วงนั้น</p>',
    la: '<p>ຮັບເງິນຄືນຍອດເສຍ %refundSuccess%% ຂອງຍອດເສຍສຸດທິ ຫຼື %refundFail%% ເມື່ອມີໂບນັດທີ່ບໍ່ຜ່ານເງື່ອນໄຂໃນຊ່ວງນັ້ນ</p>',
    en: '<p>Get back %refundSuccess%% of your net loss, or %refundFail%% when a bonus failed in that period.</p>',
  },
  banners: [],
};

type Db = Kysely<DB> | Transaction<DB>;

export function isTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || !tz) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const percentOk = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 100 && parseBaht(v) !== null;

/** Checks a bonus rules document; returns the problems (empty when it is fine). */
export function checkBonusRules(v: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const unknown = Object.keys(v).filter((k) => k !== 'minimum' && k !== 'timeZone');
  if (unknown.length) errors.push(`unknown fields: ${unknown.join(', ')}`);
  if (v.minimum !== undefined && (typeof v.minimum !== 'number' || parseBaht(v.minimum) === null || v.minimum <= 0)) errors.push('minimum must be an amount above 0 baht with at most 2 decimals');
  if (v.timeZone !== undefined && !isTimeZone(v.timeZone)) errors.push('timeZone must be an IANA time zone such as Asia/Bangkok');
  return errors;
}

/** Checks a refund settings document (a partial one is merged over the stored one). */
export function checkRefundSettings(v: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const known = ['isActive', 'refundSuccess', 'refundFail', 'info', 'banners'];
  const unknown = Object.keys(v).filter((k) => !known.includes(k));
  if (unknown.length) errors.push(`unknown fields: ${unknown.join(', ')}`);
  if (v.isActive !== undefined && typeof v.isActive !== 'boolean') errors.push('isActive must be true or false');
  if (v.refundSuccess !== undefined && !percentOk(v.refundSuccess)) errors.push('refundSuccess must be a percentage 0-100 with at most 2 decimals');
  if (v.refundFail !== undefined && !percentOk(v.refundFail)) errors.push('refundFail must be a percentage 0-100 with at most 2 decimals');
  if (v.info !== undefined) {
    const i = v.info as Record<string, unknown> | null;
    if (!i || typeof i !== 'object' || !['th', 'la', 'en'].every((l) => typeof i[l] === 'string')) errors.push('info must be {th, la, en} strings');
  }
  if (v.banners !== undefined) {
    const ok =
      Array.isArray(v.banners) &&
      v.banners.every((b: unknown) => {
        const o = b as Record<string, unknown> | null;
        const h = o?.html as Record<string, unknown> | undefined;
        return !!o && typeof o.image === 'string' && !!h && ['th', 'la', 'en'].every((l) => typeof h[l] === 'string');
      });
    if (!ok) errors.push('banners must be [{image, html: {th, la, en}}]');
  }
  return errors;
}

export async function readBonusRules(db: Db): Promise<BonusRules> {
  const v = (await readSettingDoc(db, 'bonus')) ?? {};
  if (checkBonusRules(v).length) return DEFAULT_BONUS_RULES;
  return { ...DEFAULT_BONUS_RULES, ...(v as Partial<BonusRules>) };
}

export async function writeBonusRules(db: Db, v: Partial<BonusRules>, now = new Date()): Promise<BonusRules> {
  const merged = { ...(await readBonusRules(db)), ...v };
  await writeSettingDoc(db, 'bonus', merged, now);
  return merged;
}

export async function readRefundSettings(db: Db): Promise<RefundSettings> {
  const v = (await readSettingDoc(db, 'refund')) ?? {};
  if (checkRefundSettings(v).length) return DEFAULT_REFUND; // a broken document switches refunds off, never on
  return { ...DEFAULT_REFUND, ...(v as Partial<RefundSettings>) };
}

export async function writeRefundSettings(db: Db, v: Partial<RefundSettings>, now = new Date()): Promise<RefundSettings> {
  const merged = { ...(await readRefundSettings(db)), ...v };
  await writeSettingDoc(db, 'refund', merged, now);
  return merged;
}

/** The info HTML with %refundSuccess% and %refundFail% filled in. */
export function refundInfo(s: RefundSettings): Localized {
  const fill = (t: string) => t.replace(/%refundSuccess%/g, String(s.refundSuccess)).replace(/%refundFail%/g, String(s.refundFail));
  return { th: fill(s.info.th), la: fill(s.info.la), en: fill(s.info.en) };
}
