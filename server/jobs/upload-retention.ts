import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { startJobLease, type Lease } from './lease';
import { readUploadLimits } from '../settings/upload-limits';
import { pruneUploadCharges } from '../db/upload-quota';
import { chatMediaDir } from '../lib/upload-dirs';

/**
 * Upload retention (issue 39 row 3; docs/chat.md "Upload budgets", docs/operations.md "Background jobs (leases)"):
 * uploads sit on DATA_DIR, the disk of the SQLite ledger, so what nobody needs any more is deleted, in the process
 * holding the `upload-retention` lease, every hour:
 * - chat media older than chatRetentionDays (file and row; a message showing it then shows a missing picture);
 * - chat media no message refers to, older than unreferencedHours (uploaded and never sent);
 * - files in the chat-media and slip folders no row refers to (a crash mid-upload's `.part`), older than
 *   unreferencedHours by their modification time;
 * - slip pictures older than slipRetentionDays, except slips still IN_PROGRESS (held for staff); the slip row stays,
 *   its image link answers 404 UPLOADED_FILE_NOT_EXIST;
 * - upload-budget charges older than every budget's window.
 * Every time is the app clock (the rows' created_at are written with it). A pass does at most BATCH rows of each kind;
 * the next pass goes on.
 */
export interface RetentionDeps {
  db: Kysely<DB>;
  chatDir: string;
  slipsDir: string;
  now(): Date;
}

export interface RetentionReport {
  chatExpired: number;
  chatUnreferenced: number;
  strayFiles: number;
  slipFiles: number;
  charges: number;
}

const BATCH = 500;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Unreferenced uploads are looked for among those of the last week past the grace (older ones: the age rule). */
const UNREFERENCED_LOOKBACK_MS = 7 * DAY;

const iso = (ms: number) => new Date(ms).toISOString();

async function removeFile(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true });
}

async function listOldFiles(dir: string, olderThanMs: number): Promise<string[]> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const old: string[] = [];
  for (const name of names) {
    const st = await fs.promises.stat(path.join(dir, name)).catch(() => null);
    if (st?.isFile() && st.mtimeMs < olderThanMs) old.push(name);
  }
  return old;
}

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export async function runUploadRetention(deps: RetentionDeps): Promise<RetentionReport> {
  const { db } = deps;
  const limits = await readUploadLimits(db);
  const now = deps.now().getTime();
  const graceMs = limits.unreferencedHours * HOUR;
  const report: RetentionReport = { chatExpired: 0, chatUnreferenced: 0, strayFiles: 0, slipFiles: 0, charges: 0 };

  const dropChat = async (rows: { id: string; ext: string }[]) => {
    for (const r of rows) {
      await removeFile(path.join(deps.chatDir, `${r.id}.${r.ext}`));
      await db.deleteFrom('chat_uploads').where('id', '=', r.id).execute();
    }
    return rows.length;
  };

  if (limits.chatRetentionDays > 0) {
    const rows = await db
      .selectFrom('chat_uploads')
      .select(['id', 'ext'])
      .where('created_at', '<', iso(now - limits.chatRetentionDays * DAY))
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    report.chatExpired = await dropChat(rows);
  }

  // A media message carries its file's URL (/api/chat/media/<id>.<ext>) in its payload.
  const unreferenced = await db
    .selectFrom('chat_uploads as u')
    .select(['u.id', 'u.ext'])
    .where('u.created_at', '<', iso(now - graceMs))
    .where('u.created_at', '>', iso(now - graceMs - UNREFERENCED_LOOKBACK_MS))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('chat_messages as m')
            .select(sql<number>`1`.as('one'))
            .where('m.message_type', '=', 'media')
            .where(sql<boolean>`${sql.ref('m.payload')} like '%' || ${sql.ref('u.id')} || '%'`),
        ),
      ),
    )
    .limit(BATCH)
    .execute();
  report.chatUnreferenced = await dropChat(unreferenced);

  // Files without a row: chat media by the id in their name, slips by their file name.
  const strayChat = await listOldFiles(deps.chatDir, now - graceMs);
  for (const group of chunks(strayChat, BATCH)) {
    const ids = group.map((n) => n.split('.')[0]);
    const known = new Set((await db.selectFrom('chat_uploads').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
    for (const name of group) {
      if (known.has(name.split('.')[0]) && !name.endsWith('.part')) continue;
      await removeFile(path.join(deps.chatDir, name));
      report.strayFiles++;
    }
  }
  const slipCutoff = limits.slipRetentionDays > 0 ? iso(now - limits.slipRetentionDays * DAY) : null;
  const oldSlipFiles = await listOldFiles(deps.slipsDir, now - graceMs);
  for (const group of chunks(oldSlipFiles, BATCH)) {
    const rows = await db.selectFrom('slips').select(['file_name', 'status', 'created_at']).where('file_name', 'in', group).execute();
    const byName = new Map(rows.map((r) => [r.file_name, r]));
    for (const name of group) {
      const row = byName.get(name);
      if (!row) {
        await removeFile(path.join(deps.slipsDir, name));
        report.strayFiles++;
      } else if (slipCutoff && row.status !== 'IN_PROGRESS' && row.created_at < slipCutoff) {
        await removeFile(path.join(deps.slipsDir, name));
        report.slipFiles++;
      }
    }
  }

  const longestWindowMs = Math.max(limits.guestWindowMinutes, limits.playerWindowMinutes) * 60_000;
  report.charges = await pruneUploadCharges(db, new Date(now - longestWindowMs - HOUR));
  return report;
}

export interface UploadRetentionApi {
  /** One pass now, wherever it is called (tests; an operator's script). */
  runNow(): Promise<RetentionReport>;
}

declare module 'fastify' {
  interface FastifyInstance {
    uploadRetention: UploadRetentionApi;
  }
}

export interface UploadRetentionOptions {
  /** Between timed passes [one hour]; 0: no timer (runNow only). */
  intervalMs?: number;
}

async function uploadRetention(app: FastifyInstance, opts: UploadRetentionOptions) {
  const deps: RetentionDeps = { db: app.db, chatDir: chatMediaDir(app.config.dataDir), slipsDir: app.deposits.env.uploadsDir, now: () => app.clock.now() };
  let running: Promise<RetentionReport> | null = null;
  const runNow = () => {
    running ??= runUploadRetention(deps).finally(() => {
      running = null;
    });
    return running;
  };
  app.decorate('uploadRetention', { runNow } satisfies UploadRetentionApi);

  let lease: Lease | null = null;
  let timer: NodeJS.Timeout | null = null;
  const intervalMs = opts.intervalMs ?? HOUR;
  app.addHook('onReady', async () => {
    const held = await startJobLease(app, 'upload-retention');
    lease = held;
    if (intervalMs <= 0) return;
    timer = setInterval(() => {
      if (!held.held() || running) return;
      runNow().then(
        (r) => app.log.info({ job: 'upload-retention', ...r }, 'upload retention pass'),
        (e: unknown) => app.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'upload retention pass failed'),
      );
    }, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running?.catch(() => undefined);
    await lease?.stop();
  });
}

export default fp(uploadRetention, { name: 'upload-retention', dependencies: ['db', 'deposits'] });
