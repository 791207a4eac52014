/**
 * `npm run operator -- check`: is this configuration and database fit to take real money (issue 44, docs/server.md
 * "Operator CLI")? One line per setting a live start needs: its finding, the setting, what it is now (a secret only
 * as set/unset and its length, a URL without its credentials) and what to do.
 *
 * `checkFindings(env, facts)` is the whole judgement, a pure function; `gatherFacts` reads what it needs besides
 * the environment (DATA_DIR's key files, the database's staff and demo rows, the backups folder, pg_dump).
 * Findings: ok; warn (printed, does not fail); weak, missing, unsafe (each fails: exit 1).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { ConfigError, DEMO_WEBHOOK_SECRET, loadConfig } from '../config';
import { createDb } from '../db';
import { secretKeyFrom } from '../lib/secret-box';
import { openTotpSecret } from '../plugins/staff/totp';
import { DEMO_PROMPTPAY_ID } from '../plugins/deposits/domain/promptpay';
import { PAYMENT_GATEWAYS, SLIP_VERIFIERS } from '../plugins/deposits/adapters';
import { SMS_PROVIDERS } from '../adapters/sms';
import { SEAMLESS_AGGREGATORS } from '../adapters/aggregator';

export type Level = 'ok' | 'warn' | 'weak' | 'missing' | 'unsafe';
export const FAILING: readonly Level[] = ['weak', 'missing', 'unsafe'];

export interface Finding {
  level: Level;
  setting: string;
  /** What it is now, never a secret's value. */
  now: string;
  note: string;
}

/**
 * One outside service and how the server chooses its adapter. `setting` null: no setting chooses it (a service
 * only code can replace). `available`: the names the server's chooser accepts (server/adapters/games/index.ts,
 * server/adapters/payouts/index.ts, server/plugins/deposits/adapters.ts, server/adapters/sms/index.ts);
 * `simulators`: those that are simulators. A real adapter's name is added to `available` when it lands.
 */
export interface OutsideService {
  service: string;
  setting: string | null;
  available: readonly string[];
  simulators: readonly string[];
  /** Settings a real adapter cannot start without, by its name. */
  requires?: Readonly<Record<string, readonly string[]>>;
  /** Settings that point a real adapter somewhere else than its service (contract fakes, sandboxes), by its name. */
  overrides?: Readonly<Record<string, readonly string[]>>;
  /** The adapter the server uses when the setting is unset, whatever DEMO (else: the simulator in demo mode, a refused start outside it). */
  whenUnset?: string;
  /** Why its simulator is unsafe, when not "a simulator moves no real money". */
  simulatorRisk?: string;
}

