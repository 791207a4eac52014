import path from 'node:path';
import fs from 'node:fs';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DB } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  destroy(): Promise<void>;
}

// int8 (bigint: money in satang, counts) comes back from pg as a string; our amounts fit in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric (sums over bigint columns) likewise.
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DbOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL only: the schema to use (tests get a fresh one each). */
  schema?: string;
  /** SQLite only: file name inside dataDir. */
  sqliteFile?: string;
}

export function createDb(opts: DbOptions): Database {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
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
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}

/** Current time as the ISO-8601 UTC text every timestamp column holds (sortable, same on both engines). */
export const nowIso = (d: Date = new Date()) => d.toISOString();

export { sql };
