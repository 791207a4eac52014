import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { freshDb, testEngine, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { seedDemo } from '../demo/index';
import { seedDemoStaff } from '../demo/staff';
import { DEMO_WEBHOOK_SECRET } from '../config';
import { newSecretKey, secretKeyFrom } from '../lib/secret-box';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Config } from '../config';
import { createGameProvider } from '../adapters/games';
import { createPayoutAdapter } from '../adapters/payouts';
import { createDepositAdapters } from '../plugins/deposits/adapters';
import { smsProviderOf } from '../adapters/sms';
import { openAggregator } from '../adapters/aggregator';
import { runOperator } from './operator-cli';
import { OUTSIDE_SERVICES, checkFindings, formatFindings, runCheck, type CheckFacts, type Finding, type Level, type OutsideService } from './operator-check';

/** `npm run operator -- check` (docs/server.md "Operator CLI"): the findings, one by one, and the command on real databases. */
jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..', '..');
const GAME_KEY = newSecretKey();

/** The server's choosers as if a real adapter of each service had landed ("acme"): the only way a check passes today. */
const REAL: OutsideService[] = OUTSIDE_SERVICES.map((s) => (s.setting ? { ...s, available: [...s.available, 'acme'] } : { ...s, available: ['acme-sms'], simulators: [] }));

/** A correctly configured live setup. */
const GOOD: Record<string, string> = {
  NODE_ENV: 'production',
  DEMO: 'off',
  JWT_SECRET: 'j'.repeat(48),
  GAME_SECRET_KEY: GAME_KEY,
  PAYMENT_WEBHOOK_SECRET: 'w'.repeat(64),
  GAME_PROVIDER: 'acme',
  PAYOUT_PROVIDER: 'acme',
  PAYMENT_GATEWAY: 'acme',
  SLIP_VERIFIER: 'acme',
  GIFT_REDEEMER: 'acme',
  SMS_PROVIDER: 'acme',
  PROMPTPAY_ID: '0899999999',
  PROMPTPAY_NAME: 'REAL OPERATOR CO LTD',
  GIFT_RECEIVER_MOBILE: '0898888888',
  METRICS_TOKEN: 'm'.repeat(32),
  DATABASE_URL: 'postgres://wallet:db-password-1@db.internal:5432/wallet',
  REDIS_URL: 'redis://:redis-password-1@cache.internal:6379',
  WORKERS: '4',
  BACKUP_DIR: '/srv/backups',
};
const GOOD_FACTS: CheckFacts = {
  configError: null,
  files: { jwtSecretLength: null, gameSecretKey: null },
  database: { admins: [{ username: 'root', secondFactor: 'ok' }], demoStaff: [], demoPlayers: [] },
  backups: { dir: '/srv/backups', newestHoursAgo: 3 },
  pgDump: 'pg_dump (PostgreSQL) 16.4',
};

