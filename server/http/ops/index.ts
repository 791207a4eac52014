import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { unauthorized } from '../../errors';
import { pendingMigrations } from '../../db/migrate';
import { freeDiskBytes } from '../../db/upload-quota';
import { labelOf, type Metrics } from '../../lib/metrics';
import { circuitsOf, type CircuitSnapshot, type CircuitState } from '../../adapters/http';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus metrics (its own registry); adapters and hooks record into it. */
    metrics: Metrics;
    ops: Ops;
  }
}

export interface Ops {
  /** The metrics exposition (Prometheus text format), with the database gauges read now. `log`: the request's logger. */
  scrape(log?: FastifyBaseLogger): Promise<{ contentType: string; body: string }>;
  /** What /readyz answers (its public part) and /readyz/detail (all of it). */
  readiness(): Promise<Readiness>;
  /** The port the separate metrics server listens on (METRICS_PORT), once the app is ready; null without one. */
  metricsPort(): number | null;
}

export interface Readiness {
  ready: boolean;
  /** The checks that failed: database, redis, migrations. */
  notReady: string[];
  /**
   * Each check's state in fixed words (ok, not configured, unreachable, unknown, not checked, or the pending
   * migrations' names): /readyz is public, so a driver's error text (host names, users, paths) goes to the log only.
   */
  checks: { database: string; redis: string; migrations: string };
  /**
   * The outside services whose circuit is open or half-open (docs/operations.md "/readyz/detail"). Reported, never a
   * reason for `ready: false`: slips or SMS down must not take the wallet, the games and the withdrawals out of the
   * load balancer, and every process would fail together.
   */
  degraded: string[];
  /** Each real adapter's breaker (the simulators have none), for the operator's detail only. */
  providers: ProviderReadiness[];
}

export interface ProviderReadiness {
  provider: string;
  /** closed, open or half-open (docs/providers/README.md "Circuit breaker"). */
  state: CircuitState;
  /** Open or half-open: since when, the moment the circuit opened (a half-open circuit is still that outage); closed: null. */
  since: string | null;
  /** Open: when the next probe call goes through; otherwise null. */
  retryAt: string | null;
  /** Consecutive failed calls counted in the current window. */
  failures: number;
  /** The last failure's kind: timeout, connection or http_<status>, never the provider's body. */
  lastFailure: string | null;
}

/** A breaker's snapshot in the detail's words. */
export function providerReadiness(c: CircuitSnapshot): ProviderReadiness {
  return { provider: c.provider, state: c.state, since: c.state === 'closed' ? null : c.openedAt, retryAt: c.retryAt, failures: c.failures, lastFailure: c.lastFailure };
}

/** The payment webhook's route: its answers are counted by outcome. */
const WEBHOOK_ROUTE = '/api/webhooks/payments';
const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Constant-time comparison of `Bearer <token>` with METRICS_TOKEN (both hashed, so lengths never leak). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (\S+)$/.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
  return crypto.timingSafeEqual(digest(m[1]), digest(token));
}

/** The webhook answer's outcome (CREDITED, QR_EXPIRED, PAYOUT_SUCCESS...) or the refusal's code (KEY_INVALID...). */
function webhookOutcome(payload: unknown): string {
  if (typeof payload !== 'string') return 'other';
  try {
    const body = JSON.parse(payload) as { outcome?: unknown; message?: unknown };
    return labelOf(body.outcome ?? body.message);
  } catch {
    return 'other';
  }
}

/**
 * What tells the operator how the app is doing (docs/operations.md): request latency, webhook outcomes, the
 * database gauges read at scrape, /metrics behind a token or on its own port, and the /healthz and /readyz
 * probes (never rate limited, no token). Registered right after the security plugin, before every feature, so
 * its hooks see every route and the features find app.metrics to time their adapters with.
 */
