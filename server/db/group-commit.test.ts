import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { GroupCommitSqliteDialect, type GroupCommitStats } from './group-commit';
import { createDb, withStatementCache } from './index';

/** Group commit against real SQLite files (WAL, synchronous=FULL), the way createDb opens them. */

interface T {
  item: { id: Generated<number>; tx: number };
  parent: { id: number };
  child: { id: number; parent_id: number };
}

let dir: string;
const open: { close(): void }[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-'));
});

afterEach(() => {
  for (const c of open.splice(0)) {
    try {
      c.close();
    } catch {
      // already closed by db.destroy()
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function openFile(file = path.join(dir, 'gc.sqlite')) {
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.exec(`
    CREATE TABLE IF NOT EXISTS item (id INTEGER PRIMARY KEY, tx INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS parent (id INTEGER PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
  `);
  open.push(database);
  return { database, file };
}

/** A Kysely over a group-commit dialect whose statements log every run ("commit", "select ...") into `events`. */
function groupCommitDb(opts: { maxBatch?: number; maxDelayMs?: number; onRun?: (text: string) => void; withReader?: boolean } = {}) {
  const { database, file } = openFile();
  const events: string[] = [];
  const cached = withStatementCache(database);
  const statements = {
    prepare(text: string) {
      const stmt = cached.prepare(text);
      const log = () => {
        events.push(text);
        opts.onRun?.(text);
      };
      return {
        reader: stmt.reader,
        all: (p: unknown[]) => (log(), stmt.all(p)),
        run: (p: unknown[] = []) => (log(), stmt.run(p)),
      };
    },
    close: () => cached.close(),
  } as unknown as Pick<SQLite.Database, 'prepare' | 'close'>;
  const reader = opts.withReader ? withStatementCache(observer(file)) : undefined;
  // The age trigger is off unless a test sets it: commit counts must not depend on how busy the machine is (jest
  // under load took more than 5 ms between transactions and cut batches: seen in a full run).
  const dialect = new GroupCommitSqliteDialect({ database, statements, reader, maxBatch: opts.maxBatch, maxDelayMs: opts.maxDelayMs ?? 600_000 });
  const db = new Kysely<T>({ dialect });
  return { db, events, stats: dialect.stats as GroupCommitStats, database, file };
}

/** What another connection sees: only what has been committed. */
function observer(file: string) {
  const o = new SQLite(file, { readonly: true });
  open.push(o);
  return o;
}

const insertTwo = (db: Kysely<T>, tx: number) =>
  db.transaction().execute(async (trx) => {
    await trx.insertInto('item').values({ tx }).execute();
    await trx.insertInto('item').values({ tx }).execute();
    return tx;
  });

test('50 concurrent transactions share a few COMMITs and all their rows are there', async () => {
  const { db, events, stats, file } = groupCommitDb();
  const ids = Array.from({ length: 50 }, (_, i) => i + 1);
  expect(await Promise.all(ids.map((i) => insertTwo(db, i)))).toEqual(ids);
  const commits = events.filter((e) => e === 'commit').length;
  expect(commits).toBe(stats.commits);
  expect(commits).toBeGreaterThanOrEqual(1);
  // Batches close on the 5 ms age too (jest's transformed code is slow): 50 transactions, a handful of fsyncs.
  expect(commits).toBeLessThanOrEqual(10);
  expect(stats.transactions).toBe(50);
  expect(events.filter((e) => e === 'begin immediate').length).toBe(commits);
  const o = observer(file);
  expect(o.prepare('select tx, count(*) as n from item group by tx order by tx').all()).toEqual(ids.map((tx) => ({ tx, n: 2 })));
  await db.destroy();
});

test('a lone transaction pays one COMMIT and is answered at once', async () => {
  const { db, events } = groupCommitDb();
  await insertTwo(db, 1);
  expect(events).toEqual(['begin immediate', 'savepoint group_commit_trx', expect.stringMatching(/^insert/), expect.stringMatching(/^insert/), 'release group_commit_trx', 'commit']);
  await insertTwo(db, 2);
  expect(events.filter((e) => e === 'commit')).toHaveLength(2);
  await db.destroy();
});

test('the cap bounds a batch', async () => {
  const { db, stats } = groupCommitDb({ maxBatch: 8, maxDelayMs: 10_000 });
  await Promise.all(Array.from({ length: 40 }, (_, i) => insertTwo(db, i)));
  expect(stats.commits).toBeGreaterThanOrEqual(5);
  await db.destroy();
});

test('a batch open longer than maxDelayMs commits when its current transaction ends, even with others waiting', async () => {
  const { db, stats } = groupCommitDb({ maxDelayMs: 20 });
  const slow = db.transaction().execute(async (trx) => {
    await trx.insertInto('item').values({ tx: 0 }).execute();
    await new Promise((r) => setTimeout(r, 40)); // the batch is older than 20 ms when this one ends
  });
  const waiting = Array.from({ length: 5 }, (_, i) => insertTwo(db, i + 1));
  await Promise.all([slow, ...waiting]);
  // The slow one's end commits at once (its batch is too old), before the five waiting ones run: two commits, not one.
  expect(stats.commits).toBe(2);
  expect(stats.transactions).toBe(6);
  await db.destroy();
});

test('no transaction is answered before the COMMIT that holds it ran', async () => {
  const { db, events, file } = groupCommitDb();
  const o = observer(file);
  const seen: number[] = [];
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      insertTwo(db, i).then((tx) => {
        events.push(`resolved ${tx}`);
        // Another connection already sees it: it is committed (and, with synchronous=FULL, durable).
        seen.push((o.prepare('select count(*) as n from item where tx = ?').get(tx) as { n: number }).n);
      }),
    ),
  );
  expect(seen).toEqual(Array(30).fill(2));
  // Each "resolved" comes after a commit that came after its transaction's release.
  let released = 0;
  let committed = 0;
  let resolved = 0;
  for (const e of events) {
    if (e === 'release group_commit_trx') released++;
    else if (e === 'commit') committed = released;
    else if (e.startsWith('resolved')) expect(++resolved).toBeLessThanOrEqual(committed);
  }
  expect(resolved).toBe(30);
  await db.destroy();
});

test('a failing transaction rolls back alone and rejects; the others in its batch commit', async () => {
  const { db, stats, file } = groupCommitDb();
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('item').values({ tx: i }).execute();
        if (i === 7) await trx.insertInto('item').values({ id: 1, tx: i }).execute(); // duplicate key
        if (i === 11) throw new Error('changed my mind');
        await trx.insertInto('item').values({ tx: i }).execute();
      }),
    ),
  );
  expect(results[7]).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/UNIQUE/) } });
  expect(results[11]).toMatchObject({ status: 'rejected', reason: { message: 'changed my mind' } });
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(18);
  expect(stats.commits).toBeLessThan(5);
  const rows = observer(file).prepare('select tx, count(*) as n from item group by tx order by tx').all();
  expect(rows).toEqual(Array.from({ length: 20 }, (_, tx) => ({ tx, n: 2 })).filter((r) => r.tx !== 7 && r.tx !== 11));
  await db.destroy();
});

