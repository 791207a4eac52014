import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult } from 'kysely';
import type SQLite from 'better-sqlite3';

/**
 * Group commit for SQLite (issue 13; rules in docs/ledger.md "Group commit").
 *
 * With synchronous=FULL every COMMIT waits for an fsync, and Kysely's SqliteDriver commits each transaction on its
 * own. This driver still runs the transactions one at a time on the one connection, but each is a SAVEPOINT inside
 * an outer batch transaction (BEGIN IMMEDIATE, opened by the first). Its commit RELEASEs the savepoint, hands the
 * connection to the next waiting request, and its promise settles only when the outer COMMIT holding it returned:
 * nothing answers before its writes are durable, and the transactions waiting together share one fsync.
 *
 * Commit points (never while a savepoint is open: only the connection's holder commits, between transactions):
 * - when the holder is done and nobody waits for the connection: at the end of that event-loop turn (setImmediate,
 *   see #scheduleFlush), so the requests ready in the same turn join; a lone request pays one commit, as before;
 * - when the batch holds `maxBatch` transactions or has been open `maxDelayMs`;
 * - without a reader connection, before any query outside a transaction (it must not read, and return, rows not yet
 *   durable; a write runs after the batch's COMMIT in its own durable autocommit). With a reader, a write outside a
 *   transaction joins the batch as a transaction of one statement (#writeInBatch).
 * Reads outside a transaction go to a second, read-only connection when one is given (createDb gives one): WAL lets
 * it see only committed rows, so it never sees a batch before its COMMIT, never waits for the writer's connection
 * and does not cut batches short.
 * A rollback undoes its savepoint only. A failed COMMIT rolls the batch back and rejects all its transactions (none
 * was answered yet).
 */

export interface GroupCommitOptions {
  /** Commit once the batch holds this many transactions even if more are waiting. */
  maxBatch?: number;
  /** Commit once the batch has been open this long (checked when a transaction ends) even if more are waiting. */
  maxDelayMs?: number;
}

export interface GroupCommitStats {
  /** Outer COMMITs that succeeded. */
  commits: number;
  /** Transactions released into a batch (a write outside a transaction counts as one). */
  transactions: number;
  /** Batches whose COMMIT failed or that SQLite rolled back (all their transactions rejected). */
  failedBatches: number;
}

export interface GroupCommitConfig extends GroupCommitOptions {
  /** The connection: for `inTransaction` (did SQLite roll the batch back by itself?). */
  database: Pick<SQLite.Database, 'inTransaction' | 'close'>;
  /** Where statements come from (withStatementCache in index.ts); defaults to database.prepare. */
  statements?: Pick<SQLite.Database, 'prepare' | 'close'>;
  /**
   * Statements of a read-only connection to the same file: reads outside a transaction run there (committed rows
   * only) without the writer's connection. Without it they take the writer's connection and commit the batch first.
   */
  reader?: Pick<SQLite.Database, 'prepare' | 'close'>;
}

export const DEFAULT_MAX_BATCH = 64;
/**
 * How long a batch may stay open while transactions keep arriving (under load; a lone transaction commits at the end
 * of its turn). Each COMMIT writes the batch's pages to the WAL, two system calls a page, and a transfer's pages are
 * mostly per-player index pages that only a bigger batch shares: at 5 ms the bench's transfer load committed ~140
 * batches a second of ~11 transactions, the COMMITs ~23-28 % of the main thread; at 20 ms ~50 a second of ~39, and
 * the same load ran 982-1,083 instead of 623-816 transfers a second, p50 41-44 instead of 52-59 ms and p99 86-116
 * instead of 139-201 ms (three interleaved pairs of runs, 2026-11-28). 40 ms gained nothing more (a batch cannot
 * outgrow the transactions in flight).
 */
export const DEFAULT_MAX_DELAY_MS = 20;
const SAVEPOINT = 'group_commit_trx';

