import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';

/**
 * The operator's budgets for uploads (issue 39 row 3; docs/chat.md "Upload budgets", docs/deposits.md): stored in the
 * `settings` table under `uploadLimits` (a JSON object; any field may be left out, a field of the wrong shape is
 * ignored), the defaults below otherwise. Read per upload, so a change applies at once on every process.
 */
export interface UploadLimits {
  /** Guests (no token): the window of the two budgets below, per client address and per guest id. */
  guestWindowMinutes: number;
  /** Bytes kept from guest uploads of one client address per window [50 MB an hour]. */
  guestAddressMaxBytes: number;
  /** Guest uploads (kept or refused) from one client address per window. */
  guestAddressMaxUploads: number;
  /** Bytes kept per guest id per window: guest ids are free, so this only stops one id filling the address's budget. */
  guestMaxBytes: number;
  guestMaxUploads: number;
  /** Players: chat uploads and slips together, per player (never per address: players share addresses). */
  playerWindowMinutes: number;
  /** Bytes kept per player per window [200 MB a day]. */
  playerMaxBytes: number;
  playerMaxUploads: number;
  /** Uploads are refused (503 UPLOAD_UNAVAILABLE) while DATA_DIR's file system has less free space than this. */
  minFreeDiskMb: number;
  /** The retention job: chat media older than this is deleted (0: kept for ever). */
  chatRetentionDays: number;
  /** Slip pictures older than this are deleted; the slip rows stay (0: kept for ever). */
  slipRetentionDays: number;
  /** A chat upload no message refers to, and a stray file no row refers to, is deleted after this many hours. */
  unreferencedHours: number;
  /** Chat images: most pixels and longest side the header may announce (larger freeze a staff browser). */
  chatImageMaxPixels: number;
  chatImageMaxSide: number;
}

const MB = 1024 * 1024;

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  guestWindowMinutes: 60,
  guestAddressMaxBytes: 50 * MB,
  guestAddressMaxUploads: 100,
  guestMaxBytes: 40 * MB,
  guestMaxUploads: 30,
  playerWindowMinutes: 24 * 60,
  playerMaxBytes: 200 * MB,
  playerMaxUploads: 300,
  minFreeDiskMb: 1024,
  chatRetentionDays: 180,
  slipRetentionDays: 400,
  unreferencedHours: 24,
  chatImageMaxPixels: 50_000_000,
  chatImageMaxSide: 16_384,
};

export const UPLOAD_LIMITS_KEY = 'uploadLimits';

/** A stored (partial) document over the defaults; negative, non-numeric or non-finite fields keep their default. */
export function mergeUploadLimits(stored: unknown): UploadLimits {
  const limits = { ...DEFAULT_UPLOAD_LIMITS };
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const key of Object.keys(DEFAULT_UPLOAD_LIMITS) as (keyof UploadLimits)[]) {
      const v = (stored as Record<string, unknown>)[key];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) limits[key] = v;
    }
  }
  return limits;
}

export async function readUploadLimits(db: Kysely<DB> | Transaction<DB>): Promise<UploadLimits> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', UPLOAD_LIMITS_KEY).executeTakeFirst();
  if (!row) return { ...DEFAULT_UPLOAD_LIMITS };
  try {
    return mergeUploadLimits(JSON.parse(row.value));
  } catch {
    return { ...DEFAULT_UPLOAD_LIMITS };
  }
}