test('a failing COMMIT rejects every transaction of the batch and rolls it all back', async () => {
  const { db, stats, file } = groupCommitDb();
  await db.insertInto('parent').values({ id: 1 }).execute();
  // A deferred foreign key is checked at the outer COMMIT only: the batch holding the orphan cannot commit.
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('child').values({ id: i + 1, parent_id: i === 5 ? 99 : 1 }).execute();
      }),
    ),
  );
  expect(stats.failedBatches).toBe(1);
  // The first transaction ran alone (nobody waited yet) or not: whatever shared the orphan's batch is rejected.
  const rejected = results.filter((r) => r.status === 'rejected');
  expect(rejected.length).toBeGreaterThan(1);
  for (const r of rejected) expect(r).toMatchObject({ reason: { message: expect.stringMatching(/FOREIGN KEY/) } });
  const o = observer(file);
  const kept = (o.prepare('select id from child order by id').all() as { id: number }[]).map((r) => r.id);
  const fulfilled = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i + 1] : []));
  expect(kept).toEqual(fulfilled);
  // The connection is usable again.
  await insertTwo(db, 1);
  expect(o.prepare('select count(*) as n from item').get()).toEqual({ n: 2 });
  await db.destroy();
});

test('a query outside a transaction never sees rows of a batch not yet committed, and is a commit point', async () => {
  const ref = {} as { database: SQLite.Database; o: SQLite.Database };
  const checks: { inBatch: boolean; committed: number }[] = [];
  const env = groupCommitDb({
    onRun: (text) => {
      if (text.startsWith('select count(*)')) {
        checks.push({ inBatch: ref.database.inTransaction, committed: (ref.o.prepare('select count(*) as n from item').get() as { n: number }).n });
      }
    },
  });
  ref.database = env.database;
  ref.o = observer(env.file);
  const reads: Promise<number>[] = [];
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < 40; i++) {
    writes.push(insertTwo(env.db, i));
    if (i % 4 === 1) {
      reads.push(
        env.db
          .selectFrom('item')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => r.n),
      );
    }
  }
  await Promise.all(writes);
  const results = await Promise.all(reads);
  expect(checks).toHaveLength(10);
  for (const c of checks) expect(c.inBatch).toBe(false);
  // What each read returned is exactly what another connection saw committed when it ran (reads run in FIFO order).
  expect(results).toEqual(checks.map((c) => c.committed));
  expect(results.some((n) => n > 0 && n < 80)).toBe(true); // the reads really interleaved with the batches
  expect(env.stats.commits).toBeLessThan(40);
  await env.db.destroy();
});

