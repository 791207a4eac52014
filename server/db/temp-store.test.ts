import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from './index';

/**
 * A group-commit batch keeps its savepoints' undo pages in memory (temp_store = MEMORY, db/index.ts): SQLite spills a
 * statement journal past 64 KiB to a temporary file otherwise, and a batch of transfers wrote it page by page. A child
 * process (this file with TEMP_CHILD_DIR set; SQLITE_TMPDIR is read once, when SQLite starts) runs one batch of
 * transactions that change rows all over a table; the test watches the directory SQLite would put the file in.
 */
const ROOT = path.resolve(__dirname, '..', '..');

async function child(dataDir: string) {
  const { db, destroy } = createDb({ databaseUrl: null, dataDir });
  await sql`create table item (id integer primary key, k text not null unique, v blob not null)`.execute(db);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < 2000; i++) await sql`insert into item (k, v) values (${`k${(i * 7919) % 2000}`}, zeroblob(200))`.execute(trx);
  });
  // 40 transactions waiting together: one batch or a few, each a savepoint touching ~20 pages spread over the table.
  await Promise.all(
    Array.from({ length: 40 }, (_, t) =>
      db.transaction().execute(async (trx) => {
        for (let j = 0; j < 20; j++) await sql`update item set v = zeroblob(201) where id = ${1 + ((t * 97 + j * 101) % 2000)}`.execute(trx);
      }),
    ),
  );
  const n = await sql<{ n: number }>`select count(*) as n from item where length(v) = 201`.execute(db);
  await destroy();
  fs.writeSync(1, `${n.rows[0].n}\n`);
}

if (process.env.TEMP_CHILD_DIR) {
  void child(process.env.TEMP_CHILD_DIR);
} else {
  test('a batch of transactions changing pages all over a table writes no temporary file', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'temp-store-'));
    const tmp = path.join(base, 'tmp');
    const data = path.join(base, 'data');
    fs.mkdirSync(tmp);
    const created: string[] = [];
    // SQLite unlinks its temporary files as soon as it opens them: only a watch sees them.
    const watcher = fs.watch(tmp, (_event, name) => created.push(String(name)));
    try {
      const out = await new Promise<string>((resolve, reject) => {
        const c = spawn(process.execPath, ['--import', 'tsx', __filename], {
          cwd: ROOT,
          env: { ...process.env, TEMP_CHILD_DIR: data, SQLITE_TMPDIR: tmp },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        c.stdout!.on('data', (d) => (stdout += d));
        c.stderr!.on('data', (d) => (stderr += d));
        c.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`child exited with ${code}: ${stderr}`))));
      });
      expect(Number(out.trim())).toBeGreaterThan(100); // the batch did change rows all over the table
      await new Promise((r) => setTimeout(r, 100)); // let the watch deliver what it saw
      expect(created).toEqual([]);
    } finally {
      watcher.close();
      fs.rmSync(base, { recursive: true, force: true });
    }
  }, 60_000);
}
