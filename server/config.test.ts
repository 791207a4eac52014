import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';

/** Issue 2: configuration from the environment, validated at start with a clear message on a bad value. */
let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, DEMO: 'on', ...env });

test('defaults: port 3000, SQLite in DATA_DIR, no Redis, info logs', () => {
  const c = load({});
  expect([c.port, c.dataDir, c.databaseUrl, c.redisUrl, c.logLevel, c.demo]).toEqual([3000, dataDir, null, null, 'info', true]);
});

test.each([
  [{ DATABASE_URL: 'mysql://db/x' }, /^DATABASE_URL must be a postgres:\/\/ URL/],
  [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must be a redis:\/\/ URL/],
  [{ JWT_SECRET: 'short' }, /^JWT_SECRET must be at least 32 characters/],
  [{ PORT: '70000' }, /^PORT must be between 0 and 65535/],
  [{ MARKET: 'vn' }, /^MARKET must be th or lao/],
  [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of/],
])('%p is refused with a clear message', (env, message) => {
  expect(() => load(env)).toThrow(ConfigError);
  expect(() => load(env)).toThrow(message);
});

test('a postgres:// URL selects PostgreSQL', () => {
  expect(load({ DATABASE_URL: 'postgres://u@h:5432/db' }).databaseUrl).toBe('postgres://u@h:5432/db');
});

test('without JWT_SECRET a secret is generated once and kept in DATA_DIR', () => {
  const first = load({}).jwtSecret;
  expect(first.length).toBeGreaterThanOrEqual(32);
  expect(fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first);
  expect(load({}).jwtSecret).toBe(first);
});