test('with a reader connection, reads outside a transaction see committed rows only, do not wait for the writer and do not cut batches', async () => {
  const ref = {} as { o: SQLite.Database };
  const env = groupCommitDb({ withReader: true });
  ref.o = observer(env.file);
  const committedNow = () => (ref.o.prepare('select count(*) as n from item').get() as { n: number }).n;
  const read = () =>
    env.db
      .selectFrom('item')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => r.n);

  // A transaction holds the writer's connection across an await: a read meanwhile answers at once, without its row.
  let release!: () => void;
  const held = env.db.transaction().execute(async (trx) => {
    await trx.insertInto('item').values({ tx: 0 }).execute();
    await new Promise<void>((r) => (release = r));
  });
  await new Promise((r) => setImmediate(r));
  expect(await read()).toBe(0);
  release();
  await held;
  expect(await read()).toBe(1);

  // Reads interleaved with batches: each returns exactly what was committed when it ran, and batches stay whole.
  const seen: Promise<{ got: number; committedBefore: number }>[] = [];
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < 40; i++) {
    writes.push(insertTwo(env.db, i));
    if (i % 4 === 1) {
      const committedBefore = committedNow();
      seen.push(read().then((got) => ({ got, committedBefore })));
    }
  }
  await Promise.all(writes);
  for (const { got, committedBefore } of await Promise.all(seen)) {
    expect(got).toBeGreaterThanOrEqual(committedBefore);
    expect(got % 2).toBe(1); // the first transaction's one row plus whole transactions of two rows: never half of one
  }
  expect(env.stats.commits).toBeLessThanOrEqual(6);
  // A write outside a transaction still takes the writer and answers after its own durable commit.
  await env.db.insertInto('parent').values({ id: 1 }).execute();
  expect(ref.o.prepare('select count(*) as n from parent').get()).toEqual({ n: 1 });
  await env.db.destroy();
});

test('an autocommit write arriving while a batch is open runs after its COMMIT, in its own durable commit', async () => {
  const ref = {} as { database: SQLite.Database };
  const inBatchAtWrite: boolean[] = [];
  const env = groupCommitDb({ onRun: (text) => text.startsWith('insert into "parent"') && inBatchAtWrite.push(ref.database.inTransaction) });
  ref.database = env.database;
  const o = observer(env.file);
  const done: Promise<unknown>[] = [];
  for (let i = 0; i < 10; i++) {
    done.push(insertTwo(env.db, i));
    done.push(
      env.db
        .insertInto('parent')
        .values({ id: i + 1 })
        .execute()
        .then(() => expect(o.prepare('select count(*) as n from parent where id = ?').get(i + 1)).toEqual({ n: 1 })),
    );
  }
  await Promise.all(done);
  expect(inBatchAtWrite).toEqual(Array(10).fill(false));
  await env.db.destroy();
});

