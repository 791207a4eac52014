import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import { AppError } from './errors';
import { createDb, type Database, type Dialect } from './db';
import type { DB } from './db/schema';
import { inheritDirectReads } from './db/prepared';
import auth from './http/auth';
import staff from './plugins/staff';
import accounts from './plugins/accounts';
import lookups from './plugins/lookups';
import hostFrame from './http/host-frame';
import security from './http/security';
import spa from './http/spa';
import pwa from './http/pwa';
import wallet, { type WalletPluginOptions } from './plugins/wallet';
import statement from './plugins/statement';
import bonus, { type BonusPluginOptions } from './plugins/bonus';
import invite from './plugins/invite';
import wheel, { type WheelPluginOptions } from './plugins/wheel';
import realtime from './realtime';
import chat, { type ChatPluginOptions } from './plugins/chat';
import backoffice from './plugins/backoffice';
import playLimits from './plugins/play-limits';
import seamless, { aggregatorRateLimitExemption } from './plugins/seamless';
import ops from './http/ops';
import { isDatabaseUnavailable } from './http/ops/unavailable';
import uploadRetention from './jobs/upload-retention';
import { createMetrics } from './lib/metrics';
import { openGameProvider, type GameProvider, type GameSimulator } from './adapters/games';
import { gatewayImageOrigins } from './adapters/payments';
import { requestIdOf } from './lib/request-context';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<DB>;
    dialect: Dialect;
    /** The time every rule reads (lockouts, OTP expiry...); tests replace clock.now to move time. */
    clock: { now(): Date };
    /** The game provider chosen by configuration (the simulator in demo mode). */
    gameProvider: GameProvider;
    /** The same object when it is the built-in simulator (tests force faults through it), else null. */
    gameSim: GameSimulator | null;
    /** Every route as registered (HEAD twins left out), so checks such as the route sweep cover a new route the day it is added. */
    routeCatalogue: readonly RouteEntry[];
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  /** Needs a player's or a staff token: app.authenticate or app.authenticateStaff runs onRequest, before the body is read or validated. */
  protected: boolean;
  /** Needs a staff token (app.authenticateStaff); a player's token is refused. */
  staff: boolean;
  /** A play route (`config: { play: true }`): refused during a time-out, a self-exclusion or past the session limit (docs/responsible-play.md). */
  play: boolean;
  /** Exempt from the global rate limit (`config: { rateLimit: false }`): only the health probes /healthz and /readyz. */
  unlimited?: boolean;
}

export interface AppOptions {
  /** An already open database (tests pass a fresh one); otherwise one is opened from config and closed with the app. */
  database?: Database;
  logger?: FastifyServerOptions['logger'];
  /** The wallet's adapters and timings (tests inject a payout simulator settled by hand, short reconcile times). */
  wallet?: WalletPluginOptions;
  /** The wagering poller's timing (tests turn the timer off and call app.bonus.pollNow()). */
  bonus?: BonusPluginOptions;
  /** The wheel's random source (tests only; production draws with node:crypto randomInt). */
  wheel?: WheelPluginOptions;
  /** The chat's send-limit counter (tests only). */
  chat?: ChatPluginOptions;
}

/** Log options: never print secrets, tokens or passwords. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-signature"]',
  'body.password',
  'body.oldPassword',
  'body.newPassword',
  'headers.authorization',
  'headers.cookie',
  'headers["x-signature"]',
  'body.otpCode',
  'body.otpToken',
  'body.link',
];

/**
 * The URL as logged on every request line: secrets that travel in a path or query string are masked
 * (the auto-login path carries a game password: /api/autoLogin/{game}/{username}/{password}; a chat upload's
 * URL is its own key: /api/chat/media/{random}.{ext}; a game launch carries its token in `t`, a slip image link its
 * signature in `sig`).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const pathPart = (q < 0 ? url : url.slice(0, q))
    .replace(/^(\/api\/autoLogin\/[^/]+\/[^/]+\/)[^/]+/i, '$1[Redacted]')
    // A chat upload's name is its only key (anyone holding the URL can open it): keep the extension only.
    .replace(/^(\/api\/chat\/media\/)[^/.]+/i, '$1[Redacted]');
  const query = q < 0 ? '' : url.slice(q).replace(/([?&](?:token|password|secret|signature|otpCode|otpToken|key|t|sig)=)[^&]*/gi, '$1[Redacted]');
  return pathPart + query;
}

/**
 * Production log options: level, redaction, a request serializer that masks URLs. A request's lines carry its id
 * (`reqId`) through `req.log`, which services called for the request are handed (server/lib/request-context.ts).
 */
export function loggerOptions(level: string) {
  return {
    level,
    redact: redactPaths,
    serializers: {
      req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
    },
  };
}

