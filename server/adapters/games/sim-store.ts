import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { withStatementCache, type Dialect } from '../../db';
import { GroupCommitSqliteDialect, type GroupCommitStats } from '../../db/group-commit';
import type { DB } from '../../db/schema';
import type { GameSimTables } from '../../db/schema-game-sim';
import * as simSchema from '../../db/migrations/202611250003_game_sim';

/** The simulator's own SQLite file, beside wallet.sqlite in DATA_DIR (docs/game-provider.md "Where its state lives"). */
export const SIM_SQLITE_FILE = 'game-sim.sqlite';

/** Where the simulator keeps its players, balances, transfers and rounds. */
export interface SimStore {
  db: Kysely<DB>;
  /** Closes the store when the simulator opened it; a no-op when it shares the wallet's database. */
  destroy(): Promise<void>;
  /** Its own SQLite file: the group commit's live counters (commits, transactions). */
  groupCommit?: GroupCommitStats;
}

/**
 * The sim file's own migration history, in tables named apart from the wallet's (kysely_migration), so the two
 * histories can never be mistaken for each other. Its one migration is the wallet's own sim migration, reused:
 * the sim tables have one definition, wherever they live.
 */
class SimMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return { '202611250003_game_sim': simSchema };
  }
}

const SIM_TABLES: Array<keyof GameSimTables> = ['sim_players', 'sim_transfers', 'sim_round_counters', 'sim_rounds'];
const COPY_PAGE = 500;

/**
 * Opens the simulator's store.
 *
 * - SQLite: its own file (SIM_SQLITE_FILE) on its own connection. The simulator stands in for a remote provider:
 *   its transactions and commits must not queue behind, nor hold, the wallet's one connection and writer lock.
 *   synchronous=NORMAL (WAL): a commit is safe from a crash of this process, and may be lost only with the last
 *   moments before a power cut, a durability a remote system's is not ours to set; the wallet's own file keeps FULL.
 * - PostgreSQL: the wallet's database and pool. There is no single writer there: the simulator's transactions run
 *   on their own pooled connections beside ours, touch only sim_ rows, and the server's group commit shares WAL
 *   flushes; a second pool would only add connections (createDb opens up to 10 each, times WORKERS processes)
 *   against max_connections.
 */
export async function openSimStore(opts: { dialect: Dialect; dataDir: string; walletDb: Kysely<DB> }): Promise<SimStore> {
  if (opts.dialect === 'postgres') return { db: opts.walletDb, destroy: async () => undefined };
  const database = openSimSqlite(opts.dataDir);
  try {
    const created = await migrateSimStore(database.db);
    if (created) await carryOver(opts.walletDb, database.db);
    return { db: database.db, destroy: () => database.destroy(), groupCommit: database.groupCommit };
  } catch (e) {
    await database.destroy();
    throw e;
  }
}

/**
 * One connection of its own, not the wallet's createDb: no separate reader, so the pragmas below hold for every
 * statement. Its transactions share commits as the wallet's do (group commit, db/group-commit.ts): a NORMAL commit
 * does not wait for the disk, but each still writes the transaction's pages to the WAL, and its statements run on
 * the transaction's connection without Kysely's executor. The simulator's five statements and commit were ~12 % of
 * the main thread under the bench's transfer load; with this, five interleaved pairs of transfer runs went 560 / 702
 * / 706 / 712 / 805 -> 925 / 836 / 876 / 970 / 1,072 ok/s (2026-11-28). A transaction is still answered only after
 * the COMMIT holding it, so what the simulator answered survives a crash of this process as before.
 */
function openSimSqlite(dataDir: string): { db: Kysely<DB>; destroy(): Promise<void>; groupCommit: GroupCommitStats } {
  fs.mkdirSync(dataDir, { recursive: true });
  const raw = new SQLite(path.join(dataDir, SIM_SQLITE_FILE));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('temp_store = MEMORY'); // the savepoints' statement journal, as in db/index.ts
  const dialect = new GroupCommitSqliteDialect({ database: raw, statements: withStatementCache(raw) });
  const db = new Kysely<DB>({ dialect });
  return { db, destroy: () => db.destroy(), groupCommit: dialect.stats };
}

/** Applies the sim file's migrations; true when this call created its tables (a new file). */
export async function migrateSimStore(db: Kysely<any>): Promise<boolean> {
  const migrator = new Migrator({
    db,
    provider: new SimMigrations(),
    migrationTableName: 'sim_migration',
    migrationLockTableName: 'sim_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).some((r) => r.migrationName === '202611250003_game_sim' && r.status === 'Success');
}

/**
 * Before the simulator had its own file, its tables lived in wallet.sqlite (they are still created there by the
 * wallet's migration 202611250003). A new sim file takes over what they hold, once, so game accounts and the
 * money in them survive the upgrade; the old rows stay behind in wallet.sqlite, unused (documented).
 */
async function carryOver(from: Kysely<DB>, to: Kysely<DB>): Promise<void> {
  const hasOld = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = 'sim_players'`.execute(from);
  if (Number(hasOld.rows[0]?.n ?? 0) === 0) return;
  await to.transaction().execute(async (trx) => {
    for (const table of SIM_TABLES) {
      for (let offset = 0; ; offset += COPY_PAGE) {
        const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by rowid limit ${COPY_PAGE} offset ${offset}`.execute(from);
        if (rows.rows.length === 0) break;
        await trx.insertInto(table).values(rows.rows as never).execute();
        if (rows.rows.length < COPY_PAGE) break;
      }
    }
  });
}
