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
  [{ DB_POOL_MAX: '0' }, /^DB_POOL_MAX must be between 1 and 100/],
  [{ DB_POOL_MAX: 'many' }, /^DB_POOL_MAX must be a whole number/],
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

describe('GAME_SECRET_KEY (issue 11: game account passwords encrypted at rest)', () => {
  test('without it a 32-byte key is generated once and kept in DATA_DIR (owner-only file)', () => {
    const first = load({}).gameSecretKey;
    expect(first).toHaveLength(32);
    const file = path.join(dataDir, 'game-secret-key');
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(load({}).gameSecretKey).toEqual(first);
  });

  test('a base64 32-byte key is used as is; a passphrase of 32+ characters gives a 32-byte key', () => {
    const raw = Buffer.alloc(32, 7);
    expect(load({ GAME_SECRET_KEY: raw.toString('base64') }).gameSecretKey).toEqual(raw);
    const k = load({ GAME_SECRET_KEY: 'an operator passphrase, 32 characters or more' }).gameSecretKey;
    expect(k).toHaveLength(32);
    expect(fs.existsSync(path.join(dataDir, 'game-secret-key'))).toBe(false);
  });

  test.each(['short', 'x'.repeat(31)])('%p is refused with one line', (v) => {
    expect(() => load({ GAME_SECRET_KEY: v })).toThrow(ConfigError);
    expect(() => load({ GAME_SECRET_KEY: v })).toThrow(/^GAME_SECRET_KEY must be at least 32 characters or a base64 32-byte key$/);
  });

  test('an unreadable key file in DATA_DIR is refused rather than replaced (the stored passwords need it)', () => {
    fs.writeFileSync(path.join(dataDir, 'game-secret-key'), 'garbage');
    expect(() => load({})).toThrow(/^DATA_DIR\/game-secret-key is not a base64 32-byte key/);
    expect(fs.readFileSync(path.join(dataDir, 'game-secret-key'), 'utf8')).toBe('garbage');
  });
});

describe('DEMO and NODE_ENV=production (issue 11: the demo bank pays any QR without a login)', () => {
  const demoDefault = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env }, { demoDefault: true });

  test.each([
    ['DEMO=on', { DEMO: 'on', NODE_ENV: 'production' }],
    ['npm start (demo by default)', { NODE_ENV: 'production' }],
  ])('%s with NODE_ENV=production is refused with one line', (_, env) => {
    expect(() => demoDefault(env)).toThrow(ConfigError);
    try {
      demoDefault(env);
    } catch (e) {
      expect((e as Error).message).toMatch(/^DEMO must be off when NODE_ENV=production/);
      expect((e as Error).message).not.toContain('\n');
    }
  });

  test('npm start without NODE_ENV (or another value) still runs in demo mode', () => {
    expect(demoDefault({}).demo).toBe(true);
    expect(demoDefault({ NODE_ENV: 'development' }).demo).toBe(true);
  });

  test('NODE_ENV=production with DEMO off starts', () => {
    expect(demoDefault({ NODE_ENV: 'production', DEMO: 'off', PAYMENT_WEBHOOK_SECRET: 'whsec-real-whsec-real-whsec-real-32' }).demo).toBe(false);
  });
});

describe('responsible play (issue 15): MIN_PLAYER_AGE and PLAY_MINUTE_MS', () => {
  test('MIN_PLAYER_AGE defaults to 20 (Thailand) and takes 18..99', () => {
    expect(load({}).minPlayerAge).toBe(20);
    expect(load({ MIN_PLAYER_AGE: '18' }).minPlayerAge).toBe(18);
    expect(load({ MIN_PLAYER_AGE: '99' }).minPlayerAge).toBe(99);
    for (const v of ['17', '100', '20.5', 'twenty']) expect(() => load({ MIN_PLAYER_AGE: v })).toThrow(/^MIN_PLAYER_AGE must be/);
  });

  test('PLAY_MINUTE_MS defaults to 60000; tests may shorten it, production may not', () => {
    expect(load({}).playMinuteMs).toBe(60_000);
    expect(load({ PLAY_MINUTE_MS: '500' }).playMinuteMs).toBe(500);
    for (const v of ['0', '60001', '1.5', 'x']) expect(() => load({ PLAY_MINUTE_MS: v })).toThrow(/^PLAY_MINUTE_MS must be/);
    const prod = { NODE_ENV: 'production', DEMO: 'off', PAYMENT_WEBHOOK_SECRET: 'whsec-real-whsec-real-whsec-real-32' };
    expect(() => load({ ...prod, PLAY_MINUTE_MS: '500' })).toThrow(/^PLAY_MINUTE_MS must be 60000 when NODE_ENV=production/);
    expect(load({ ...prod, PLAY_MINUTE_MS: '60000' }).playMinuteMs).toBe(60_000);
  });
});

