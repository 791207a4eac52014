import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { createDb } from './index';

/**
 * Crash proof of group commit: a child process (this file run with CRASH_CHILD_DIR set) runs waves of concurrent
 * transactions through createDb and writes each id to stdout, synchronously, once its promise resolved. It is killed
 * with SIGKILL at a random moment. The file must then hold every reported transaction, whole, and no part of any
 * other: each transaction inserts three rows and adds 1 to a counter, and some roll back after their first insert.
 * Beside them, writes outside a transaction (each one row of `mark`, reported as `m<id>`), which join the batches:
 * each reported one must be in the file too.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const ROWS_PER_TX = 3;
const failing = (id: number) => id % 7 === 3;

async function child(dataDir: string) {
  const { db } = createDb({ databaseUrl: null, dataDir });
  await sql`create table if not exists item (id integer primary key, tx integer not null)`.execute(db);
  await sql`create table if not exists counter (id integer primary key, n integer not null)`.execute(db);
  await sql`create table if not exists mark (id integer primary key)`.execute(db);
  await sql`insert or ignore into counter (id, n) values (1, 0)`.execute(db);
  fs.writeSync(1, 'ready\n');
  for (let next = 1; ; ) {
    const wave = Array.from({ length: 40 }, () => next++);
    const marks = wave.filter((id) => id % 5 === 0).map((id) => sql`insert into mark (id) values (${id})`.execute(db).then(() => fs.writeSync(1, `m${id}\n`)));
    await Promise.allSettled([
      ...marks,
      ...wave.map((id) =>
        db
          .transaction()
          .execute(async (trx) => {
            await sql`insert into item (tx) values (${id})`.execute(trx);
            if (failing(id)) throw new Error('rolled back on purpose');
            for (let i = 1; i < ROWS_PER_TX; i++) await sql`insert into item (tx) values (${id})`.execute(trx);
            await sql`update counter set n = n + 1 where id = 1`.execute(trx);
          })
          .then(() => fs.writeSync(1, `${id}\n`)),
      ),
    ]);
  }
}

if (process.env.CRASH_CHILD_DIR) {
  void child(process.env.CRASH_CHILD_DIR);
} else {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-crash-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  function runAndKill(afterMs: number): Promise<{ reported: number[]; marks: number[] }> {
    return new Promise((resolve, reject) => {
      const c = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'group-commit.crash.test.ts')], {
        cwd: ROOT,
        env: { ...process.env, CRASH_CHILD_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      c.stdout!.on('data', (d) => {
        const first = !out.includes('ready\n');
        out += d;
        if (first && out.includes('ready\n')) setTimeout(() => c.kill('SIGKILL'), afterMs);
      });
      c.stderr!.on('data', (d) => (err += d));
      c.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') return reject(new Error(`child exited with ${code}: ${err}`));
        // Only whole lines: a line cut by the kill was not reported.
        const lines = out.split('\n').slice(0, -1);
        resolve({ reported: lines.filter((l) => /^\d+$/.test(l)).map(Number), marks: lines.filter((l) => /^m\d+$/.test(l)).map((l) => Number(l.slice(1))) });
      });
    });
  }

  test('SIGKILL at a random moment: every transaction and write reported resolved is in the file, whole; nothing partial', async () => {
    for (let round = 0; round < 3; round++) {
      const { reported, marks } = await runAndKill(150 + Math.floor(Math.random() * 500));
      expect(reported.length).toBeGreaterThan(0);
      expect(marks.length).toBeGreaterThan(0);
      const f = new SQLite(path.join(dataDir, 'wallet.sqlite'));
      try {
        const rows = f.prepare('select tx, count(*) as n from item group by tx').all() as { tx: number; n: number }[];
        const { n: counter } = f.prepare('select n from counter where id = 1').get() as { n: number };
        const present = new Map(rows.map((r) => [r.tx, r.n]));
        for (const id of reported) expect([id, present.get(id)]).toEqual([id, ROWS_PER_TX]);
        for (const [tx, n] of present) {
          expect([tx, n]).toEqual([tx, ROWS_PER_TX]);
          expect(failing(tx)).toBe(false);
        }
        expect(counter).toBe(present.size);
        const marked = new Set((f.prepare('select id from mark').all() as { id: number }[]).map((r) => r.id));
        for (const id of marks) expect([id, marked.has(id)]).toEqual([id, true]);
        // Each round's child starts its ids at 1 again: clear the table for the next round.
        f.exec('delete from item; delete from mark; update counter set n = 0');
      } finally {
        f.close();
      }
    }
  }, 60_000);
}
