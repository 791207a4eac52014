import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig, type Config } from '../../config';
import { createDb, type Database } from '../../db';
import { migrateToLatest } from '../../db/migrate';
import { seedBase, SETTINGS } from '../../db/seed';
import { writeSetting } from '../../settings';

/** Which engine this jest project runs the server suites on (set by server/test/support/setup-*.ts). */
export const testEngine = (): 'sqlite' | 'postgres' => (process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite');

export interface TestDb extends Database {
  dataDir: string;
  /** Drops the schema (PostgreSQL) or the folder (SQLite). */
  dispose(): Promise<void>;
}

/** A fresh, migrated database of the engine under test: its own SQLite file, or its own PostgreSQL schema. */
export async function freshDb(): Promise<TestDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-test-'));
  if (testEngine() === 'postgres') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('TEST_ENGINE=postgres needs DATABASE_URL');
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const database = createDb({ databaseUrl: url, dataDir, schema });
    await migrateToLatest(database.db);
    return {
      ...database,
      dataDir,
      async dispose() {
        await database.destroy();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`DROP SCHEMA ${schema} CASCADE`);
        await c.end();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = createDb({ databaseUrl: null, dataDir });
  await migrateToLatest(database.db);
  return {
    ...database,
    dataDir,
    async dispose() {
      await database.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig(
    { DATA_DIR: dataDir, JWT_SECRET: 'test-secret-test-secret-test-secret-123', PAYMENT_WEBHOOK_SECRET: 'whsec-test-whsec-test-whsec-test-32', DEMO: 'on', LOG_LEVEL: 'silent', ...env },
    { persistSecrets: false },
  );
}

export interface TestApp {
  app: FastifyInstance;
  db: TestDb;
  close(): Promise<void>;
}

/**
 * Tests run at any hour: the seeded daily closed hours for slips (23:50-00:10 in Bangkok, 16:50-17:10 UTC) would
 * refuse every slip upload for 20 minutes a day. Suites about the closed hours write them back and set a clock.
 */
export async function openSlipsAllDay(db: Database['db']): Promise<void> {
  await writeSetting(db, 'slip', { ...SETTINGS.slip, closeFrom: null, closeTo: null });
}

/** Builds the app on a fresh migrated and seeded database (slips open all day); call close() in afterAll/afterEach. */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await freshDb();
  await seedBase(db.db);
  await openSlipsAllDay(db.db);
  const app = await buildApp(testConfig(db.dataDir, env), { database: db, logger: false });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.dispose();
    },
  };
}
