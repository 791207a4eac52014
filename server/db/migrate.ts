import fs from 'node:fs';
import path from 'node:path';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { COMPILED } from '../lib/paths';
import { isPostgres } from './portable';

/**
 * The migration files of a folder's listing by migration name: `.ts` under tsx and jest, `.js` when compiled
 * (build/server/, docs/server.md "Production build"). A name found with both extensions loads once, from the file of
 * the kind that runs (`prefer`); a source map or a declaration file is not a migration.
 */
export function migrationFiles(files: string[], prefer: '.ts' | '.js' = COMPILED ? '.js' : '.ts'): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of [...files].sort()) {
    const m = /^(\d{12}_[\w-]+)(\.ts|\.js)$/.exec(file);
    if (!m) continue;
    const [, name, ext] = m;
    if (!out.has(name) || ext === prefer) out.set(name, file);
  }
  return out;
}

/**
 * Migrations live in server/db/migrations as `YYYYMMDDHHMM_name.ts` (`.js` in the compiled build), each exporting up
 * (and down).
 * They take Kysely<any>, run unchanged on SQLite and PostgreSQL, and never change once landed.
 */
class FolderProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, file] of migrationFiles(fs.readdirSync(this.dir))) {
      out[name] = require(path.join(this.dir, file)) as Migration;
    }
    return out;
  }
}

async function migratorOf(db: Kysely<any>): Promise<Migrator> {
  // On PostgreSQL, Kysely looks for its migration tables in every schema unless told which one; with one
  // schema per test suite (or per tenant) it would find another schema's table and skip creating its own.
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
    : undefined;
  return new Migrator({ db, provider: new FolderProvider(path.join(__dirname, 'migrations')), migrationTableSchema });
}

/** Migrations this code has that the database has not applied (readiness: GET /readyz), oldest first. */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrations = await (await migratorOf(db)).getMigrations();
  return migrations.filter((m) => !m.executedAt).map((m) => m.name);
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = await migratorOf(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
