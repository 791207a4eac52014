/**
 * `npm run backup [-- <file>]` and `npm run restore -- <file> [--replace]`: a consistent online copy of the
 * configured database (DATABASE_URL for PostgreSQL, otherwise DATA_DIR/wallet.sqlite) and bringing it back.
 *
 * - SQLite: SQLite's online backup API, every page in one step, so the copy is one read snapshot while the
 *   server keeps writing (WAL: writers are not blocked). The copy is checked (integrity_check) and switched to
 *   a single self-contained file before it gets its final name.
 * - PostgreSQL: pg_dump (custom format; one snapshot transaction, online), pg_restore --clean in a single
 *   transaction. A search_path in DATABASE_URL's options (`?options=-c search_path=s`) limits both to schema s.
 *
 * Backups go to BACKUP_DIR (default ./backups) unless a file is named; a backup is written under a temporary
 * name and renamed when complete, so a file with the final name is always whole. Restore refuses a target that
 * already holds the wallet's tables unless --replace is given; stop the server before a restore.
 * Exit codes: 0 done, 1 refused or failed, 2 usage or configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import SQLite from 'better-sqlite3';
import pg from 'pg';

export const USAGE = `Usage:
  npm run backup [-- <file>]            copy the database while it runs (default: BACKUP_DIR/wallet-<time>.sqlite|.pgdump)
  npm run restore -- <file> [--replace] bring a copy back (stop the server first; --replace overwrites existing data)
`;

const SQLITE_FILE = 'wallet.sqlite';
/** The table every migrated wallet database has (Kysely's migrator). */
const MIGRATIONS_TABLE = 'kysely_migration';

export class BackupError extends Error {}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

export function defaultBackupFile(engine: 'sqlite' | 'postgres', backupDir: string, now = new Date()): string {
  return path.join(backupDir, `wallet-${stamp(now)}.${engine === 'sqlite' ? 'sqlite' : 'pgdump'}`);
}

function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
}

/**
 * A backup holds every player's phone, bank account and password hash: its folder is made owner-only and the copy is
 * created 0600 before a byte is written (not chmod-ed afterwards, when it has been readable for a while).
 */
function ownerOnlyFile(dest: string, tmp: string): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
  fs.rmSync(tmp, { force: true });
  fs.closeSync(fs.openSync(tmp, 'wx', 0o600));
  fs.chmodSync(tmp, 0o600); // the umask narrows the mode given to open, never widens it; this states it whatever it is
}

