import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { newSecretKey, secretKeyFrom } from './lib/secret-box';
import { defaultPoolMax } from './lib/pool-size';
import { ROOT } from './lib/paths';

/** Everything the server reads from the environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres:// URL selects PostgreSQL; otherwise SQLite in dataDir. */
  databaseUrl: string | null;
  /** DB_POOL_MAX (1..100): PostgreSQL connections per process at most; default two per core over WORKERS, 4..10 (lib/pool-size.ts). */
  dbPoolMax: number;
  redisUrl: string | null;
  jwtSecret: string;
  /** AES-256 key that seals game account passwords at rest (server/lib/secret-box.ts). */
  gameSecretKey: Buffer;
  paymentWebhookSecret: string;
  /** Demo mode: simulators for every outside service and seeded demo data. */
  demo: boolean;
  market: 'th' | 'lao';
  /** Directory holding the built SPA (served statically). */
  distDir: string;
  logLevel: string;
  /** OTP on registration (the registerOTP lookup reflects it). */
  registerOtp: boolean;
  /**
   * Minimum player age the operator requires (MIN_PLAYER_AGE, 18..99, default 20: Thailand's age of majority);
   * shown in the conditions and the registration checkbox (GET /api/lookup/info minPlayerAge), per jurisdiction.
   */
  minPlayerAge: number;
  /**
   * PLAY_MINUTE_MS: the length of one "minute" of the session limit and the reality check (docs/responsible-play.md),
   * 60000; only the end-to-end suite shortens it, and NODE_ENV=production refuses anything else.
   */
  playMinuteMs: number;
  /** PAYOUT_EXPECTED_MINUTES (1..1440, default 30): a payout in progress longer is overdue in the back office. */
  payoutExpectedMinutes: number;
  /** Global per-address request limit per minute (0 turns it off, e.g. for load tests behind one address). */
  rateLimitPerMinute: number;
  /** Origins allowed to embed the app in a frame (the mobile/iframe variant's host app); 'self' by default. */
  frameAncestors: string[];
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (rate limits, logs): true, a hop count,
   * or addresses/CIDRs. Default 'loopback': a reverse proxy on the same machine, and nobody else.
   */
  trustProxy: boolean | number | string;
  /** Socket.io room prefix of the support chat (rooms `{prefix}-{userId}`); also keys its Redis channels. */
  chatPrefix: string;
  /**
   * Abuse limits of the chat and its sockets (docs/chat.md "Abuse limits"): SOCKET_SESSION_CHECK_MS (how often each
   * process re-checks the sessions of its open sockets, 5000), SOCKET_MAX_PER_ADDRESS (open sockets per client
   * address per process, 50), SOCKET_EVENTS_PER_MINUTE (frames one socket may send, 30), CHAT_GUEST_IDS_PER_HOUR
   * (new guest ids per address, 20) and CHAT_GUEST_SENDS_PER_MINUTE (guest messages per address, 60).
   */
  chatLimits: ChatLimits;
  /** METRICS_TOKEN: GET /metrics on the API port answers only `Authorization: Bearer <token>` (docs/operations.md). */
  metricsToken: string | null;
  /** METRICS_PORT: /metrics is served on this port instead (METRICS_HOST, 127.0.0.1 by default), never on the API port. */
  metricsPort: number | null;
  metricsHost: string;
  /**
   * JOB_LEASE_TTL_MS: how long a background job's lease (the reconciler, the bet-feed poller) lasts without renewal;
   * renewed every third of it, so another process takes over a dead holder's job within 4/3 of it (docs/operations.md).
   */
  jobLeaseTtlMs: number;
  /** WORKERS (1..64, default 1): processes serving the port (server/cluster.ts); more than one needs PostgreSQL and Redis. */
  workers: number;
  /**
   * The staff second factor's cumulative bound (docs/staff.md "Second factor"): STAFF_TOTP_MAX_FAILURES (1..1000,
   * default 30) failed codes within STAFF_TOTP_FAILURE_WINDOW_SECONDS (60..2592000, default 86400) lock the account
   * until the operator's `staff totp <username>`.
   */
  staffTotpMaxFailures: number;
  staffTotpFailureWindowSeconds: number;
}

