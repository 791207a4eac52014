/**
 * `npm run migrate [-- --seed]`: applies pending migrations to the configured database (DATABASE_URL, or
 * SQLite in DATA_DIR); --seed also inserts missing reference data (seedBase). npm start does both itself.
 */
import { ConfigError, loadConfig } from '../config';
import { createDb } from '../db/index';
import { migrateToLatest } from '../db/migrate';
import { seedBase } from '../db/seed';

async function main(): Promise<void> {
  const config = loadConfig(process.env, { demoDefault: true, persistSecrets: false });
  const database = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax });
  try {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
    if (process.argv.includes('--seed')) {
      await seedBase(database.db);
      console.log('Reference data seeded.');
    }
  } finally {
    await database.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof ConfigError ? `Configuration error: ${e.message}` : `Migration failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