function fsyncFile(file: string) {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function checkSqliteCopy(file: string, requireWallet: boolean) {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${file} fails integrity_check: ${String(check)}`);
    const hasMigrations = db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(MIGRATIONS_TABLE);
    if (requireWallet && !hasMigrations) throw new BackupError(`${file} is not a wallet database (no ${MIGRATIONS_TABLE} table)`);
  } finally {
    db.close();
  }
}

/** Online copy of DATA_DIR/wallet.sqlite to `dest` with SQLite's backup API. Returns the pages copied. */
export async function backupSqlite(dataDir: string, dest: string): Promise<number> {
  const source = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`no database: ${source} does not exist (set DATA_DIR or DATABASE_URL)`);
  if (fs.existsSync(dest)) throw new BackupError(`${dest} already exists`);
  const tmp = tempBeside(dest);
  ownerOnlyFile(dest, tmp);
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // All remaining pages in one step: one read snapshot, so writes by other connections cannot restart it.
    const progress = await db.backup(tmp, { progress: () => 0x7fffffff });
    db.close();
    const copy = new SQLite(tmp);
    copy.pragma('journal_mode = DELETE'); // one self-contained file, no -wal beside it
    copy.close();
    checkSqliteCopy(tmp, true);
    fsyncFile(tmp);
    fs.renameSync(tmp, dest);
    return progress.totalPages;
  } catch (e) {
    if (db.open) db.close();
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Brings a SQLite copy back into DATA_DIR/wallet.sqlite. The copy is checked first; the pages are written with
 * the backup API into the target, so its WAL and shared memory stay consistent (no file swapped underneath).
 */
export async function restoreSqlite(src: string, dataDir: string, opts: { replace?: boolean } = {}): Promise<void> {
  if (!fs.existsSync(src)) throw new BackupError(`${src} does not exist`);
  checkSqliteCopy(src, true);
  const target = path.join(dataDir, SQLITE_FILE);
  if (fs.existsSync(target) && !opts.replace) {
    const t = new SQLite(target, { fileMustExist: true });
    const has = t.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(MIGRATIONS_TABLE);
    t.close();
    if (has) throw new BackupError(`${target} already holds a wallet database: stop the server and pass --replace to overwrite it`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const source = new SQLite(src, { readonly: true, fileMustExist: true });
  try {
    await source.backup(target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const restored = new SQLite(target);
  restored.pragma('journal_mode = WAL');
  restored.close();
  checkSqliteCopy(target, true);
}

/** The schema named by `-c search_path=...` in a postgres URL's options, if any. */
export function schemaOf(databaseUrl: string): string | null {
  const options = new URL(databaseUrl).searchParams.get('options');
  const m = options?.match(/search_path=([A-Za-z_][A-Za-z0-9_]*)/);
  return m ? m[1] : null;
}

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw new BackupError(`${cmd} could not run: ${r.error.message}`);
  if (r.status !== 0) throw new BackupError(`${cmd} failed (exit ${r.status}): ${r.stderr.trim()}`);
}

/** Online copy with pg_dump (custom format, one snapshot). */
export function backupPostgres(databaseUrl: string, dest: string): void {
  if (fs.existsSync(dest)) throw new BackupError(`${dest} already exists`);
  const tmp = tempBeside(dest);
  const schema = schemaOf(databaseUrl);
  try {
    ownerOnlyFile(dest, tmp); // pg_dump --file truncates and writes the file it is given, keeping its mode
    run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', ...(schema ? [`--schema=${schema}`] : []), `--file=${tmp}`, `--dbname=${databaseUrl}`]);
    run('pg_restore', ['--list', tmp]); // readable archive
    fsyncFile(tmp);
    fs.renameSync(tmp, dest);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

async function postgresHasWallet(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string | null }>(`select to_regclass($1)::text as t`, [MIGRATIONS_TABLE]);
    return rows[0].t !== null;
  } finally {
    await client.end();
  }
}

/** pg_restore --clean into DATABASE_URL's database, all or nothing (one transaction). */
export async function restorePostgres(src: string, databaseUrl: string, opts: { replace?: boolean } = {}): Promise<void> {
  if (!fs.existsSync(src)) throw new BackupError(`${src} does not exist`);
  run('pg_restore', ['--list', src]);
  if (!opts.replace && (await postgresHasWallet(databaseUrl))) {
    throw new BackupError(`the database already holds the wallet's tables: stop the server and pass --replace to overwrite them`);
  }
  run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${databaseUrl}`, src]);
  await keepAuditAppendOnly(databaseUrl);
}

/**
 * `--no-privileges` restores no grants, so the staff audit log's revokes (migration 202612010400) are made again:
 * the restoring role owns the table and would otherwise hold UPDATE, DELETE and TRUNCATE on it.
 */
async function keepAuditAppendOnly(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string | null }>(`select to_regclass('staff_audit')::text as t`);
    if (rows[0].t === null) return;
    await client.query('REVOKE UPDATE, DELETE, TRUNCATE ON staff_audit FROM PUBLIC');
    await client.query('REVOKE UPDATE, DELETE, TRUNCATE ON staff_audit FROM CURRENT_USER');
  } finally {
    await client.end();
  }
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, out = console.log, err = console.error): Promise<number> {
  const [command, ...rest] = argv;
  const replace = rest.includes('--replace');
  const files = rest.filter((a) => !a.startsWith('--'));
  const databaseUrl = env.DATABASE_URL || null;
  const dataDir = path.resolve(env.DATA_DIR || './data');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    err('DATABASE_URL must be a postgres:// URL');
    return 2;
  }
  const engine = databaseUrl ? 'postgres' : 'sqlite';
  try {
    if (command === 'backup' && files.length <= 1) {
      const dest = path.resolve(files[0] ?? defaultBackupFile(engine, path.resolve(env.BACKUP_DIR || './backups')));
      const started = Date.now();
      if (databaseUrl) backupPostgres(databaseUrl, dest);
      else await backupSqlite(dataDir, dest);
      out(`backup written: ${dest} (${fs.statSync(dest).size} bytes, ${Date.now() - started} ms)`);
      return 0;
    }
    if (command === 'restore' && files.length === 1) {
      const src = path.resolve(files[0]);
      if (databaseUrl) await restorePostgres(src, databaseUrl, { replace });
      else await restoreSqlite(src, dataDir, { replace });
      out(`restored ${src} into ${databaseUrl ? 'DATABASE_URL' : path.join(dataDir, SQLITE_FILE)}; run npm run audit:ledger to check it`);
      return 0;
    }
    err(USAGE);
    return 2;
  } catch (e) {
    err(e instanceof BackupError ? e.message : `${command} failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