/** Builds the whole API without listening, so tests can `app.inject` and server.ts can listen. */
export async function buildApp(config: Config, opts: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config.logLevel),
    bodyLimit: 64 * 1024,
    // One of true, a hop count or an address list; the cast picks Fastify's HTTP/1 overload.
    trustProxy: config.trustProxy as string,
    // X-Request-Id when it looks safe, else a UUID; echoed in the answer and seen by adapters (docs/operations.md).
    genReqId: requestIdOf,
    // A graceful close answers requests on kept-alive connections normally, with Connection: close (server/server.ts).
    return503OnClosing: false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false, allowUnionTypes: true } },
  });

  const routeCatalogue: RouteEntry[] = [];
  app.decorate('routeCatalogue', routeCatalogue);
  app.addHook('onRoute', (route) => {
    const onRequest = ([] as unknown[]).concat(route.onRequest ?? []);
    const isStaff = app.hasDecorator('authenticateStaff') && onRequest.includes(app.authenticateStaff);
    const isProtected = isStaff || (app.hasDecorator('authenticate') && onRequest.includes(app.authenticate));
    for (const method of ([] as string[]).concat(route.method)) {
      if (method !== 'HEAD') {
        routeCatalogue.push({ method, url: route.url, protected: isProtected, staff: isStaff, play: route.config?.play === true, unlimited: route.config?.rateLimit === false });
      }
    }
  });

  // The answer names its request (docs/operations.md "Request ids"); the id reaches services and adapters as an
  // argument (server/lib/request-context.ts).
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });

  const database = opts.database ?? createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax });
  app.decorate('config', config);
  app.decorate('clock', { now: () => new Date() });
  app.decorate('metrics', createMetrics());
  await app.register(
    fp(
      async (instance) => {
        // The ledger's journal entries are counted by kind as they are written (wallet_ledger_entries_total).
        instance.decorate('db', inheritDirectReads(database.db, database.db.withPlugin(app.metrics.ledgerPlugin)));
        instance.decorate('dialect', database.dialect);
        if (!opts.database) instance.addHook('onClose', () => database.destroy());
      },
      { name: 'db' },
    ),
  );

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) return reply.status(err.statusCode).send({ message: err.code });
    const e = err as { validation?: unknown; statusCode?: number; code?: string };
    if (e.validation) return reply.status(400).send({ message: 'INVALID_USER_INFO' });
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ message: 'KEY_INVALID' });
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
      return reply.status(400).send({ message: 'KEY_INVALID' });
    if (e.statusCode === 429) return reply.status(429).send({ message: 'REQUEST_LIMIT' });
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) return reply.status(e.statusCode).send({ message: 'KEY_INVALID' });
    // The database out of reach (restarting, stopped, the pool's wait run out): a passing outage, not a bug (issue 43).
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: (err as Error).message }, 'database unavailable: answered 503');
      return reply.status(503).header('retry-after', '2').send({ message: 'SERVICE_UNAVAILABLE' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: 'INTERNAL_SERVER_ERROR' });
  });

  // Before every route, so the global rate limit and the headers cover them all.
  await app.register(security, { imageOrigins: gatewayImageOrigins(process.env), rateLimitExempt: aggregatorRateLimitExemption(process.env) ?? undefined });
  // Right after security: its probes are exempt from the rate limit, its hooks time every route after it.
  await app.register(ops);
  await app.register(auth);
  await app.register(staff);
  await app.register(accounts);
  await app.register(lookups);
  await app.register(hostFrame);
  // Before every plugin with play routes (config.play): its onRoute hook adds their guard.
  await app.register(playLimits);
  await app.register(
    fp(
      async (instance) => {
        const games = await openGameProvider(config, instance.db, instance.dialect);
        if (games.close) instance.addHook('onClose', games.close);
        instance.decorate('gameProvider', games.provider);
        instance.decorate('gameSim', games.sim);
      },
      { name: 'game-provider', dependencies: ['db'] },
    ),
  );
  await app.register(import('./simulators/game-sim'));
  await app.register(wallet, opts.wallet ?? {});
  await app.register(seamless);
  await app.register(import('./simulators/hub88-sim')); // serves only when app.aggregator is the simulator
  await app.register(statement);
  await app.register(bonus, opts.bonus ?? {});
  await app.register(invite);
  await app.register(wheel, opts.wheel ?? {});
  await app.register(import('./plugins/deposits'));
  // The demo bank's pages (DEMO on), and the payout simulator's results sent through the signed payment webhook.
  await app.register(
    fp(
      async (instance) => {
        const { default: demoBank, reportSimulatedPayoutsByWebhook } = await import('./simulators/demo-bank');
        if (instance.config.demo) await instance.register(demoBank);
        reportSimulatedPayoutsByWebhook(instance);
      },
      { name: 'demo-bank', dependencies: ['deposits'] },
    ),
  );
  await app.register(realtime);
  await app.register(chat, opts.chat ?? {});
  // Deletes old and unreferenced chat media and slip pictures (the lease's holder, hourly).
  await app.register(uploadRetention);
  await app.register(backoffice);

  await app.register(pwa);

  // Last: the built SPA, and the not-found answers (JSON under /api, index.html for page navigations).
  await app.register(spa);

  return app;
}