export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly stats: GroupCommitStats = { commits: 0, transactions: 0, failedBatches: 0 };
  readonly #config: GroupCommitConfig;

  constructor(config: GroupCommitConfig) {
    const statements = config.statements ?? (config.database as SQLite.Database);
    super({ database: statements as SQLite.Database });
    this.#config = { ...config, statements };
  }

  override createDriver(): Driver {
    return new GroupCommitDriver(this.#config, this.stats);
  }
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

interface Batch {
  openedAt: number;
  /** Transactions released into the batch, each answered at its COMMIT. */
  pending: Deferred[];
  /** A COMMIT is queued for the end of this event-loop turn (see #scheduleFlush). */
  flushScheduled: boolean;
}

/**
 * One use of the connection, from acquireConnection to releaseConnection (or to the hand-off at its commit). It
 * takes the writer's connection (the mutex) only when it needs it: a transaction, a write, or a read with no reader.
 */
class Lease implements DatabaseConnection {
  inTransaction = false;
  handedOff = false;
  /** Holds the writer's connection. */
  locked = false;
  constructor(private readonly driver: GroupCommitDriver) {}
  executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, q);
  }
  /** A statement of the transaction this lease holds, run now (see transactionStatements). */
  executeNow<R>(text: string, parameters: unknown[]): QueryResult<R> {
    return this.driver.executeInTransaction<R>(this, text, parameters);
  }
  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // The statement cache cannot keep a statement busy across yields; run it whole, hand the rows out one by one.
    for (const row of (await this.driver.execute<R>(this, q)).rows) yield { rows: [row] };
  }
}

/** FIFO ownership of the one connection; unlock hands it straight to the next waiter. */
class Mutex {
  #locked = false;
  readonly #queue: (() => void)[] = [];
  get waiters() {
    return this.#queue.length;
  }
  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }
  unlock() {
    const next = this.#queue.shift();
    if (next) next();
    else this.#locked = false;
  }
}

/**
 * Runs a statement of a transaction's connection synchronously, without Kysely's executor (prepared.ts): undefined
 * unless `connection` is this driver's, in a transaction. Kysely's way to a statement (its connection provider's
 * queue, the plugins' result hooks, several async layers: about ten promises a statement) was about a tenth of a
 * wallet -> game transfer's CPU on SQLite, for statements that run synchronously in the end.
 */
export function transactionStatements(connection: DatabaseConnection): ((text: string, parameters: unknown[]) => QueryResult<unknown>) | undefined {
  if (!(connection instanceof Lease) || !connection.inTransaction) return undefined;
  return (text, parameters) => connection.executeNow(text, parameters);
}