test('with a reader, writes outside a transaction join the batch: answered only once durable, a failed one fails alone', async () => {
  const ref = {} as { database: SQLite.Database };
  const inBatchAtWrite: boolean[] = [];
  const env = groupCommitDb({ withReader: true, onRun: (text) => text.startsWith('insert into "parent"') && inBatchAtWrite.push(ref.database.inTransaction) });
  ref.database = env.database;
  const o = observer(env.file);
  const committed = (id: number) => (o.prepare('select count(*) as n from parent where id = ?').get(id) as { n: number }).n;
  const done: Promise<unknown>[] = [];
  const refused: unknown[] = [];
  for (let i = 0; i < 10; i++) {
    done.push(insertTwo(env.db, i));
    // Each write is answered only when another connection sees it committed.
    done.push(env.db.insertInto('parent').values({ id: i + 1 }).execute().then(() => expect(committed(i + 1)).toBe(1)));
    // The same key again: refused by itself; the batch it ran in commits the rest.
    if (i === 4) done.push(env.db.insertInto('parent').values({ id: 1 }).execute().catch((e: unknown) => refused.push(e)));
  }
  await Promise.all(done);
  expect(refused).toHaveLength(1);
  expect(String(refused[0])).toMatch(/UNIQUE constraint failed/);
  expect(inBatchAtWrite.filter((x) => x)).toHaveLength(11); // every write ran inside a batch
  expect(o.prepare('select count(*) as n from item').get()).toEqual({ n: 20 });
  expect(o.prepare('select count(*) as n from parent').get()).toEqual({ n: 10 });
  // 10 transactions and 10 writes (the refused one is not counted), in fewer commits than writes alone would take.
  expect(env.stats.transactions).toBe(20);
  expect(env.stats.commits).toBeLessThan(10);
  await env.db.destroy();
});

test('a write outside a transaction that fails as its batch\'s first leaves no batch open behind it', async () => {
  const env = groupCommitDb({ withReader: true });
  await env.db.insertInto('parent').values({ id: 1 }).execute();
  expect(env.database.inTransaction).toBe(false);
  // Matched as text: better-sqlite3's native part is loaded once per jest worker, so after another test file its
  // errors come from that file's realm, and `rejects.toThrow` does not take them for errors ("did not throw").
  const refused = await env.db.insertInto('parent').values({ id: 1 }).execute().then(() => 'written', (e: unknown) => String(e));
  expect(refused).toMatch(/UNIQUE constraint failed/);
  // Its batch (opened for it, holding nothing) is committed at the end of the turn, as a transaction's would be.
  for (let turns = 0; env.database.inTransaction && turns < 100; turns++) await new Promise((r) => setImmediate(r));
  expect(env.database.inTransaction).toBe(false);
  // Another connection (another process) takes the file's write lock at once.
  const other = new SQLite(env.file, { timeout: 0 });
  open.push(other);
  expect(() => other.exec('begin immediate; rollback')).not.toThrow();
  await env.db.destroy();
});

test('a transaction started inside another one\'s callback waits for the connection, as with one commit per transaction', async () => {
  const { db, stats, file } = groupCommitDb();
  let inner: Promise<number> | undefined;
  const outer = await db.transaction().execute(async (trx) => {
    await trx.insertInto('item').values({ tx: 1 }).execute();
    inner = insertTwo(db, 2); // not awaited: it runs after the outer one released the connection
    await new Promise((r) => setTimeout(r, 20));
    return 1;
  });
  expect(outer).toBe(1);
  expect(await inner).toBe(2);
  await Promise.all([insertTwo(db, 3), insertTwo(db, 4)]);
  expect(observer(file).prepare('select count(*) as n from item').get()).toEqual({ n: 7 });
  expect(stats.transactions).toBe(4);
  await db.destroy();
});

test('awaiting a nested transaction waits forever, today and with group commit alike', async () => {
  const timeout = <X>(p: Promise<X>) => Promise.race([p, new Promise((r) => setTimeout(() => r('timed out'), 300))]);
  const nested = (db: Kysely<T>) => db.transaction().execute(async () => insertTwo(db, 1));
  const plain = new Kysely<T>({ dialect: new SqliteDialect({ database: openFile(path.join(dir, 'plain.sqlite')).database }) });
  expect(await timeout(nested(plain))).toBe('timed out');
  const { db } = groupCommitDb();
  expect(await timeout(nested(db))).toBe('timed out');
  // (both connections stay taken: the files are closed in afterEach)
});

test('savepoints inside a transaction still work', async () => {
  const { db, file } = groupCommitDb();
  await Promise.all([
    insertTwo(db, 1),
    db
      .startTransaction()
      .execute()
      .then(async (trx) => {
        await trx.insertInto('item').values({ tx: 2 }).execute();
        const sp = await trx.savepoint('a').execute();
        await sp.insertInto('item').values({ tx: 2 }).execute();
        await sp.rollbackToSavepoint('a').execute();
        await sp.commit().execute();
      }),
    insertTwo(db, 3),
  ]);
  expect(observer(file).prepare('select tx, count(*) as n from item group by tx order by tx').all()).toEqual([
    { tx: 1, n: 2 },
    { tx: 2, n: 1 },
    { tx: 3, n: 2 },
  ]);
  await db.destroy();
});