export interface ChatLimits {
  socketSessionCheckMs: number;
  socketMaxPerAddress: number;
  socketEventsPerMinute: number;
  guestIdsPerHour: number;
  guestSendsPerMinute: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function bool(env: Env, name: string, dflt: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  if (/^(1|true|on|yes)$/i.test(v)) return true;
  if (/^(0|false|off|no)$/i.test(v)) return false;
  throw new ConfigError(`${name} must be on/off (true/false, 1/0), got "${v}"`);
}

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  if (!/^\d+$/.test(v)) throw new ConfigError(`${name} must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Reads JWT_SECRET, or the one generated on first start and kept in DATA_DIR. */
function jwtSecret(env: Env, dataDir: string, persist: boolean): string {
  const v = env.JWT_SECRET;
  if (v !== undefined && v !== '') {
    if (v.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
    return v;
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (fs.existsSync(file)) {
    // An empty (or cut) file would sign every token with a guessable key: refuse it rather than replace it silently.
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length < 32) throw new ConfigError(`DATA_DIR/jwt-secret holds fewer than 32 characters (${file}): delete it to have a new one made (every session ends) or set JWT_SECRET`);
    return stored;
  }
  const secret = crypto.randomBytes(48).toString('base64url');
  if (persist) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
  }
  return secret;
}

/**
 * Reads GAME_SECRET_KEY, or the key generated on first start and kept in DATA_DIR. A key file that does not
 * read as a key stops the start: replacing it would make every stored game password unreadable.
 */
function gameSecretKey(env: Env, dataDir: string, persist: boolean): Buffer {
  const v = env.GAME_SECRET_KEY;
  if (v !== undefined && v !== '') {
    const key = secretKeyFrom(v);
    if (!key) throw new ConfigError('GAME_SECRET_KEY must be at least 32 characters or a base64 32-byte key');
    return key;
  }
  const file = path.join(dataDir, 'game-secret-key');
  if (fs.existsSync(file)) {
    const stored = fs.readFileSync(file, 'utf8').trim();
    const key = /^[A-Za-z0-9+/]{43}=$/.test(stored) ? secretKeyFrom(stored) : null;
    if (!key) throw new ConfigError(`DATA_DIR/game-secret-key is not a base64 32-byte key (${file})`);
    return key;
  }
  const generated = newSecretKey();
  if (persist) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, generated, { mode: 0o600 });
  }
  return secretKeyFrom(generated) as Buffer;
}

/** RULES.md: a per-address limit must never trip a busy real player (300 API requests a minute). */
function rateLimit(env: Env): number {
  const n = int(env, 'RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000);
  if (n !== 0 && n < 300) throw new ConfigError(`RATE_LIMIT_PER_MINUTE must be 0 (off) or at least 300, got ${n}`);
  return n;
}

function frameAncestors(env: Env): string[] {
  const v = (env.FRAME_ANCESTORS || '').trim();
  if (!v) return ["'self'"];
  const list = v.split(/[\s,]+/);
  for (const o of list) {
    if (o !== "'self'" && !/^https?:\/\/[\w.-]+(:\d+)?$/.test(o)) {
      throw new ConfigError(`FRAME_ANCESTORS must be origins like https://host.example (space separated), got "${o}"`);
    }
  }
  return list;
}

function trustProxy(env: Env): boolean | number | string {
  const v = (env.TRUST_PROXY || '').trim();
  if (!v) return 'loopback';
  if (/^(true|on|yes)$/i.test(v)) return true;
  if (/^(false|off|no)$/i.test(v)) return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (/^[\w.:/,\s-]+$/.test(v)) return v;
  throw new ConfigError(`TRUST_PROXY must be on/off, a hop count or addresses (CIDR), got "${v}"`);
}

function chatPrefix(env: Env): string {
  const v = env.CHAT_PREFIX || 'wallet-chat';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/.test(v)) throw new ConfigError(`CHAT_PREFIX must be 1-40 letters, digits, '.', '_' or '-', got "${v}"`);
  return v;
}

/** Responsible play: a shortened "minute" would let a session run past its limit unnoticed, so production keeps 60000. */
function playMinuteMs(env: Env): number {
  const n = int(env, 'PLAY_MINUTE_MS', 60_000, 10, 60_000);
  if (n !== 60_000 && env.NODE_ENV === 'production') throw new ConfigError(`PLAY_MINUTE_MS must be 60000 when NODE_ENV=production, got ${n}`);
  return n;
}

function logLevel(env: Env): string {
  const v = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(v)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${v}"`);
  }
  return v;
}

