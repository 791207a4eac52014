import fs from 'node:fs';
import path from 'node:path';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from './portable';

/**
 * Migrations live in server/db/migrations as `YYYYMMDDHHMM_name.ts`, each exporting up (and down).
 * They take Kysely<any>, run unchanged on SQLite and PostgreSQL, and never change once landed.
 */
class FolderProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const file of fs.readdirSync(this.dir).sort()) {
      if (!/^\d{12}_[\w-]+\.ts$/.test(file)) continue;
      out[file.replace(/\.ts$/, '')] = require(path.join(this.dir, file)) as Migration;
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