type Patch = { env?: Record<string, string | undefined>; facts?: Partial<CheckFacts> };
function findings(p: Patch = {}, services: readonly OutsideService[] = REAL): Finding[] {
  const env = { ...GOOD, ...p.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return checkFindings(env, { ...GOOD_FACTS, ...p.facts }, services);
}
const find = (list: Finding[], setting: string) => list.filter((f) => f.setting === setting);

test('a correctly configured setup: nothing fails, exit 0', () => {
  const list = findings();
  expect(list.filter((f) => f.level !== 'ok')).toEqual([]);
  const { lines, code } = formatFindings(list);
  expect(code).toBe(0);
  expect(lines[lines.length - 1]).toBe('ready for real money: nothing unsafe, missing or weak (0 warnings)');
});

test('secrets are shown as set and their length only; URLs without their credentials', () => {
  const text = formatFindings(findings()).lines.join('\n');
  for (const secret of [GOOD.JWT_SECRET, GOOD.GAME_SECRET_KEY, GOOD.PAYMENT_WEBHOOK_SECRET, GOOD.METRICS_TOKEN, 'db-password-1', 'redis-password-1']) expect(text).not.toContain(secret);
  expect(find(findings(), 'JWT_SECRET')[0].now).toBe('set (48 characters)');
  expect(find(findings(), 'DATABASE_URL')[0].now).toBe('PostgreSQL postgres://db.internal:5432/wallet (credentials not shown)');
  expect(find(findings(), 'REDIS_URL')[0].now).toBe('redis://cache.internal:6379 (credentials not shown)');
});

/** Each finding with the setting that makes it: [name, patch, setting, level, note or now]. It is not there (or ok) in GOOD. */
const CASES: [string, Patch, string, Level, RegExp][] = [
  ['config refused', { facts: { configError: 'JWT_SECRET must be at least 32 characters' } }, 'configuration', 'unsafe', /does not start with it: JWT_SECRET must/],
  ['NODE_ENV unset', { env: { NODE_ENV: undefined } }, 'NODE_ENV', 'missing', /set NODE_ENV=production/],
  ['DEMO on', { env: { DEMO: 'on' } }, 'DEMO', 'unsafe', /pays any QR without a login/],
  ['DEMO unset without production', { env: { DEMO: undefined, NODE_ENV: 'development' } }, 'DEMO', 'unsafe', /npm start turns demo mode on/],
  ['JWT_SECRET short', { env: { JWT_SECRET: 'short' } }, 'JWT_SECRET', 'weak', /at least 32 characters/],
  ['jwt-secret file short', { env: { JWT_SECRET: undefined }, facts: { files: { jwtSecretLength: 12, gameSecretKey: null } } }, 'JWT_SECRET', 'weak', /shorter than 32/],
  ['no JWT secret yet', { env: { JWT_SECRET: undefined } }, 'JWT_SECRET', 'warn', /first start makes one/],
  ['GAME_SECRET_KEY short', { env: { GAME_SECRET_KEY: 'short' } }, 'GAME_SECRET_KEY', 'weak', /32 characters or a base64/],
  ['game-secret-key file bad', { env: { GAME_SECRET_KEY: undefined }, facts: { files: { jwtSecretLength: null, gameSecretKey: 'invalid' } } }, 'GAME_SECRET_KEY', 'unsafe', /refuses to start/],
  ['no game key yet', { env: { GAME_SECRET_KEY: undefined } }, 'GAME_SECRET_KEY', 'warn', /operator -- setup needs it/],
  ['webhook secret unset', { env: { PAYMENT_WEBHOOK_SECRET: undefined } }, 'PAYMENT_WEBHOOK_SECRET', 'missing', /at least 32/],
  ['webhook secret short', { env: { PAYMENT_WEBHOOK_SECRET: 'x'.repeat(31) } }, 'PAYMENT_WEBHOOK_SECRET', 'weak', /guessed offline/],
  ['webhook secret the demo one', { env: { PAYMENT_WEBHOOK_SECRET: DEMO_WEBHOOK_SECRET } }, 'PAYMENT_WEBHOOK_SECRET', 'unsafe', /published/],
  ['EasySlip without its key', { env: { SLIP_VERIFIER: 'easyslip' } }, 'SLIP_VERIFIER (slip verifier)', 'missing', /EASYSLIP_API_KEY unset: the server refuses to start/],
  ['SlipOK without its branch', { env: { SLIP_VERIFIER: 'slipok', SLIPOK_API_KEY: 'k'.repeat(20) } }, 'SLIP_VERIFIER (slip verifier)', 'missing', /SLIPOK_BRANCH_ID unset/],
  ['EasySlip pointed elsewhere', { env: { SLIP_VERIFIER: 'easyslip', EASYSLIP_API_KEY: 'k'.repeat(20), EASYSLIP_BASE_URL: 'http://127.0.0.1:9999' } }, 'SLIP_VERIFIER (slip verifier)', 'warn', /elsewhere than the service/],
  ['Opn without its webhook secret', { env: { PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: 'skey_' + 'k'.repeat(20) } }, 'PAYMENT_GATEWAY (payment gateway)', 'missing', /OPN_WEBHOOK_SECRET unset: the server refuses to start/],
  ['Opn pointed elsewhere', { env: { PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: 'skey_' + 'k'.repeat(20), OPN_WEBHOOK_SECRET: 'c2VjcmV0', OPN_BASE_URL: 'http://127.0.0.1:9999' } }, 'PAYMENT_GATEWAY (payment gateway)', 'warn', /elsewhere than the service/],
  ['PROMPTPAY_ID unset', { env: { PROMPTPAY_ID: undefined } }, 'PROMPTPAY_ID', 'unsafe', /demo PromptPay id/],
  ['PROMPTPAY_ID the demo one', { env: { PROMPTPAY_ID: '081-234-5678' } }, 'PROMPTPAY_ID', 'unsafe', /demo PromptPay id/],
  ['PROMPTPAY_NAME unset', { env: { PROMPTPAY_NAME: undefined } }, 'PROMPTPAY_NAME', 'missing', /account name/],
  ['GIFT_RECEIVER_MOBILE unset', { env: { GIFT_RECEIVER_MOBILE: undefined } }, 'GIFT_RECEIVER_MOBILE', 'unsafe', /gift vouchers/],
  ['TRUST_PROXY true', { env: { TRUST_PROXY: 'true' } }, 'TRUST_PROXY', 'unsafe', /X-Forwarded-For/],
  ['TRUST_PROXY off', { env: { TRUST_PROXY: 'off' } }, 'TRUST_PROXY', 'warn', /no proxy expected/],
  ['FRAME_ANCESTORS http', { env: { FRAME_ANCESTORS: 'http://host.example' } }, 'FRAME_ANCESTORS', 'warn', /without TLS/],
  ['SQLite alone', { env: { DATABASE_URL: undefined, WORKERS: '1', REDIS_URL: undefined } }, 'DATABASE_URL', 'warn', /one process on one machine/],
  ['SQLite with WORKERS', { env: { DATABASE_URL: undefined } }, 'DATABASE_URL', 'unsafe', /WORKERS=4 needs PostgreSQL/],
  ['no Redis with WORKERS', { env: { REDIS_URL: undefined } }, 'REDIS_URL', 'missing', /WORKERS=4 shares/],
  ['no metrics', { env: { METRICS_TOKEN: undefined } }, 'METRICS_TOKEN / METRICS_PORT', 'missing', /\/metrics is off/],
  ['metrics open', { env: { METRICS_TOKEN: undefined, METRICS_PORT: '9100', METRICS_HOST: '0.0.0.0' } }, 'METRICS_TOKEN / METRICS_PORT', 'warn', /readable by anyone/],
  ['no pg_dump', { facts: { pgDump: null } }, 'BACKUP_DIR (npm run backup)', 'missing', /pg_dump is not on PATH/],
  ['no backup yet', { facts: { backups: { dir: '/srv/backups', newestHoursAgo: null } } }, 'BACKUP_DIR (npm run backup)', 'warn', /schedule npm run backup/],
  ['backup a day old', { facts: { backups: { dir: '/srv/backups', newestHoursAgo: 30 } } }, 'BACKUP_DIR (npm run backup)', 'warn', /no backup in the last day/],
  ['PLAY_MINUTE_MS shortened', { env: { PLAY_MINUTE_MS: '1000' } }, 'PLAY_MINUTE_MS', 'unsafe', /shortened minute/],
  ['rate limit off', { env: { RATE_LIMIT_PER_MINUTE: '0' } }, 'RATE_LIMIT_PER_MINUTE', 'warn', /no per-address request limit/],
  ['database unreadable', { facts: { database: { error: 'the database is not set up yet' } } }, 'database', 'unsafe', /not set up yet/],
  ['no admin', { facts: { database: { admins: [], demoStaff: [], demoPlayers: [] } } }, 'administrator', 'unsafe', /npm run operator -- setup/],
  ['admin without a second factor', { facts: { database: { admins: [{ username: 'root', secondFactor: 'none' }], demoStaff: [], demoPlayers: [] } } }, 'administrator', 'unsafe', /staff totp <username>/],
  ['admin sealed with another key', { facts: { database: { admins: [{ username: 'root', secondFactor: 'other-key' }], demoStaff: [], demoPlayers: [] } } }, 'administrator', 'unsafe', /not the key these were enrolled with/],
  ['demo staff active', { facts: { database: { admins: [{ username: 'root', secondFactor: 'ok' }], demoStaff: ['support'], demoPlayers: [] } } }, 'demo staff accounts', 'unsafe', /passwords are published/],
  ['demo player active', { facts: { database: { admins: [{ username: 'root', secondFactor: 'ok' }], demoStaff: [], demoPlayers: ['0812345678'] } } }, 'demo player', 'unsafe', /made-up money/],
];

test.each(CASES)('%s: the finding comes with its setting and goes without it', (_name, patch, setting, level, text) => {
  const [good] = find(findings(), setting);
  expect(good === undefined || good.level === 'ok').toBe(true);
  const got = find(findings(patch), setting);
  expect(got).toHaveLength(1);
  expect(got[0].level).toBe(level);
  expect(`${got[0].now} ${got[0].note}`).toMatch(text);
  expect(formatFindings(findings(patch)).code).toBe(level === 'warn' ? 0 : 1);
});

test('each outside service: unset is missing, a simulator or an unknown name unsafe, a real adapter ok', () => {
  for (const s of OUTSIDE_SERVICES.filter((x) => x.setting && !x.whenUnset)) {
    const setting = `${s.setting} (${s.service})`;
    expect(find(findings(), setting)[0]).toMatchObject({ level: 'ok', now: 'acme' });
    expect(find(findings({ env: { [s.setting as string]: undefined } }), setting)[0]).toMatchObject({ level: 'missing', now: 'unset' });
    expect(find(findings({ env: { [s.setting as string]: 'simulator' } }), setting)[0]).toMatchObject({ level: 'unsafe', note: 'a simulator moves no real money' });
    expect(find(findings({ env: { [s.setting as string]: undefined, DEMO: 'on' } }), setting)[0]).toMatchObject({ level: 'unsafe', now: 'unset (simulator in demo mode)' });
    expect(find(findings({ env: { [s.setting as string]: 'nope' } }), setting)[0]).toMatchObject({ level: 'unsafe', note: `not available: the server refuses to start (available: ${[...s.available, 'acme'].join(', ')})` });
  }
  // A real slip verifier named with its settings: ok without the "acme" stand-in.
  const slip = 'SLIP_VERIFIER (slip verifier)';
  expect(find(findings({ env: { SLIP_VERIFIER: 'slipok', SLIPOK_API_KEY: 'k'.repeat(20), SLIPOK_BRANCH_ID: '123' } }, OUTSIDE_SERVICES), slip)[0]).toMatchObject({ level: 'ok', now: 'slipok' });
  expect(find(findings({ env: { SLIP_VERIFIER: 'easyslip', EASYSLIP_API_KEY: 'k'.repeat(20) } }, OUTSIDE_SERVICES), slip)[0]).toMatchObject({ level: 'ok', now: 'easyslip' });
  const gateway = 'PAYMENT_GATEWAY (payment gateway)';
  expect(find(findings({ env: { PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: 'skey_' + 'k'.repeat(20), OPN_WEBHOOK_SECRET: 'c2VjcmV0' } }, OUTSIDE_SERVICES), gateway)[0]).toMatchObject({ level: 'ok', now: 'opn' });
});

test('SEAMLESS_AGGREGATOR: unset is off (ok: no seamless game offered); the simulator unsafe; hub88 needs its four settings', () => {
  const label = 'SEAMLESS_AGGREGATOR (seamless aggregator)';
  expect(find(findings({}, OUTSIDE_SERVICES), label)[0]).toMatchObject({ level: 'ok', now: 'unset (off)' });
  expect(find(findings({ env: { SEAMLESS_AGGREGATOR: 'simulator' } }, OUTSIDE_SERVICES), label)[0]).toMatchObject({ level: 'unsafe', note: expect.stringMatching(/keys are public/) });
  const hub88 = { SEAMLESS_AGGREGATOR: 'hub88', HUB88_OPERATOR_ID: '7', HUB88_PUBLIC_KEY: '/etc/wallet/hub88.pub', SEAMLESS_PRIVATE_KEY: '/etc/wallet/ours.pem', HUB88_BASE_URL: 'https://api.hub88.io' };
  expect(find(findings({ env: hub88 }, OUTSIDE_SERVICES), label)[0]).toMatchObject({ level: 'ok', now: 'hub88' });
  expect(find(findings({ env: { ...hub88, SEAMLESS_PRIVATE_KEY: undefined } }, OUTSIDE_SERVICES), label)[0]).toMatchObject({ level: 'missing', note: 'SEAMLESS_PRIVATE_KEY unset: the server refuses to start without it' });
});

test('SMS_PROVIDER: unset is the simulator in and out of demo mode (unsafe); thaibulksms needs its key and secret; its base URL moved is a warning', () => {
  const sms = 'SMS_PROVIDER (SMS sender)';
  const real = { SMS_PROVIDER: 'thaibulksms', THAIBULKSMS_API_KEY: '1724714224731529', THAIBULKSMS_API_SECRET: 's'.repeat(32) };
  const risk = /not to phones: SMS_PROVIDER=thaibulksms/;
  for (const env of [{ SMS_PROVIDER: undefined }, { SMS_PROVIDER: undefined, DEMO: 'on' }]) {
    const [f] = find(findings({ env }, OUTSIDE_SERVICES), sms);
    expect(f).toMatchObject({ level: 'unsafe', now: 'unset (simulator)' });
    expect(f.note).toMatch(risk);
  }
  expect(find(findings({ env: { SMS_PROVIDER: 'simulator' } }, OUTSIDE_SERVICES), sms)[0]).toMatchObject({ level: 'unsafe', now: 'simulator', note: expect.stringMatching(risk) });
  expect(find(findings({ env: real }, OUTSIDE_SERVICES), sms)[0]).toMatchObject({ level: 'ok', now: 'thaibulksms' });
  expect(find(findings({ env: { ...real, THAIBULKSMS_API_SECRET: undefined } }, OUTSIDE_SERVICES), sms)[0]).toMatchObject({ level: 'missing', note: 'THAIBULKSMS_API_SECRET unset: the server refuses to start without it' });
  expect(find(findings({ env: { SMS_PROVIDER: 'thaibulksms' } }, OUTSIDE_SERVICES), sms)[0]).toMatchObject({ level: 'missing', note: 'THAIBULKSMS_API_KEY and THAIBULKSMS_API_SECRET unset: the server refuses to start without them' });
  expect(find(findings({ env: { ...real, THAIBULKSMS_BASE_URL: 'http://127.0.0.1:9999' } }, OUTSIDE_SERVICES), sms)[0]).toMatchObject({ level: 'warn', now: 'thaibulksms, THAIBULKSMS_BASE_URL http://127.0.0.1:9999' });
  expect(find(findings({ env: { SMS_PROVIDER: 'twilio' } }, OUTSIDE_SERVICES), sms)[0]).toMatchObject({ level: 'unsafe', note: 'not available: the server refuses to start (available: simulator, thaibulksms)' });
  // Nothing of the secret's value in the finding.
  expect(JSON.stringify(find(findings({ env: real }, OUTSIDE_SERVICES), sms))).not.toContain(real.THAIBULKSMS_API_SECRET);
});

describe('on a database', () => {
  let d: TestDb;
  let dataDir: string;
  const out: string[] = [];
  const key = secretKeyFrom(GAME_KEY) as Buffer;
  beforeEach(async () => {
    d = await freshDb();
    await seedBase(d.db);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-'));
    out.length = 0;
  });
  afterEach(async () => {
    await d.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const base = () => ({ ...GOOD, DATABASE_URL: '', REDIS_URL: '', WORKERS: '1', DATA_DIR: dataDir, BACKUP_DIR: path.join(dataDir, 'backups') });
  const ctx = (env: Record<string, string>) => ({ db: d.db, config: { registerOtp: false, minPlayerAge: 20, demo: false }, env, out: (l: string) => out.push(l), err: (l: string) => out.push(l), secretKey: key });
  const line = (level: Level, setting: string) => out.find((l) => l.startsWith(`${level.padEnd(7)} ${setting} `));

  test('a demo database and config: exit 1, with DEMO, the simulators, the demo accounts and no admin among the findings', async () => {
    await seedDemoStaff(d.db, new Date(), key);
    await seedDemo(d.db);
    const env = { DATA_DIR: dataDir, DEMO: 'on' };
    expect(await runOperator(['check'], ctx(env))).toBe(1);
    for (const [level, setting] of [['unsafe', 'DEMO'], ['unsafe', 'GAME_PROVIDER (game provider)'], ['unsafe', 'SMS_PROVIDER (SMS sender)'], ['unsafe', 'PROMPTPAY_ID'], ['unsafe', 'administrator'], ['unsafe', 'demo staff accounts'], ['unsafe', 'demo player'], ['missing', 'NODE_ENV']] as const) {
      expect(line(level, setting)).toBeDefined();
    }
    expect(line('unsafe', 'demo staff accounts')).toContain('active: support, payments');
    expect(out[out.length - 1]).toMatch(/^not ready for real money: \d+ unsafe/);
  });

  test('a correctly configured setup (with real adapters): exit 0; as the server is today (simulators only), exit 1', async () => {
    fs.mkdirSync(path.join(dataDir, 'backups'));
    fs.writeFileSync(path.join(dataDir, 'backups', 'wallet-20261202T010000Z.sqlite'), '');
    const env = base();
    expect(await runOperator(['setup'], ctx({ ...env, SETUP_USERNAME: 'root', SETUP_NAME: 'Root', STAFF_PASSWORD: 'first-admin-secret-1' }))).toBe(0);
    out.length = 0;
    expect(await runCheck({ db: d.db, env, out: (l) => out.push(l), services: REAL })).toBe(0);
    expect(line('ok', 'administrator')).toContain('root');
    expect(line('warn', 'DATABASE_URL')).toBeDefined(); // SQLite alone: a warning, not a failure
    expect(out[out.length - 1]).toBe('ready for real money: nothing unsafe, missing or weak (1 warnings)');
    out.length = 0;
    expect(await runOperator(['check'], ctx(env))).toBe(1);
    // Only the outside services fail: the server has no real adapter of any yet.
    expect(out.filter((l) => /^(unsafe|missing|weak) /.test(l)).map((l) => l.slice(8).split(/\s{2,}/)[0])).toEqual([
      'GAME_PROVIDER (game provider)', 'PAYOUT_PROVIDER (payout provider)', 'PAYMENT_GATEWAY (payment gateway)',
      'SLIP_VERIFIER (slip verifier)', 'GIFT_REDEEMER (gift-link redeemer)', 'SMS_PROVIDER (SMS sender)',
    ]);
  });

  test('an admin whose second factor another key sealed is found out', async () => {
    const env = base();
    expect(await runOperator(['setup'], { ...ctx({ ...env, SETUP_USERNAME: 'root', SETUP_NAME: 'Root', STAFF_PASSWORD: 'first-admin-secret-1' }), secretKey: secretKeyFrom(newSecretKey()) as Buffer })).toBe(0);
    out.length = 0;
    expect(await runCheck({ db: d.db, env, out: (l) => out.push(l), services: REAL })).toBe(1);
    expect(line('unsafe', 'administrator')).toContain('root (second factor sealed with another key)');
  });

  test('the CLI: runs on a configuration the server refuses, reads the database, prints no secret', async () => {
    await seedDemoStaff(d.db, new Date(), key);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: d.dataDir, NODE_ENV: 'production', DEMO: 'on', JWT_SECRET: 'secret-value-too-short' };
    for (const k of ['DATABASE_URL', 'REDIS_URL', 'GAME_SECRET_KEY', 'PAYMENT_WEBHOOK_SECRET', 'WORKERS', 'METRICS_TOKEN', 'METRICS_PORT', 'TRUST_PROXY', 'BACKUP_DIR']) delete env[k];
    if (testEngine() === 'postgres') {
      const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(d.db);
      const url = process.env.DATABASE_URL as string;
      env.DATABASE_URL = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${rows[0].s}`)}`;
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/operator-cli.ts', 'check'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^unsafe +configuration +refused +the server does not start with it: DEMO must be off when NODE_ENV=production/m);
    expect(r.stdout).toMatch(/^weak +JWT_SECRET +set \(22 characters\)/m);
    expect(r.stdout).toMatch(/^unsafe +demo staff accounts +active: support, payments/m);
    expect(r.stdout).not.toContain('secret-value-too-short');
  });

  test('the CLI without a database: the finding says so and no SQLite file is made', () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/operator-cli.ts', 'check'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^unsafe +database +not read +no database: run npm run migrate/m);
    expect(fs.existsSync(path.join(dataDir, 'wallet.sqlite'))).toBe(false);
  });
});

/** The names the server's own chooser of each service accepts: its refusal of an unknown one lists them. */
function chooserKnows(choose: () => unknown): string[] {
  try {
    choose();
  } catch (e) {
    const m = /known: (.+)$/.exec((e as Error).message);
    if (m) return m[1].split(/,\s*/);
    throw e;
  }
  throw new Error('the chooser took an unknown name');
}

test("OUTSIDE_SERVICES knows the names each of the server's choosers accepts (a new adapter's name goes into both)", () => {
  const app = { config: { demo: false }, db: null, clock: { now: () => new Date() } } as unknown as FastifyInstance;
  const choosers: Record<string, () => unknown> = {
    GAME_PROVIDER: () => createGameProvider({ demo: false } as Config, null as unknown as Kysely<DB>, { env: { GAME_PROVIDER: 'nope' } }),
    PAYOUT_PROVIDER: () => createPayoutAdapter(false, { PAYOUT_PROVIDER: 'nope' }),
    PAYMENT_GATEWAY: () => createDepositAdapters(app, { PAYMENT_GATEWAY: 'nope' }, {}),
    SLIP_VERIFIER: () => createDepositAdapters(app, { PAYMENT_GATEWAY: 'simulator', SLIP_VERIFIER: 'nope' }, {}),
    GIFT_REDEEMER: () => createDepositAdapters(app, { PAYMENT_GATEWAY: 'simulator', SLIP_VERIFIER: 'simulator', GIFT_REDEEMER: 'nope' }, {}),
    SMS_PROVIDER: () => smsProviderOf({ SMS_PROVIDER: 'nope' }),
    SEAMLESS_AGGREGATOR: () => openAggregator({ SEAMLESS_AGGREGATOR: 'nope' }),
  };
  for (const s of OUTSIDE_SERVICES.filter((x) => x.setting)) {
    expect([s.setting, [...s.available].sort()]).toEqual([s.setting, chooserKnows(choosers[s.setting as string]).sort()]);
  }
});