test('createDb uses group commit on SQLite unless told not to', async () => {
  const on = createDb({ databaseUrl: null, dataDir: dir, sqliteFile: 'on.sqlite' });
  await sql`create table t (x integer)`.execute(on.db); // a write outside a transaction: one of its own, committed
  const before = { ...on.groupCommit! };
  await Promise.all(Array.from({ length: 20 }, (_, x) => on.db.transaction().execute((trx) => sql`insert into t values (${x})`.execute(trx))));
  expect(on.groupCommit!.transactions - before.transactions).toBe(20);
  expect(on.groupCommit!.commits - before.commits).toBeLessThan(20);
  await on.destroy();
  const off = createDb({ databaseUrl: null, dataDir: dir, sqliteFile: 'off.sqlite', groupCommit: false });
  expect(off.groupCommit).toBeUndefined();
  await off.destroy();
});

test("createDb's batches stay open 20 ms while transactions keep coming (fewer, larger COMMITs under load)", async () => {
  const { db, groupCommit, destroy } = createDb({ databaseUrl: null, dataDir: dir, sqliteFile: 'delay.sqlite' });
  await sql`create table t (x integer)`.execute(db);
  const before = { ...groupCommit! };
  const started = Date.now();
  // All queued at once, each holding the connection for 1-2 ms: someone always waits for it, so only a batch's age
  // (or its cap of 64, out of reach at 1 ms or more each) commits a batch before the last transaction.
  await Promise.all(
    Array.from({ length: 100 }, (_, x) =>
      db.transaction().execute(async (trx) => {
        await sql`insert into t values (${x})`.execute(trx);
        const until = Date.now() + 1;
        while (Date.now() <= until);
      }),
    ),
  );
  const elapsed = Date.now() - started;
  const commits = groupCommit!.commits - before.commits;
  expect(groupCommit!.transactions - before.transactions).toBe(100);
  expect(commits).toBeGreaterThan(1); // batches do close by age
  // Each batch closed by age was at least 20 ms old: at most one such COMMIT per 20 ms, plus the last batch's.
  expect(commits).toBeLessThanOrEqual(Math.floor(elapsed / 20) + 1);
  await destroy();
});

test('when SQLite rolls the whole batch back by itself, every transaction of that batch rejects', async () => {
  const { db, stats, file } = groupCommitDb({ maxDelayMs: 10_000 });
  await db.insertInto('item').values({ id: 1000, tx: 0 }).execute();
  // INSERT OR ROLLBACK undoes the whole (outer) transaction on conflict, like an I/O or full-disk error would.
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) =>
      db.transaction().execute(async (trx) => {
        if (i === 6) await sql`insert or rollback into item (id, tx) values (1000, 6)`.execute(trx);
        await trx.insertInto('item').values({ tx: i + 1 }).execute();
      }),
    ),
  );
  expect(stats.failedBatches).toBe(1);
  expect(results[6]).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/UNIQUE/) } });
  const lost = results.slice(0, 6).filter((r) => r.status === 'rejected');
  expect(lost.length).toBeGreaterThan(0);
  for (const r of lost) expect(r).toMatchObject({ reason: { message: 'the group commit batch was rolled back by SQLite' } });
  // Whatever was answered is there, and nothing else.
  const o = observer(file);
  const kept = (o.prepare('select tx from item where tx > 0 order by tx').all() as { tx: number }[]).map((r) => r.tx);
  expect(kept).toEqual(results.flatMap((r, i) => (r.status === 'fulfilled' ? [i + 1] : [])));
  expect(kept).toEqual(expect.arrayContaining([8, 9, 10]));
  await db.destroy();
});

test('transactions reaching the connection from separate callbacks of one event-loop turn share a commit', async () => {
  // As in the server: each request starts from its own I/O callback and runs its transaction to the end within it,
  // so nobody ever waits for the connection; the COMMIT waits for the end of the turn instead.
  const { db, stats, file } = groupCommitDb();
  const done = await Promise.all(
    Array.from({ length: 10 }, (_, i) => new Promise<number>((resolve, reject) => setImmediate(() => insertTwo(db, i).then(resolve, reject)))),
  );
  expect(done).toEqual(Array.from({ length: 10 }, (_, i) => i));
  expect(stats.transactions).toBe(10);
  expect(stats.commits).toBeLessThanOrEqual(2);
  expect(observer(file).prepare('select count(*) as n from item').get()).toEqual({ n: 20 });
  await db.destroy();
});
