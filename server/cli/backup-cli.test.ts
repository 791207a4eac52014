import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { freshDb, testEngine, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { creditWallet, postEntry } from '../ledger/journal';
import { walletAccount } from '../ledger/accounts';
import { insertPlayer } from '../test/support/ledger';
import { backupPostgres, backupSqlite, schemaOf } from './backup-cli';

const ROOT = path.resolve(__dirname, '..', '..');
let t: TestDb;
let env: Record<string, string>;
let schema: string | null = null;
const dropDatabases: string[] = [];

const withOptions = (url: string, s: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${s}`)}`;

beforeAll(async () => {
  t = await freshDb();
  await seedBase(t.db);
  env = { ...(process.env as Record<string, string>), DATA_DIR: t.dataDir };
  delete env.DATABASE_URL;
  if (testEngine() === 'postgres') {
    const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(t.db);
    schema = rows[0].s;
    env.DATABASE_URL = withOptions(process.env.DATABASE_URL!, schema);
  }
});
afterAll(async () => {
  await t.dispose();
  if (dropDatabases.length) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    for (const name of dropDatabases) await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
});

const cli = (script: string, args: string[], e: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: e, encoding: 'utf8' });

/** The CLI in a child process, without blocking this one (which keeps writing meanwhile). */
const cliAsync = (script: string, args: string[], e: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: e });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

const entryCount = async () => Number((await sql<{ n: number }>`select count(*) as n from journal_entries`.execute(t.db)).rows[0].n);

test('npm run backup copies the database under write load; npm run restore brings it back and the ledger audit passes', async () => {
  const players = [await insertPlayer(t.db), await insertPlayer(t.db), await insertPlayer(t.db)];
  let seq = 0;
  const write = async () => {
    const playerId = players[seq % players.length];
    const n = ++seq;
    await t.db.transaction().execute(async (trx) => {
      await creditWallet(trx, { playerId, amount: 10_000 + n, from: 'deposits_in_transit', kind: 'deposit', reference: `bk-dep-${n}` });
      if (n % 3 === 0) {
        // A transfer to the next player: wallet to wallet, one entry.
        const to = players[(seq + 1) % players.length];
        await postEntry(trx, {
          kind: 'transfer',
          reference: `bk-tr-${n}`,
          playerId,
          postings: [
            { account: walletAccount(playerId), amount: -5_000 },
            { account: walletAccount(to), amount: 5_000 },
          ],
        });
      }
    });
  };
  for (let i = 0; i < 30; i++) await write();

  const file = path.join(t.dataDir, 'backups', testEngine() === 'postgres' ? 'copy.pgdump' : 'copy.sqlite');
  const before = await entryCount();
  let running = true;
  const backup = cliAsync('server/cli/backup-cli.ts', ['backup', file], env).finally(() => (running = false));
  let writesDuringBackup = 0;
  // SQLite writes never leave the microtask queue, so each round also waits a millisecond on a timer: the event
  // loop then blocks in its poll phase, where the child's exit and pipes are read (a setImmediate loop left the
  // exited child unreaped in a busy in-band run and wrote for ever). The cap keeps a stuck child from growing
  // the database without end; the test then fails on the backup's answer instead of hanging.
  while (running && writesDuringBackup < 3_000) {
    await write();
    writesDuringBackup++;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const done = await backup;
  const after = await entryCount();
  expect(done.stderr).toBe('');
  expect(done.stdout).toMatch(/backup written: .*copy\.(sqlite|pgdump)/);
  expect(done.status).toBe(0);
  expect(writesDuringBackup).toBeGreaterThan(0);
  expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]); // no partial file left beside it

  // Restoring over the live database is refused without --replace.
  const refused = cli('server/cli/backup-cli.ts', ['restore', file], env);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/--replace/);

  // Restore into a fresh place: a new DATA_DIR, or a new PostgreSQL database.
  const restoredDir = path.join(t.dataDir, 'restored');
  const restoredEnv: Record<string, string> = { ...env, DATA_DIR: restoredDir };
  if (testEngine() === 'postgres') {
    const name = `restore_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    dropDatabases.push(name);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    restoredEnv.DATABASE_URL = withOptions(url.toString(), schema!);
    expect(schemaOf(restoredEnv.DATABASE_URL)).toBe(schema);
  }
  const restored = cli('server/cli/backup-cli.ts', ['restore', file], restoredEnv);
  expect(restored.stderr).toBe('');
  expect(restored.status).toBe(0);

  const audit = cli('server/cli/audit-cli.ts', [], restoredEnv);
  expect(audit.stderr).toBe('');
  expect(audit.stdout).toMatch(/OK: every invariant holds/);
  expect(audit.status).toBe(0);

  // The copy is one moment of the live database: everything before the backup started, nothing after it ended.
  const restoredDb = await import('../db').then(({ createDb }) =>
    createDb(
      restoredEnv.DATABASE_URL
        ? { databaseUrl: restoredEnv.DATABASE_URL.replace(/[?&]options=.*$/, ''), dataDir: restoredDir, schema: schema! }
        : { databaseUrl: null, dataDir: restoredDir },
    ),
  );
  try {
    const n = Number((await sql<{ n: number }>`select count(*) as n from journal_entries`.execute(restoredDb.db)).rows[0].n);
    expect(n).toBeGreaterThanOrEqual(before);
    expect(n).toBeLessThanOrEqual(after);
    if (testEngine() === 'postgres') {
      // The staff audit log stays append-only for the restoring role (pg_restore --no-privileges copies no revokes).
      const { rows } = await sql<{ p: string }>`SELECT a.privilege_type AS p FROM pg_class c, aclexplode(c.relacl) a
        WHERE c.oid = 'staff_audit'::regclass AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = current_user)`.execute(restoredDb.db);
      expect(rows.map((r) => r.p)).toContain('INSERT');
      expect(rows.map((r) => r.p)).not.toContain('UPDATE');
    }
  } finally {
    await restoredDb.destroy();
  }
}, 120_000);

test('usage and a missing database answer with an exit code, not a stack trace', () => {
  const usage = cli('server/cli/backup-cli.ts', ['nonsense'], env);
  expect(usage.status).toBe(2);
  expect(usage.stderr).toMatch(/npm run backup/);
  if (testEngine() === 'sqlite') {
    const missing = cli('server/cli/backup-cli.ts', ['backup', path.join(t.dataDir, 'x.sqlite')], { ...env, DATA_DIR: path.join(t.dataDir, 'nowhere') });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no database/);
  }
}, 60_000);

test('a backup is written owner-only (0600, its new folder 0700) whatever the umask (issue 39)', async () => {
  const dir = path.join(t.dataDir, `private-${crypto.randomBytes(4).toString('hex')}`);
  const file = path.join(dir, testEngine() === 'postgres' ? 'mode.pgdump' : 'mode.sqlite');
  const old = process.umask(0o022); // the usual default: files 0644, readable by every local account
  try {
    if (testEngine() === 'postgres') backupPostgres(env.DATABASE_URL, file);
    else await backupSqlite(t.dataDir, file);
  } finally {
    process.umask(old);
  }
  expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe('700');
  expect(fs.statSync(file).size).toBeGreaterThan(0);
});
