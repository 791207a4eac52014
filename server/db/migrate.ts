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

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // On PostgreSQL, Kysely looks for its migration tables in every schema unless told which one; with one
  // schema per test suite (or per tenant) it would find another schema's table and skip creating its own.
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
    : undefined;
  const migrator = new Migrator({ db, provider: new FolderProvider(path.join(__dirname, 'migrations')), migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