async function ops(app: FastifyInstance) {
  const { config, metrics } = app;

  // Callback hooks, not async ones: they run on every answer, and a promise per hook is measurable (issue 13).
  app.addHook('onResponse', (req, reply, done) => {
    metrics.httpDuration.observe(
      { route: req.routeOptions.url ?? 'unmatched', method: req.method, status_class: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
    done();
  });
  // Only the webhook's answers are read for their outcome: the hook is the webhook route's own.
  const countWebhookOutcome = (_req: unknown, _reply: unknown, payload: unknown, done: (err: null, payload: unknown) => void) => {
    metrics.webhookEvents.inc({ outcome: webhookOutcome(payload) });
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    if (route.url !== WEBHOOK_ROUTE || !methods.includes('POST')) return;
    route.onSend = [...([] as unknown[]).concat(route.onSend ?? []), countWebhookOutcome] as typeof route.onSend;
  });

  async function readGauges(log: FastifyBaseLogger): Promise<void> {
    const now = app.clock.now().getTime();
    const set = (kind: string, row: { n: unknown; oldest: unknown } | undefined) => {
      metrics.pending.set({ kind }, Number(row?.n ?? 0));
      const oldest = typeof row?.oldest === 'string' ? Date.parse(row.oldest) : NaN;
      metrics.pendingOldest.set({ kind }, Number.isFinite(oldest) ? Math.max(0, (now - oldest) / 1000) : 0);
    };
    try {
      const [transfers, withdrawals, reviews] = await Promise.all([
        app.db
          .selectFrom('game_transfers')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
          .where('status', '=', 'pending')
          .executeTakeFirst(),
        app.db
          .selectFrom('withdrawals')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
          .where('status', '=', 'IN_PROGRESS')
          .executeTakeFirst(),
        app.db
          .selectFrom('payment_reviews')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
          .where('status', '=', 'OPEN')
          .executeTakeFirst(),
      ]);
      set('transfer', transfers);
      set('withdrawal', withdrawals);
      set('review', reviews);
    } catch (err) {
      // A scrape still answers (latency, sockets...); the gauges keep their last values.
      log.warn({ err: (err as Error).message }, 'metrics: pending transfers, withdrawals and reviews not read');
    }
    // The upload watermark's own reading (db/upload-quota.ts); a platform without statfs leaves the gauge unset.
    const free = await freeDiskBytes(config.dataDir);
    if (free !== null) metrics.dataDiskFree.set(free);
    const io = app.hasDecorator('realtime') ? app.realtime.io : null;
    if (io) for (const [name, ns] of io._nsps) metrics.openSockets.set({ namespace: name }, ns.sockets.size);
  }

  // Redis is pinged by a connection of its own, opened on the first /readyz.
  let redis: import('ioredis').Redis | null = null;
  async function pingRedis(url: string): Promise<void> {
    if (!redis) {
      const { default: Redis } = await import('ioredis');
      redis = new Redis(url, { lazyConnect: true, connectTimeout: CHECK_TIMEOUT_MS, maxRetriesPerRequest: 1 });
      redis.on('error', (err: Error) => app.log.debug({ err: err.message }, 'readiness redis error'));
    }
    if (redis.status === 'wait' || redis.status === 'end') await redis.connect();
    await redis.ping();
  }
  app.addHook('onClose', async () => {
    await redis?.quit().catch(() => redis?.disconnect());
  });

  // Migrations never go back: once this code's are all applied, they stay so for the life of the process.
  let migrationsCurrent = false;
  // The breaker states the last readiness read saw: a change is one log line (warn when not closed).
  const seenStates = new Map<string, CircuitState>();
  function readProviders(): ProviderReadiness[] {
    const providers = circuitsOf(app).snapshot().map(providerReadiness);
    for (const p of providers) {
      const before = seenStates.get(p.provider) ?? 'closed';
      seenStates.set(p.provider, p.state);
      if (p.state === before) continue;
      const line = { provider: p.provider, circuit: p.state, since: p.since, retryAt: p.retryAt, lastFailure: p.lastFailure };
      if (p.state === 'closed') app.log.info(line, `readiness: ${p.provider} circuit closed again`);
      else app.log.warn(line, `readiness: ${p.provider} circuit ${p.state}, degraded`);
    }
    return providers;
  }
  async function readiness(): Promise<Readiness> {
    const checks: Readiness['checks'] = { database: 'ok', redis: config.redisUrl ? 'ok' : 'not configured', migrations: 'ok' };
    const notReady: string[] = [];
    const fail = (name: keyof Readiness['checks'], what: string, err?: Error) => {
      checks[name] = what;
      notReady.push(name);
      if (err) app.log.warn({ check: name, err: err.message }, `readiness: ${name} ${what}`);
    };
    const database = withTimeout(sql`select 1`.execute(app.db), CHECK_TIMEOUT_MS, 'the database').then(
      () => true,
      (err: Error) => {
        fail('database', 'unreachable', err);
        return false;
      },
    );
    const redisCheck = config.redisUrl
      ? withTimeout(pingRedis(config.redisUrl), CHECK_TIMEOUT_MS, 'Redis').catch((err: Error) => fail('redis', 'unreachable', err))
      : Promise.resolve();
    if (await database) {
      if (!migrationsCurrent) {
        try {
          const pending = await withTimeout(pendingMigrations(app.db), CHECK_TIMEOUT_MS, 'the migration table');
          if (pending.length) fail('migrations', `pending: ${pending.join(', ')}`);
          else migrationsCurrent = true;
        } catch (err) {
          fail('migrations', 'unknown', err as Error);
        }
      }
    } else {
      checks.migrations = 'not checked';
    }
    await redisCheck;
    const providers = readProviders();
    const degraded = providers.filter((p) => p.state !== 'closed').map((p) => p.provider);
    return { ready: notReady.length === 0, notReady, checks, degraded, providers };
  }

  async function scrape(log: FastifyBaseLogger = app.log) {
    await readGauges(log);
    return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
  }

  let metricsServer: http.Server | null = null;
  app.decorate('ops', {
    scrape,
    readiness,
    metricsPort: () => (metricsServer?.address() as AddressInfo | null)?.port ?? null,
  } satisfies Ops);

  const probe = { config: { rateLimit: false }, logLevel: 'warn' } as const;
  // Alive: the process answers. No database, no Redis: a slow dependency must not get a live process restarted.
  app.get('/healthz', { ...probe, schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } } }, async () => ({ status: 'ok' }));
  // Ready for traffic: the database and Redis answer and the schema is this code's.
  app.get('/readyz', probe, async (_req, reply) => {
    const r = await readiness();
    reply.header('cache-control', 'no-store');
    return reply.status(r.ready ? 200 : 503).send({ status: r.ready ? 'ready' : 'not ready', notReady: r.notReady, checks: r.checks });
  });

  if (config.metricsPort === null && config.metricsToken === null) return;
  metrics.collectProcessMetrics();

  /** /readyz with the operator's part: served where /metrics is, behind the same token. */
  async function detail(): Promise<{ status: number; body: object }> {
    const r = await readiness();
    return { status: r.ready ? 200 : 503, body: { status: r.ready ? 'ready' : 'not ready', notReady: r.notReady, checks: r.checks, degraded: r.degraded, providers: r.providers } };
  }

  if (config.metricsPort === null) {
    const token = config.metricsToken as string;
    // The token is checked in the handler, after the global rate limit's onRequest hook has counted the call.
    app.get('/metrics', { logLevel: 'warn' }, async (req, reply) => {
      if (!tokenMatches(req.headers.authorization, token)) throw unauthorized('UNAUTHORIZED');
      const { contentType, body } = await scrape(req.log);
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    });
    // Counted by the rate limit like /metrics (unlike /readyz), so the token cannot be guessed at speed here either.
    app.get('/readyz/detail', { logLevel: 'warn' }, async (req, reply) => {
      if (!tokenMatches(req.headers.authorization, token)) throw unauthorized('UNAUTHORIZED');
      const { status, body } = await detail();
      return reply.status(status).header('cache-control', 'no-store').send(body);
    });
    return;
  }

  // A port of its own: only GET /metrics and /readyz/detail, and the token too when one is set.
  const port = config.metricsPort;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const json = (status: number, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ message }));
    };
    if ((path !== '/metrics' && path !== '/readyz/detail') || (req.method !== 'GET' && req.method !== 'HEAD')) return json(404, 'NO_DATA');
    if (config.metricsToken && !tokenMatches(req.headers.authorization, config.metricsToken)) return json(401, 'UNAUTHORIZED');
    if (path === '/readyz/detail') {
      detail().then(
        ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : JSON.stringify(body)),
        (err: Error) => {
          app.log.error({ err }, 'readiness detail failed');
          json(500, 'INTERNAL_SERVER_ERROR');
        },
      );
      return;
    }
    scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      (err: Error) => {
        app.log.error({ err }, 'metrics scrape failed');
        json(500, 'INTERNAL_SERVER_ERROR');
      },
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, config.metricsHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
    metricsServer = server;
    app.log.info({ port: app.ops.metricsPort(), host: config.metricsHost }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    if (metricsServer) await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

export default fp(ops, { name: 'ops', dependencies: ['db', 'security'] });
