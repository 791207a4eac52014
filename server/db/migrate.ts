import fs from 'node:fs';
import path from 'node:path';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

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
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      out[file.replace(/\.ts$/, '')] = require(path.join(this.dir, file)) as Migration;
    }
    return out;
  }
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderProvider(path.join(__dirname, 'migrations')) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