export const OUTSIDE_SERVICES: readonly OutsideService[] = [
  { service: 'game provider', setting: 'GAME_PROVIDER', available: ['simulator'], simulators: ['simulator'] },
  { service: 'payout provider', setting: 'PAYOUT_PROVIDER', available: ['simulator'], simulators: ['simulator'] },
  {
    service: 'payment gateway',
    setting: 'PAYMENT_GATEWAY',
    available: PAYMENT_GATEWAYS,
    simulators: ['simulator'],
    requires: { opn: ['OPN_SECRET_KEY', 'OPN_WEBHOOK_SECRET'] },
    overrides: { opn: ['OPN_BASE_URL'] },
  },
  {
    service: 'slip verifier',
    setting: 'SLIP_VERIFIER',
    available: SLIP_VERIFIERS,
    simulators: ['simulator'],
    requires: { easyslip: ['EASYSLIP_API_KEY'], slipok: ['SLIPOK_API_KEY', 'SLIPOK_BRANCH_ID'] },
    overrides: { easyslip: ['EASYSLIP_BASE_URL'], slipok: ['SLIPOK_BASE_URL'] },
  },
  { service: 'gift-link redeemer', setting: 'GIFT_REDEEMER', available: ['simulator'], simulators: ['simulator'] },
  {
    service: 'SMS sender',
    setting: 'SMS_PROVIDER',
    available: SMS_PROVIDERS,
    simulators: ['simulator'],
    // Unset is the simulator outside demo mode too, as before SMS_PROVIDER existed (server/adapters/sms/index.ts).
    whenUnset: 'simulator',
    simulatorRisk: 'registration codes and password resets go to the server log and the sms_outbox table, not to phones: SMS_PROVIDER=thaibulksms with its key and secret (docs/providers/thaibulksms.md)',
    requires: { thaibulksms: ['THAIBULKSMS_API_KEY', 'THAIBULKSMS_API_SECRET'] },
    overrides: { thaibulksms: ['THAIBULKSMS_BASE_URL'] },
  },
  {
    // The seamless wallet's aggregator (docs/seamless-wallet.md): off unless named in production (no seamless game
    // is offered then); the simulator is refused there, its keys being public.
    service: 'seamless aggregator',
    setting: 'SEAMLESS_AGGREGATOR',
    available: SEAMLESS_AGGREGATORS,
    simulators: ['simulator'],
    whenUnset: 'off',
    simulatorRisk: 'its keys are public and it moves no real money; the server refuses it with NODE_ENV=production: SEAMLESS_AGGREGATOR=hub88 with its settings, or off',
    requires: { hub88: ['HUB88_OPERATOR_ID', 'HUB88_PUBLIC_KEY', 'SEAMLESS_PRIVATE_KEY', 'HUB88_BASE_URL'] },
  },
];

export interface DatabaseFacts {
  /** Active admin accounts and their second factor: opens with the key, none, or sealed with another key. */
  admins: { username: string; secondFactor: 'ok' | 'none' | 'other-key' }[];
  /** Active staff accounts a demo start made (staff_users.demo = 1). */
  demoStaff: string[];
  /** Phones of the players a demo start made that are still active (players.demo = 1). */
  demoPlayers: string[];
}

export interface CheckFacts {
  /** What loadConfig refuses for this environment (a live start: DEMO off unless set), or null. */
  configError: string | null;
  /** DATA_DIR/jwt-secret's length and whether DATA_DIR/game-secret-key reads as a key; null: no such file. */
  files: { jwtSecretLength: number | null; gameSecretKey: 'valid' | 'invalid' | null };
  /** The database's staff and demo rows, or why they could not be read. */
  database: DatabaseFacts | { error: string };
  /** BACKUP_DIR (resolved) and its newest backup's age. */
  backups: { dir: string; newestHoursAgo: number | null };
  /** `pg_dump --version`'s line, or null when there is none on PATH (only asked with PostgreSQL). */
  pgDump: string | null;
}

type Env = Record<string, string | undefined>;

