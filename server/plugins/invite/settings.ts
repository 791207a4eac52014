import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { parseBaht } from '../../ledger/money';
import { parseBanners, type Banner } from '../../lib/localized';
import { readSettingDoc, writeSettingDoc } from '../../settings';

/**
 * The `invite` settings document (a row of `settings`, wire values: percent, baht):
 *   { isActive, percent, cap, banners }
 * isActive [off until the operator switches it on; on in the demo]: while off, first deposits earn nothing and
 * GET /api/invite/bonus answers INVITE_INACTIVE. percent [5] of the invitee's first deposit, at most cap baht
 * per invitee (null: no cap). The earning is receivable once the invitee wagered that deposit turnover [1] x (rounds
 * played after it; 0: at once), and at most dailyCap [1000] baht of an inviter's earnings become receivable per day
 * (Bangkok calendar day; null: no cap): the rest of that day's earning is not paid (issue 39 row 7). Written by
 * `npm run operator -- invite set <file>` / `invite on|off`.
 */
export interface InviteSettings {
  isActive: boolean;
  percent: number;
  /** Baht per invitee, or null for none. */
  cap: number | null;
  /** Times the first deposit the invitee must wager before it earns (0: at once). */
  turnover: number;
  /** Baht of earnings per inviter that become receivable in one day, or null for none. */
  dailyCap: number | null;
  banners: Banner[];
}

export const DEFAULT_INVITE: InviteSettings = { isActive: false, percent: 5, cap: null, turnover: 1, dailyCap: 1000, banners: [] };

type Db = Kysely<DB> | Transaction<DB>;

const KNOWN = ['isActive', 'percent', 'cap', 'turnover', 'dailyCap', 'banners'];

/** Checks an invite settings document (a partial one is merged over the stored one); the problems, or none. */
export function checkInviteSettings(v: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const unknown = Object.keys(v).filter((k) => !KNOWN.includes(k));
  if (unknown.length) errors.push(`unknown fields: ${unknown.join(', ')}`);
  if (v.isActive !== undefined && typeof v.isActive !== 'boolean') errors.push('isActive must be true or false');
  if (v.percent !== undefined && !(typeof v.percent === 'number' && v.percent >= 0 && v.percent <= 100 && parseBaht(v.percent) !== null)) {
    errors.push('percent must be a percentage 0-100 with at most 2 decimals');
  }
  if (v.cap !== undefined && v.cap !== null && !(typeof v.cap === 'number' && v.cap > 0 && v.cap <= 10_000_000 && parseBaht(v.cap) !== null)) {
    errors.push('cap must be an amount above 0 baht with at most 2 decimals, or null for none');
  }
  if (v.turnover !== undefined && !(typeof v.turnover === 'number' && v.turnover >= 0 && v.turnover <= 100 && parseBaht(v.turnover) !== null)) {
    errors.push('turnover must be a multiple 0-100 with at most 2 decimals');
  }
  if (v.dailyCap !== undefined && v.dailyCap !== null && !(typeof v.dailyCap === 'number' && v.dailyCap > 0 && v.dailyCap <= 100_000_000 && parseBaht(v.dailyCap) !== null)) {
    errors.push('dailyCap must be an amount above 0 baht with at most 2 decimals, or null for none');
  }
  if (v.banners !== undefined) parseBanners(v.banners, errors);
  return errors;
}

export async function readInviteSettings(db: Db): Promise<InviteSettings> {
  const v = (await readSettingDoc(db, 'invite')) ?? {};
  if (checkInviteSettings(v).length) return DEFAULT_INVITE; // a broken document switches invites off, never on
  return { ...DEFAULT_INVITE, ...(v as Partial<InviteSettings>) };
}

export async function writeInviteSettings(db: Db, v: Partial<InviteSettings>, now = new Date()): Promise<InviteSettings> {
  const merged = { ...(await readInviteSettings(db)), ...v };
  await writeSettingDoc(db, 'invite', merged, now);
  return merged;
}

/** Percent to basis points (5 -> 500, 0.5 -> 50). */
export const percentBp = (percent: number) => parseBaht(percent) ?? 0;

/** What a first deposit earns the inviter: deposit x percent, rounded down to the satang, at most the cap. */
export function inviteEarning(depositSatang: number, bp: number, capSatang: number | null): number {
  if (depositSatang <= 0 || bp <= 0) return 0;
  const v = Math.floor((depositSatang * bp) / 10_000);
  return capSatang === null ? v : Math.min(v, capSatang);
}
