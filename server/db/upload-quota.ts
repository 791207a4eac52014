import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { DB } from './schema';
import type { UploadLimits } from '../settings/upload-limits';

/**
 * Upload budgets (issue 39 row 3; docs/chat.md "Upload budgets"): how many uploads and how many kept bytes one client
 * address, one guest id or one player may spend in a sliding window. Kept in the database (tables upload_quota_locks
 * and upload_quota_uses), so every server process on it counts against the same budget: a guest id is free and an
 * attacker's uploads spread over processes would each pass a per-process count.
 *
 * An upload is charged before a byte of it is stored: one row per budget, holding the most it may keep (the route's
 * cap, or less when Content-Length says so), so parallel uploads cannot overshoot. When it ends, settleUpload puts
 * down what was kept (0 for a refused file); the upload itself still counts toward the number of uploads.
 */
export type QuotaSubject = { kind: 'address'; address: string } | { kind: 'guest'; guestId: string } | { kind: 'player'; playerId: number };

export interface QuotaCharge {
  ids: string[];
}

interface Budget {
  key: string;
  windowMinutes: number;
  maxBytes: number;
  maxUploads: number;
}

function budgetOf(s: QuotaSubject, l: UploadLimits): Budget {
  switch (s.kind) {
    case 'address':
      return { key: `addr:${s.address}`, windowMinutes: l.guestWindowMinutes, maxBytes: l.guestAddressMaxBytes, maxUploads: l.guestAddressMaxUploads };
    case 'guest':
      return { key: `guest:${s.guestId}`, windowMinutes: l.guestWindowMinutes, maxBytes: l.guestMaxBytes, maxUploads: l.guestMaxUploads };
    default:
      return { key: `player:${s.playerId}`, windowMinutes: l.playerWindowMinutes, maxBytes: l.playerMaxBytes, maxUploads: l.playerMaxUploads };
  }
}

/** The budgets an upload is charged to: a player's own, or a guest's and their address's (a guest id costs nothing). */
export function subjectsOf(who: { playerId: number | null; guestId: string | null; address: string }): QuotaSubject[] {
  if (who.playerId !== null) return [{ kind: 'player', playerId: who.playerId }];
  const subjects: QuotaSubject[] = [{ kind: 'address', address: who.address }];
  if (who.guestId) subjects.push({ kind: 'guest', guestId: who.guestId });
  return subjects;
}

/**
 * Charges one upload of at most `reserveBytes` to every budget; null (nothing charged) when one of them has no room:
 * its uploads in the window would pass maxUploads, or its bytes plus the reservation would pass maxBytes (a limit of
 * 0 is no limit). The budgets' lock rows are taken in a fixed order, so two uploads never wait on each other in turn.
 */
export async function chargeUpload(db: Kysely<DB>, limits: UploadLimits, subjects: QuotaSubject[], reserveBytes: number, now: Date): Promise<QuotaCharge | null> {
  const budgets = subjects.map((s) => budgetOf(s, limits)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    for (const b of budgets) {
      // The upsert locks the key's row until commit (PostgreSQL); the sum below then sees every earlier charge.
      await trx
        .insertInto('upload_quota_locks')
        .values({ key: b.key, touched_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ touched_at: at }))
        .execute();
      const since = new Date(now.getTime() - b.windowMinutes * 60_000).toISOString();
      const used = await trx
        .selectFrom('upload_quota_uses')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('bytes').as('bytes')])
        .where('key', '=', b.key)
        .where('at', '>', since)
        .executeTakeFirstOrThrow();
      if (b.maxUploads > 0 && Number(used.n) + 1 > b.maxUploads) return null;
      if (b.maxBytes > 0 && Number(used.bytes ?? 0) + reserveBytes > b.maxBytes) return null;
    }
    const rows = budgets.map((b) => ({ id: crypto.randomBytes(12).toString('hex'), key: b.key, at, bytes: reserveBytes }));
    if (rows.length) await trx.insertInto('upload_quota_uses').values(rows).execute();
    return { ids: rows.map((r) => r.id) };
  });
}

/** The upload ended: its rows hold what was kept (0 when the file was refused or failed). */
export async function settleUpload(db: Kysely<DB>, charge: QuotaCharge, keptBytes: number): Promise<void> {
  if (!charge.ids.length) return;
  await db.updateTable('upload_quota_uses').set({ bytes: keptBytes }).where('id', 'in', charge.ids).execute();
}

/** Forgets charges older than `before` (every window is shorter): the retention job calls it. */
export async function pruneUploadCharges(db: Kysely<DB>, before: Date): Promise<number> {
  const iso = before.toISOString();
  const gone = await db.deleteFrom('upload_quota_uses').where('at', '<', iso).executeTakeFirst();
  await db.deleteFrom('upload_quota_locks').where('touched_at', '<', iso).execute();
  return Number(gone.numDeletedRows);
}

/**
 * Bytes an unprivileged process may still write on the file system of `dir` (DATA_DIR), or null when statfs fails
 * (a platform without it). The upload watermark below and the metric wallet_data_disk_free_bytes read it.
 */
export async function freeDiskBytes(dir: string): Promise<number | null> {
  try {
    const s = await fs.promises.statfs(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/**
 * Whether the file system of `dir` (DATA_DIR: the SQLite ledger lives there too) has at least minFreeMb free for
 * an unprivileged process. Uploads stop at this watermark so that a full disk never stops the ledger's writes. A
 * statfs that fails (a platform without it) does not stop uploads: the budgets still bound them.
 */
export async function hasDiskRoom(dir: string, minFreeMb: number): Promise<boolean> {
  if (minFreeMb <= 0) return true;
  const free = await freeDiskBytes(dir);
  return free === null || free >= minFreeMb * 1024 * 1024;
}