const val = (env: Env, name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
const secretNow = (v: string | undefined) => (v === undefined ? 'unset' : `set (${v.length} characters)`);
const onOff = (v: string | undefined): boolean | null => (v === undefined ? null : /^(1|true|on|yes)$/i.test(v) ? true : /^(0|false|off|no)$/i.test(v) ? false : null);

/** A URL as it may be printed: scheme, host, port and path, never a user or password. */
function safeUrl(v: string): string {
  try {
    const u = new URL(v);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}${u.password || u.username ? ' (credentials not shown)' : ''}`;
  } catch {
    return 'set (not a URL)';
  }
}

export const SETUP_HINT = 'npm run operator -- setup';

/** The judgement: every finding for this environment and these facts, in a fixed order. */
export function checkFindings(env: Env, facts: CheckFacts, services: readonly OutsideService[] = OUTSIDE_SERVICES): Finding[] {
  const f: Finding[] = [];
  const add = (level: Level, setting: string, now: string, note: string) => f.push({ level, setting, now, note });
  const production = env.NODE_ENV === 'production';
  const demoSetting = onOff(val(env, 'DEMO'));
  // npm start turns demo on when DEMO is unset; start:prod (and NODE_ENV=production) does not.
  const demo = demoSetting ?? !production;
  const workers = Number(val(env, 'WORKERS') ?? '1');

  if (facts.configError) add('unsafe', 'configuration', 'refused', `the server does not start with it: ${facts.configError}`);

  if (production) add('ok', 'NODE_ENV', 'production', 'DEMO and a shortened PLAY_MINUTE_MS are refused at start');
  else add('missing', 'NODE_ENV', val(env, 'NODE_ENV') ?? 'unset', 'set NODE_ENV=production: a live start then refuses DEMO and test timings');

  if (demoSetting === true) add('unsafe', 'DEMO', 'on', 'demo mode serves simulators and the demo bank page (pays any QR without a login): set DEMO=off');
  else if (demoSetting === null && !production) add('unsafe', 'DEMO', 'unset', 'npm start turns demo mode on when DEMO is unset: set DEMO=off');
  else add('ok', 'DEMO', demoSetting === false ? 'off' : 'unset (off)', demoSetting === false ? '' : 'off under npm run start:prod; npm start refuses it with NODE_ENV=production');

  const jwt = val(env, 'JWT_SECRET');
  if (jwt !== undefined) add(jwt.length >= 32 ? 'ok' : 'weak', 'JWT_SECRET', secretNow(jwt), jwt.length >= 32 ? 'signs player and staff tokens' : 'at least 32 characters (openssl rand -base64 48); the server refuses a shorter one');
  else if (facts.files.jwtSecretLength !== null) {
    const n = facts.files.jwtSecretLength;
    add(n >= 32 ? 'ok' : 'weak', 'JWT_SECRET', `unset; DATA_DIR/jwt-secret (${n} characters)`, n >= 32 ? 'the key file the first start made; keep it safe, apart from the backups' : 'the key file is shorter than 32 characters: delete it (every session ends) or set JWT_SECRET');
  } else add('warn', 'JWT_SECRET', 'unset; no DATA_DIR/jwt-secret yet', 'the first start makes one in DATA_DIR; with several machines set the same JWT_SECRET on each');

  const gameKey = val(env, 'GAME_SECRET_KEY');
  if (gameKey !== undefined) {
    const ok = secretKeyFrom(gameKey) !== null;
    add(ok ? 'ok' : 'weak', 'GAME_SECRET_KEY', secretNow(gameKey), ok ? 'seals game passwords and staff second factors; keep it with the backups, apart from them' : 'at least 32 characters or a base64 32-byte key; the server refuses it');
  } else if (facts.files.gameSecretKey === 'valid') add('ok', 'GAME_SECRET_KEY', 'unset; DATA_DIR/game-secret-key', 'the key file the first start made; keep a copy with the backups, apart from them');
  else if (facts.files.gameSecretKey === 'invalid') add('unsafe', 'GAME_SECRET_KEY', 'unset; DATA_DIR/game-secret-key does not read as a key', 'the server refuses to start; restore the file from its copy');
  else add('warn', 'GAME_SECRET_KEY', 'unset; no DATA_DIR/game-secret-key yet', `the first start makes one; ${SETUP_HINT} needs it (start once, or set GAME_SECRET_KEY)`);

  const webhook = val(env, 'PAYMENT_WEBHOOK_SECRET');
  if (webhook === undefined) add('missing', 'PAYMENT_WEBHOOK_SECRET', 'unset', 'the payment gateway signs its webhooks with it: at least 32 characters (openssl rand -hex 32)');
  else if (webhook === DEMO_WEBHOOK_SECRET) add('unsafe', 'PAYMENT_WEBHOOK_SECRET', secretNow(webhook), 'the demo value, published in the code: anyone could sign a webhook');
  else if (webhook.length < 32) add('weak', 'PAYMENT_WEBHOOK_SECRET', secretNow(webhook), 'at least 32 characters: a short HMAC secret can be guessed offline from one webhook');
  else add('ok', 'PAYMENT_WEBHOOK_SECRET', secretNow(webhook), '');

  for (const s of services) {
    const named = s.setting ? val(env, s.setting) : s.available[0];
    const label = s.setting ? `${s.setting} (${s.service})` : s.service;
    const kind = named ?? s.whenUnset ?? (demo ? 'simulator' : undefined);
    const now = !s.setting ? `${kind} (no setting chooses it)` : named === undefined ? (s.whenUnset ? `unset (${kind})` : `unset (${kind} in demo mode)`) : named;
    if (kind === undefined) add('missing', label, 'unset', `name the real adapter; the server refuses to start without one (available: ${s.available.join(', ')})`);
    else if (!s.available.includes(kind)) add('unsafe', label, kind, `not available: the server refuses to start (available: ${s.available.join(', ')})`);
    else if (s.simulators.includes(kind)) {
      const why = s.simulatorRisk ?? 'a simulator moves no real money';
      add('unsafe', label, now, why);
    } else {
      const unset = (s.requires?.[kind] ?? []).filter((n) => val(env, n) === undefined);
      const moved = (s.overrides?.[kind] ?? []).filter((n) => val(env, n) !== undefined);
      if (unset.length) add('missing', label, kind, `${unset.join(' and ')} unset: the server refuses to start without ${unset.length > 1 ? 'them' : 'it'}`);
      else if (moved.length) add('warn', label, `${kind}, ${moved.map((n) => `${n} ${safeUrl(String(val(env, n)))}`).join(', ')}`, `${moved.join(', ')} sends the calls elsewhere than the service (fakes and sandboxes only)`);
      else add('ok', label, named === undefined ? now : kind, '');
    }
  }

  const promptPay = val(env, 'PROMPTPAY_ID');
  if (promptPay === undefined || promptPay.replace(/\D/g, '') === DEMO_PROMPTPAY_ID) add('unsafe', 'PROMPTPAY_ID', promptPay === undefined ? 'unset (the demo id)' : 'the demo id', `deposits would pay the demo PromptPay id ${DEMO_PROMPTPAY_ID}: set the operator's own`);
  else add('ok', 'PROMPTPAY_ID', promptPay, 'the PromptPay id deposit QR codes pay');
  if (val(env, 'PROMPTPAY_NAME') === undefined) add('missing', 'PROMPTPAY_NAME', 'unset (DEMO OPERATOR CO LTD)', "the receiver's account name players' banks show");
  else add('ok', 'PROMPTPAY_NAME', String(val(env, 'PROMPTPAY_NAME')), '');
  const giftMobile = val(env, 'GIFT_RECEIVER_MOBILE');
  if (giftMobile === undefined || giftMobile === DEMO_PROMPTPAY_ID) add('unsafe', 'GIFT_RECEIVER_MOBILE', giftMobile === undefined ? 'unset (the demo number)' : 'the demo number', `gift vouchers would be redeemed into ${DEMO_PROMPTPAY_ID}: set the operator's mobile wallet`);
  else add('ok', 'GIFT_RECEIVER_MOBILE', giftMobile, '');

  const trust = (val(env, 'TRUST_PROXY') ?? '').trim();
  if (trust === '') add('ok', 'TRUST_PROXY', 'unset (loopback)', 'a reverse proxy on this machine is expected (deploy/nginx.conf); set its address when it runs elsewhere');
  else if (/^(true|on|yes)$/i.test(trust)) add('unsafe', 'TRUST_PROXY', trust, 'every client could set its own X-Forwarded-For and escape the per-address limits: name the proxy (an address or CIDR) or a hop count');
  else if (/^(false|off|no)$/i.test(trust)) add('warn', 'TRUST_PROXY', trust, 'no proxy expected: behind one, every player would share its address (and its rate limit)');
  else add('ok', 'TRUST_PROXY', trust, 'X-Forwarded-For is believed from these proxies only');

  const frames = (val(env, 'FRAME_ANCESTORS') ?? '').trim();
  if (frames === '') add('ok', 'FRAME_ANCESTORS', "unset ('self')", 'no other site frames the app; the mobile/iframe variant needs its host app here');
  else if (/(^|[\s,])http:\/\//.test(frames)) add('warn', 'FRAME_ANCESTORS', frames, 'an http:// origin may frame the app: a page without TLS can be tampered with');
  else add('ok', 'FRAME_ANCESTORS', frames, '');

  const databaseUrl = val(env, 'DATABASE_URL');
  if (databaseUrl) add('ok', 'DATABASE_URL', `PostgreSQL ${safeUrl(databaseUrl)}`, '');
  else if (workers > 1) add('unsafe', 'DATABASE_URL', 'unset (SQLite)', `WORKERS=${workers} needs PostgreSQL: SQLite has one writer, the server refuses to start`);
  else add('warn', 'DATABASE_URL', 'unset (SQLite in DATA_DIR)', 'one process on one machine; PostgreSQL for several processes or machines');

  const redisUrl = val(env, 'REDIS_URL');
  if (redisUrl) add('ok', 'REDIS_URL', safeUrl(redisUrl), '');
  else if (workers > 1) add('missing', 'REDIS_URL', 'unset', `WORKERS=${workers} shares rate limits, lockouts and socket rooms through Redis: set REDIS_URL`);
  else add('ok', 'REDIS_URL', 'unset', 'not needed with one process (WORKERS=1)');

  const token = val(env, 'METRICS_TOKEN');
  const metricsPort = val(env, 'METRICS_PORT');
  const metricsHost = val(env, 'METRICS_HOST') ?? '127.0.0.1';
  if (!token && !metricsPort) add('missing', 'METRICS_TOKEN / METRICS_PORT', 'both unset', '/metrics is off, so nothing can alert on 5xx, payouts overdue or reviews waiting: set one (docs/operations.md)');
  else if (!token && metricsPort && !/^(127\.|::1$|localhost$)/.test(metricsHost)) add('warn', 'METRICS_TOKEN / METRICS_PORT', `port ${metricsPort} on ${metricsHost}, no token`, 'metrics are readable by anyone who reaches that address: keep it private or set METRICS_TOKEN');
  else add('ok', 'METRICS_TOKEN / METRICS_PORT', [token ? `METRICS_TOKEN ${secretNow(token)}` : '', metricsPort ? `METRICS_PORT ${metricsPort} on ${metricsHost}` : ''].filter(Boolean).join(', '), '');

  const backupNow = `${val(env, 'BACKUP_DIR') === undefined ? 'unset: ' : ''}${facts.backups.dir}`;
  if (databaseUrl && facts.pgDump === null) add('missing', 'BACKUP_DIR (npm run backup)', backupNow, 'pg_dump is not on PATH: npm run backup cannot copy PostgreSQL (install the server major version or newer)');
  else if (facts.backups.newestHoursAgo === null) add('warn', 'BACKUP_DIR (npm run backup)', `${backupNow}, no backup yet`, 'schedule npm run backup (cron or a systemd timer), copy the files off the machine and try a restore');
  else if (facts.backups.newestHoursAgo > 26) add('warn', 'BACKUP_DIR (npm run backup)', `${backupNow}, newest ${Math.round(facts.backups.newestHoursAgo)} h old`, 'no backup in the last day: is the schedule running?');
  else add('ok', 'BACKUP_DIR (npm run backup)', `${backupNow}, newest ${Math.round(facts.backups.newestHoursAgo)} h old`, 'keep copies off the machine; the keys are not in them');

  const minute = val(env, 'PLAY_MINUTE_MS');
  if (minute === undefined || minute === '60000') add('ok', 'PLAY_MINUTE_MS', minute ?? 'unset (60000)', '');
  else add('unsafe', 'PLAY_MINUTE_MS', minute, 'session limits and reality checks would run on a shortened minute: unset it (tests only)');

  if (val(env, 'RATE_LIMIT_PER_MINUTE') === '0') add('warn', 'RATE_LIMIT_PER_MINUTE', '0 (off)', 'no per-address request limit; the login and OTP limits still hold');

  if ('error' in facts.database) add('unsafe', 'database', 'not read', facts.database.error);
  else {
    const { admins, demoStaff, demoPlayers } = facts.database;
    const usable = admins.filter((a) => a.secondFactor === 'ok');
    if (usable.length) add('ok', 'administrator', usable.map((a) => a.username).join(', '), 'active, with a second factor');
    else if (admins.length === 0) add('unsafe', 'administrator', 'none active', `nobody can run the back office: ${SETUP_HINT}`);
    else {
      const otherKey = admins.some((a) => a.secondFactor === 'other-key');
      add('unsafe', 'administrator', admins.map((a) => `${a.username} (${a.secondFactor === 'none' ? 'no second factor' : 'second factor sealed with another key'})`).join(', '), otherKey ? 'GAME_SECRET_KEY is not the key these were enrolled with: set the right key, or staff totp <username>' : 'an admin without a second factor cannot sign in: staff totp <username>');
    }
    if (demoStaff.length) add('unsafe', 'demo staff accounts', `active: ${demoStaff.join(', ')}`, 'their passwords are published: a start with DEMO off disables them (or staff disable <username>)');
    else add('ok', 'demo staff accounts', 'none active', '');
    if (demoPlayers.length) add('unsafe', 'demo player', `active: ${demoPlayers.join(', ')}`, 'a demo database holds made-up money: go live on a fresh database (or player <phone> inactive)');
    else add('ok', 'demo player', 'none active', '');
  }
  return f;
}

/** The report as printed, and the exit code: 1 when anything fails. */
export function formatFindings(findings: Finding[]): { lines: string[]; code: number } {
  const w = Math.max(...findings.map((x) => x.setting.length));
  const nw = Math.min(48, Math.max(...findings.map((x) => x.now.length)));
  const lines = findings.map((x) => `${x.level.padEnd(7)} ${x.setting.padEnd(w)}  ${x.now.padEnd(nw)}${x.note ? `  ${x.note}` : ''}`.trimEnd());
  const count = (l: Level) => findings.filter((x) => x.level === l).length;
  const failing = findings.filter((x) => FAILING.includes(x.level)).length;
  const summary = `${count('unsafe')} unsafe, ${count('missing')} missing, ${count('weak')} weak, ${count('warn')} warnings`;
  lines.push('');
  lines.push(failing ? `not ready for real money: ${summary}` : `ready for real money: nothing unsafe, missing or weak (${count('warn')} warnings)`);
  return { lines, code: failing ? 1 : 0 };
}

/** DATA_DIR/game-secret-key as config.ts reads it: a base64 32-byte key. */
function keyFile(file: string): Buffer | null {
  const stored = fs.readFileSync(file, 'utf8').trim();
  return /^[A-Za-z0-9+/]{43}=$/.test(stored) ? secretKeyFrom(stored) : null;
}

async function databaseFacts(db: Kysely<DB>, key: Buffer | null): Promise<DatabaseFacts> {
  const admins = await db.selectFrom('staff_users').select(['username', 'totp_secret']).where('role', '=', 'admin').where('status', '=', 'active').orderBy('id').execute();
  const demoStaff = await db.selectFrom('staff_users').select('username').where('demo', '=', 1).where('status', '=', 'active').orderBy('id').execute();
  const demoPlayers = await db.selectFrom('players').select('phone').where('demo', '=', 1).where('status', '=', 'active').orderBy('id').execute();
  const opens = (sealed: string) => {
    if (!key) return false;
    try {
      openTotpSecret(key, sealed);
      return true;
    } catch {
      return false;
    }
  };
  return {
    admins: admins.map((a) => ({ username: a.username, secondFactor: a.totp_secret === null ? 'none' : opens(a.totp_secret) ? 'ok' : 'other-key' })),
    demoStaff: demoStaff.map((s) => s.username),
    demoPlayers: demoPlayers.map((p) => p.phone),
  };
}

const BACKUP_FILE = /^wallet-\d{8}T\d{6}Z\.(sqlite|pgdump)$/;

/** What checkFindings needs besides the environment: read from DATA_DIR, the database (when given), BACKUP_DIR, PATH. */
export async function gatherFacts(env: Env, db: Kysely<DB> | null, now = new Date()): Promise<CheckFacts> {
  const dataDir = path.resolve(val(env, 'DATA_DIR') ?? './data');
  let configError: string | null = null;
  try {
    loadConfig(env, { demoDefault: false, persistSecrets: false });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    configError = e.message;
  }
  const jwtFile = path.join(dataDir, 'jwt-secret');
  const keyPath = path.join(dataDir, 'game-secret-key');
  const fileKey = fs.existsSync(keyPath) ? keyFile(keyPath) : null;
  const files: CheckFacts['files'] = {
    jwtSecretLength: fs.existsSync(jwtFile) ? fs.readFileSync(jwtFile, 'utf8').trim().length : null,
    gameSecretKey: fs.existsSync(keyPath) ? (fileKey ? 'valid' : 'invalid') : null,
  };
  const envKey = val(env, 'GAME_SECRET_KEY');
  const key = envKey !== undefined ? secretKeyFrom(envKey) : fileKey;
  let database: CheckFacts['database'];
  if (!db) database = { error: 'no database: run npm run migrate (or a start) with this configuration first' };
  else {
    try {
      database = await databaseFacts(db, key);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      database = { error: /no such table|does not exist/i.test(msg) ? `the database is not set up yet: run npm run migrate first (${msg})` : msg };
    }
  }
  const backupDir = path.resolve(val(env, 'BACKUP_DIR') ?? './backups');
  let newest: number | null = null;
  if (fs.existsSync(backupDir)) {
    for (const name of fs.readdirSync(backupDir)) {
      if (!BACKUP_FILE.test(name)) continue;
      const t = fs.statSync(path.join(backupDir, name)).mtimeMs;
      if (newest === null || t > newest) newest = t;
    }
  }
  const pgDump = val(env, 'DATABASE_URL') ? spawnSync('pg_dump', ['--version'], { encoding: 'utf8' }) : null;
  return {
    configError,
    files,
    database,
    backups: { dir: backupDir, newestHoursAgo: newest === null ? null : Math.max(0, (now.getTime() - newest) / 3_600_000) },
    pgDump: pgDump && pgDump.status === 0 ? pgDump.stdout.trim() : null,
  };
}

export interface CheckContext {
  /** The configured database, or null when there is none to read. */
  db: Kysely<DB> | null;
  env: Env;
  out: (line: string) => void;
  now?: () => Date;
  services?: readonly OutsideService[];
}

/** Prints the findings; 0 when nothing fails, 1 otherwise. */
export async function runCheck(ctx: CheckContext): Promise<number> {
  const facts = await gatherFacts(ctx.env, ctx.db, (ctx.now ?? (() => new Date()))());
  const { lines, code } = formatFindings(checkFindings(ctx.env, facts, ctx.services));
  for (const l of lines) ctx.out(l);
  return code;
}

/**
 * The CLI's `check`, before any configuration is loaded (a refused one is a finding, not a stop): opens the
 * configured database only when it exists (an absent SQLite file is not created).
 */
export async function runCheckFromEnv(env: Env, out: (line: string) => void): Promise<number> {
  const databaseUrl = val(env, 'DATABASE_URL') ?? null;
  const dataDir = path.resolve(val(env, 'DATA_DIR') ?? './data');
  const usable = databaseUrl ? /^postgres(ql)?:\/\//.test(databaseUrl) : fs.existsSync(path.join(dataDir, 'wallet.sqlite'));
  const database = usable ? createDb({ databaseUrl, dataDir, poolMax: 1 }) : null;
  try {
    return await runCheck({ db: database?.db ?? null, env, out });
  } finally {
    await database?.destroy();
  }
}