export class GroupCommitDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #database: GroupCommitConfig['database'];
  readonly #statements: Pick<SQLite.Database, 'prepare' | 'close'>;
  readonly #reader: Pick<SQLite.Database, 'prepare' | 'close'> | undefined;
  readonly #maxBatch: number;
  readonly #maxDelayMs: number;
  #batch: Batch | null = null;

  constructor(
    config: GroupCommitConfig,
    readonly stats: GroupCommitStats = { commits: 0, transactions: 0, failedBatches: 0 },
  ) {
    this.#database = config.database;
    this.#statements = config.statements ?? (config.database as SQLite.Database);
    this.#reader = config.reader;
    this.#maxBatch = config.maxBatch ?? DEFAULT_MAX_BATCH;
    this.#maxDelayMs = config.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const lease = new Lease(this);
    if (!this.#reader) await this.#lock(lease);
    return lease;
  }

  async #lock(lease: Lease) {
    if (lease.locked) return;
    await this.#mutex.lock();
    lease.locked = true;
  }

  async beginTransaction(connection: DatabaseConnection) {
    const lease = connection as Lease;
    await this.#lock(lease);
    this.#openBatch();
    this.#run(`savepoint ${SAVEPOINT}`);
    lease.inTransaction = true;
  }

  /** The open batch, or a new one (BEGIN IMMEDIATE): only the holder of the writer's connection calls it. */
  #openBatch(): Batch {
    if (!this.#batch) {
      this.#run('begin immediate');
      this.#batch = { openedAt: Date.now(), pending: [], flushScheduled: false };
    }
    return this.#batch;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!this.#database.inTransaction) {
      // SQLite rolled the whole batch back by itself (an I/O or full-disk error): none of it can be answered.
      const e = new Error('the group commit batch was rolled back by SQLite');
      lease.inTransaction = false;
      this.#failBatch(e);
      throw e;
    }
    this.#run(`release ${SAVEPOINT}`); // if this throws, Kysely calls rollbackTransaction: the lease is still in it
    lease.inTransaction = false;
    this.stats.transactions++;
    const done = deferred();
    const batch = this.#batch!;
    batch.pending.push(done);
    if (this.#full(batch)) {
      this.#commitBatch();
    } else {
      if (this.#mutex.waiters === 0) this.#scheduleFlush(batch);
      // Kysely releases the connection only after this promise settles; the next waiter gets it now instead, and
      // this transaction's answer waits for the COMMIT that a later holder runs.
      lease.handedOff = true;
      this.#mutex.unlock();
    }
    return done.promise;
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const lease = connection as Lease;
    if (!lease.inTransaction) return; // its RELEASE went through, and the batch's COMMIT failed: already rejected
    lease.inTransaction = false;
    if (!this.#database.inTransaction) {
      this.#failBatch(new Error('the group commit batch was rolled back by SQLite'));
      return;
    }
    try {
      this.#run(`rollback to ${SAVEPOINT}`);
      this.#run(`release ${SAVEPOINT}`);
    } catch (e) {
      this.#failBatch(e);
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'savepoint', name, compileQuery);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'rollback to', name, compileQuery);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'release', name, compileQuery);
  }

  async releaseConnection(connection: DatabaseConnection) {
    const lease = connection as Lease;
    if (lease.handedOff) return;
    lease.handedOff = true;
    if (!lease.locked) return; // it only read, on the reader
    const batch = this.#batch;
    if (batch && this.#full(batch)) this.#commitBatch();
    else if (batch && this.#mutex.waiters === 0) this.#scheduleFlush(batch);
    this.#mutex.unlock();
  }

  async destroy() {
    this.#failBatch(new Error('the database was closed before the batch committed'));
    this.#reader?.close();
    this.#statements.close();
  }

  /**
   * Runs one query for a lease. Outside a transaction, with a reader: a read runs on the reader, a write joins the
   * batch as a transaction of its own (#writeInBatch). Without a reader, a query outside a transaction takes the
   * writer's connection and commits the open batch first (a commit point), then runs in its own autocommit.
   */
  async execute<R>(lease: Lease, q: CompiledQuery): Promise<QueryResult<R>> {
    if (lease.handedOff) throw new Error('the connection was used after its transaction committed');
    const parameters = q.parameters as unknown[];
    if (!lease.locked && this.#reader) {
      const read = this.#reader.prepare(q.sql);
      if (read.readonly && read.reader) return { rows: read.all(parameters) as R[] };
      return this.#writeInBatch<R>(lease, q.sql, parameters);
    }
    return this.#executeOnWriter<R>(lease, q.sql, parameters);
  }

  /**
   * A write outside a transaction (an idempotency key, a login's session): one statement, run in the open batch (or
   * a new one) and answered, like a transaction, only after the COMMIT holding it. It used to be a commit point, the
   * batch's COMMIT and then its own durable autocommit: two fsyncs for a row, and the batch cut short. With the
   * Idempotency-Key the SPA sends, that halved the bench's transfers (2.0k -> 1.0k ok/s). A statement is atomic in
   * SQLite: one that fails undoes itself only, and the batch goes on (unless SQLite rolled the batch back, which
   * rejects it all, as for a transaction).
   */
  async #writeInBatch<R>(lease: Lease, text: string, parameters: unknown[]): Promise<QueryResult<R>> {
    await this.#lock(lease);
    let result!: QueryResult<R>; // assigned unless the statement failed, which throws below
    const done = deferred();
    try {
      const batch = this.#openBatch();
      let failed: { error: unknown } | undefined;
      try {
        result = this.#statement<R>(text, parameters);
        this.stats.transactions++;
        batch.pending.push(done);
      } catch (e) {
        failed = { error: e };
        if (!this.#database.inTransaction) this.#failBatch(e);
      }
      // The batch commits as after a transaction. After a failed write it is always scheduled: the write may have
      // opened the batch, and no batch may stay open, holding the file's write lock, with nobody left to commit it.
      if (this.#batch === batch) {
        if (this.#full(batch)) this.#commitBatch();
        else if (failed || this.#mutex.waiters === 0) this.#scheduleFlush(batch);
      }
      if (failed) throw failed.error;
    } finally {
      lease.locked = false;
      this.#mutex.unlock();
    }
    await done.promise;
    return result;
  }

  /** A statement of the lease's open transaction (it holds the writer's connection): no lock to wait for. */
  executeInTransaction<R>(lease: Lease, text: string, parameters: unknown[]): QueryResult<R> {
    if (!lease.inTransaction) throw new Error('the connection was used outside its transaction');
    return this.#executeOnWriter<R>(lease, text, parameters);
  }

  #executeOnWriter<R>(lease: Lease, text: string, parameters: unknown[]): QueryResult<R> {
    if (lease.handedOff) throw new Error('the connection was used after its transaction committed');
    if (!lease.inTransaction && this.#batch) this.#commitBatch();
    return this.#statement<R>(text, parameters);
  }

  #statement<R>(text: string, parameters: unknown[]): QueryResult<R> {
    const stmt = this.#statements.prepare(text);
    if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  #full(batch: Batch) {
    return batch.pending.length >= this.#maxBatch || Date.now() - batch.openedAt >= this.#maxDelayMs;
  }

  /**
   * Nobody waits for the connection: commit at the end of this event-loop turn (setImmediate), not at once. In the
   * server, requests reach their transactions from I/O callbacks, and a transaction runs to its end within one
   * turn (better-sqlite3 is synchronous), so "nobody waits right now" is almost always true and batches would hold
   * one transaction (measured: 200 commits for 200 transactions of 100 concurrent transfers). The requests whose
   * I/O is ready in this turn join the batch first; a lone request pays one setImmediate (microseconds) more.
   * The flush takes its turn for the connection like any request: it never commits inside someone's transaction.
   */
  #scheduleFlush(batch: Batch) {
    if (batch.flushScheduled) return;
    batch.flushScheduled = true;
    setImmediate(() => void this.#flush(batch));
  }

  async #flush(batch: Batch) {
    await this.#mutex.lock();
    try {
      if (this.#batch === batch) this.#commitBatch();
    } finally {
      this.#mutex.unlock();
    }
  }

  /** COMMIT (durable with synchronous=FULL when it returns), then answer the batch; on failure, reject it all. */
  #commitBatch() {
    const batch = this.#batch;
    if (!batch) return;
    try {
      this.#run('commit');
    } catch (e) {
      this.#failBatch(e);
      return;
    }
    this.#batch = null;
    this.stats.commits++;
    for (const p of batch.pending) p.resolve();
  }

  #failBatch(e: unknown) {
    const batch = this.#batch;
    this.#batch = null;
    if (this.#database.inTransaction) {
      try {
        this.#run('rollback');
      } catch {
        // Nothing more to undo: SQLite has no transaction left, or the connection is gone.
      }
    }
    if (!batch) return;
    this.stats.failedBatches++;
    for (const p of batch.pending) p.reject(e);
  }

  #run(text: string) {
    this.#statements.prepare(text).run();
  }

  async #savepointCommand(connection: DatabaseConnection, command: string, name: string, _compileQuery: QueryCompiler['compileQuery']) {
    await connection.executeQuery(CompiledQuery.raw(`${command} "${name.replace(/"/g, '""')}"`));
  }
}