test('JOB_LEASE_TTL_MS defaults to 30000 and takes 300..40000, so a dead holder is replaced within a minute', () => {
  expect(load({}).jobLeaseTtlMs).toBe(30_000);
  expect(load({ JOB_LEASE_TTL_MS: '300' }).jobLeaseTtlMs).toBe(300);
  expect(load({ JOB_LEASE_TTL_MS: '40000' }).jobLeaseTtlMs).toBe(40_000);
  for (const v of ['299', '40001', '1.5', 'soon']) expect(() => load({ JOB_LEASE_TTL_MS: v })).toThrow(/^JOB_LEASE_TTL_MS must be/);
});

test('DB_POOL_MAX: the PostgreSQL pool size, two connections per core over the WORKERS (4..10) unless told', () => {
  const cores = os.availableParallelism();
  expect(load({}).dbPoolMax).toBe(Math.min(10, Math.max(4, 2 * cores)));
  expect(load({ WORKERS: '64' }).dbPoolMax).toBe(Math.min(10, Math.max(4, Math.ceil((2 * cores) / 64))));
  expect(load({ DB_POOL_MAX: '3' }).dbPoolMax).toBe(3);
});

describe('issue 39: secrets that are too weak stop the start', () => {
  test('an empty or short DATA_DIR/jwt-secret is refused with one line, not used as an empty HMAC key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-config-jwt-'));
    try {
      for (const stored of ['', '\n', 'short-secret']) {
        fs.writeFileSync(path.join(dir, 'jwt-secret'), stored);
        expect(() => loadConfig({ DATA_DIR: dir, DEMO: 'on' })).toThrow(ConfigError);
        expect(() => loadConfig({ DATA_DIR: dir, DEMO: 'on' })).toThrow(/^DATA_DIR\/jwt-secret holds fewer than 32 characters \(.*\): delete it/);
      }
      // The file is left as it was (nothing regenerated behind the operator's back); JWT_SECRET still wins.
      expect(fs.readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe('short-secret');
      expect(loadConfig({ DATA_DIR: dir, DEMO: 'on', JWT_SECRET: 'j'.repeat(32) }).jwtSecret).toBe('j'.repeat(32));
      // Missing: a new one is made.
      fs.rmSync(path.join(dir, 'jwt-secret'));
      expect(loadConfig({ DATA_DIR: dir, DEMO: 'on' }).jwtSecret.length).toBeGreaterThanOrEqual(32);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PAYMENT_WEBHOOK_SECRET needs 32 characters when DEMO is off', () => {
    const off = { DEMO: 'off' };
    expect(() => load({ ...off, PAYMENT_WEBHOOK_SECRET: 'w'.repeat(31) })).toThrow('PAYMENT_WEBHOOK_SECRET must be at least 32 characters when DEMO is off');
    expect(load({ ...off, PAYMENT_WEBHOOK_SECRET: 'w'.repeat(32) }).paymentWebhookSecret).toBe('w'.repeat(32));
    // Demo mode keeps accepting any (the simulated bank signs with it).
    expect(load({ PAYMENT_WEBHOOK_SECRET: 'short' }).paymentWebhookSecret).toBe('short');
  });
});

test('STAFF_TOTP_MAX_FAILURES (30) and STAFF_TOTP_FAILURE_WINDOW_SECONDS (86400): the second factor lockout', () => {
  expect(load({})).toMatchObject({ staffTotpMaxFailures: 30, staffTotpFailureWindowSeconds: 86_400 });
  expect(load({ STAFF_TOTP_MAX_FAILURES: '5', STAFF_TOTP_FAILURE_WINDOW_SECONDS: '3600' })).toMatchObject({ staffTotpMaxFailures: 5, staffTotpFailureWindowSeconds: 3600 });
  for (const bad of [{ STAFF_TOTP_MAX_FAILURES: '0' }, { STAFF_TOTP_MAX_FAILURES: 'x' }, { STAFF_TOTP_FAILURE_WINDOW_SECONDS: '59' }] as Record<string, string>[]) expect(() => load(bad)).toThrow(ConfigError);
});
