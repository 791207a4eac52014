import path from 'node:path';
import fs from 'node:fs';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DB } from './schema';
import { GroupCommitSqliteDialect, type GroupCommitOptions, type GroupCommitStats } from './group-commit';
import { namePreparedStatements, registerDirectReads } from './prepared';
import { withStatementCache } from './statement-cache';
import { defaultPoolMax } from '../lib/pool-size';

export type Dialect = 'sqlite' | 'postgres';

/** Runs `fn` in one transaction (Kysely's `db.transaction().execute(fn)`, or one that also writes an idempotency key). */
export type RunTransaction = <R>(fn: (trx: Transaction<DB>) => Promise<R>) => Promise<R>;

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  destroy(): Promise<void>;
  /** SQLite with group commit: live counters (commits, transactions); absent otherwise. */
  groupCommit?: GroupCommitStats;
}

// int8 (bigint: money in satang, counts) comes back from pg as a string; our amounts fit in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric (sums over bigint columns) likewise.
pg.types.setTypeParser(1700, (v) => Number(v));

/** PostgreSQL: how long a request waits for a pool connection before it fails (503). */
export const CONNECTION_TIMEOUT_MS = 3000;

export interface DbOptions {
  databaseUrl: string | null;
  /** PostgreSQL only: the pool's most connections (defaultPoolMax() unless given). */
  poolMax?: number;
  dataDir: string;
  /** PostgreSQL only: the schema to use (tests get a fresh one each). */
  schema?: string;
  /** SQLite only: file name inside dataDir. */
  sqliteFile?: string;
  /**
   * SQLite only: batch the waiting transactions into one durable COMMIT (docs/ledger.md "Group commit"). On by
   * default; false (or the environment's GROUP_COMMIT=0) commits each transaction on its own, as Kysely does.
   */
  groupCommit?: GroupCommitOptions | false;
}

export function createDb(opts: DbOptions): Database {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolMax ?? defaultPoolMax(),
      // A request waits at most this long for a connection, a pooled one or a new one (pg's default is forever):
      // PostgreSQL restarting, stopped or unreachable then answers 503 SERVICE_UNAVAILABLE within seconds instead of
      // hanging (docs/operations.md "Without Redis, and other faults"). 3 s is far above a busy pool's wait at the
      // bench's load and under the 5 s the load phase counts as hung. No statement or query timeout: a restart ends
      // the running statements itself, and the migrations and the ledger audit may rightly run long.
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      // TCP keepalive on every connection, so a peer that vanished without a FIN is found by the OS.
      keepAlive: true,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // A connection the server ended (PostgreSQL restarting: 57P01, or the network gone) emits 'error' on its client,
    // and an idle one also on the pool once the pool has dropped it; with no listener either event threw and stopped
    // the process (issue 43: every worker died in a PostgreSQL restart). The pool listens only to its idle clients,
    // not to one a request holds between two statements, so every client gets a listener of its own. Nothing is lost:
    // the statements of a dead connection fail themselves (503), the pool drops it, the next request opens a new one.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
      // Prepared queries (prepared.ts) run as named statements: parsed and planned once per connection.
      namePreparedStatements(client);
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, opts.sqliteFile ?? 'wallet.sqlite');
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // Each group-commit transaction is a SAVEPOINT in its batch, and SQLite keeps the rows a savepoint may have to undo
  // in a statement journal that spills to a temporary file past 64 KiB: a batch of transfers wrote it page by page
  // (4-5 pwrite calls per transfer, each a kernel entry on this machine kind) and an insert in a savepoint took ~1.7x
  // as long as in memory. That journal only undoes savepoints within a transaction, never a crash (the WAL does),
  // so memory costs no durability; temporary tables and sorts also stay in memory (ours are small).
  database.pragma('temp_store = MEMORY');
  const statements = withStatementCache(database);
  const groupCommit = opts.groupCommit ?? (process.env.GROUP_COMMIT === '0' ? false : {});
  if (groupCommit === false) {
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: statements }) });
    return { db, dialect: 'sqlite', destroy: () => db.destroy() };
  }
  // Reads outside a transaction: a read-only connection, which WAL shows committed rows only (group-commit.ts).
  const readonly = new SQLite(file, { readonly: true });
  readonly.pragma('busy_timeout = 5000');
  const reader = withStatementCache(readonly);
  const dialect = new GroupCommitSqliteDialect({ ...groupCommit, database, statements, reader });
  const db = new Kysely<DB>({ dialect });
  // Prepared queries outside a transaction read here without Kysely's executor (prepared.ts), as the driver would.
  registerDirectReads(db, (sql, parameters) => {
    const stmt = reader.prepare(sql);
    return stmt.readonly && stmt.reader ? (stmt.all(parameters as unknown[]) as unknown[]) : undefined;
  });
  return { db, dialect: 'sqlite', destroy: () => db.destroy(), groupCommit: dialect.stats };
}

/** Current time as the ISO-8601 UTC text every timestamp column holds (sortable, same on both engines). */
export const nowIso = (d: Date = new Date()) => d.toISOString();

export { sql };
export { STATEMENT_CACHE_SIZE, withStatementCache } from './statement-cache';
export { defaultPoolMax } from '../lib/pool-size';