/** Who may read /metrics: a token, a port of its own, or both; neither leaves /metrics unregistered. */
function metrics(env: Env, apiPort: number): Pick<Config, 'metricsToken' | 'metricsPort' | 'metricsHost'> {
  const token = env.METRICS_TOKEN || null;
  if (token !== null && !/^[\x21-\x7e]{24,256}$/.test(token)) {
    throw new ConfigError('METRICS_TOKEN must be 24-256 printable characters without spaces (a random secret: openssl rand -hex 24)');
  }
  const port = env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? null : int(env, 'METRICS_PORT', 0, 0, 65535);
  if (port !== null && port !== 0 && port === apiPort) throw new ConfigError(`METRICS_PORT must differ from PORT (${apiPort})`);
  const host = env.METRICS_HOST || '127.0.0.1';
  if (!/^[\w.:-]+$/.test(host)) throw new ConfigError(`METRICS_HOST must be an address or host name, got "${host}"`);
  return { metricsToken: token, metricsPort: port, metricsHost: host };
}

export const DEMO_WEBHOOK_SECRET = 'demo-webhook-secret-change-me';

export function loadConfig(env: Env = process.env, opts: { persistSecrets?: boolean; demoDefault?: boolean } = {}): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL, got "${databaseUrl}"`);
  }
  const redisUrl = env.REDIS_URL || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must be a redis:// URL, got "${redisUrl}"`);
  }
  const market = (env.MARKET || 'th') as Config['market'];
  if (market !== 'th' && market !== 'lao') throw new ConfigError(`MARKET must be th or lao, got "${env.MARKET}"`);
  const demo = bool(env, 'DEMO', opts.demoDefault ?? false);
  // Demo mode serves /demo/bank (pays any QR, lists players' bank accounts) without a login: never in production.
  if (demo && env.NODE_ENV === 'production') {
    throw new ConfigError('DEMO must be off when NODE_ENV=production (demo mode pays any QR without a login): set DEMO=off and the real adapters');
  }
  const webhook = env.PAYMENT_WEBHOOK_SECRET;
  if (!webhook && !demo) throw new ConfigError('PAYMENT_WEBHOOK_SECRET is required when DEMO is off');
  // A short HMAC secret can be guessed offline from one signed webhook.
  if (webhook && !demo && webhook.length < 32) throw new ConfigError('PAYMENT_WEBHOOK_SECRET must be at least 32 characters when DEMO is off');
  const port = int(env, 'PORT', 3000, 0, 65535);
  const workers = int(env, 'WORKERS', 1, 1, 64);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    redisUrl,
    jwtSecret: jwtSecret(env, dataDir, opts.persistSecrets ?? true),
    gameSecretKey: gameSecretKey(env, dataDir, opts.persistSecrets ?? true),
    paymentWebhookSecret: webhook || DEMO_WEBHOOK_SECRET,
    demo,
    market,
    distDir: path.resolve(env.DIST_DIR || path.join(ROOT, 'dist')),
    logLevel: logLevel(env),
    registerOtp: bool(env, 'REGISTER_OTP', false),
    minPlayerAge: int(env, 'MIN_PLAYER_AGE', 20, 18, 99),
    playMinuteMs: playMinuteMs(env),
    payoutExpectedMinutes: int(env, 'PAYOUT_EXPECTED_MINUTES', 30, 1, 1440),
    rateLimitPerMinute: rateLimit(env),
    frameAncestors: frameAncestors(env),
    trustProxy: trustProxy(env),
    chatPrefix: chatPrefix(env),
    chatLimits: {
      socketSessionCheckMs: int(env, 'SOCKET_SESSION_CHECK_MS', 5000, 50, 60_000),
      socketMaxPerAddress: int(env, 'SOCKET_MAX_PER_ADDRESS', 50, 1, 100_000),
      socketEventsPerMinute: int(env, 'SOCKET_EVENTS_PER_MINUTE', 30, 1, 100_000),
      guestIdsPerHour: int(env, 'CHAT_GUEST_IDS_PER_HOUR', 20, 1, 1_000_000),
      guestSendsPerMinute: int(env, 'CHAT_GUEST_SENDS_PER_MINUTE', 60, 1, 1_000_000),
    },
    ...metrics(env, port),
    jobLeaseTtlMs: int(env, 'JOB_LEASE_TTL_MS', 30_000, 300, 40_000),
    workers,
    dbPoolMax: int(env, 'DB_POOL_MAX', defaultPoolMax(os.availableParallelism(), workers), 1, 100),
    staffTotpMaxFailures: int(env, 'STAFF_TOTP_MAX_FAILURES', 30, 1, 1000),
    staffTotpFailureWindowSeconds: int(env, 'STAFF_TOTP_FAILURE_WINDOW_SECONDS', 86_400, 60, 2_592_000),
  };
}
