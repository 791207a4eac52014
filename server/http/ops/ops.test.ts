import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, loggerOptions } from '../../app';
import { seedBase } from '../../db/seed';
import { freshDb, testConfig, type TestDb } from '../../test/support/helper';
import { buildWalletTestApp, depositTo, insertPlayer } from '../../test/support/ledger';
import { PayoutSimulator } from '../../adapters/payouts';
import type { GameProvider } from '../../adapters/games/types';
import { createGameProvider, GameSimulator } from '../../adapters/games';
import { outboundHeaders, scoped, type ProviderCall } from '../../lib/request-context';
import { eventId, signedEvent } from '../../test/support/deposits';
import { connected, newGuest, socketTo } from '../../test/support/chat';

/** docs/operations.md: /metrics, /healthz, /readyz and request ids. */

const TOKEN = 'ops-test-metrics-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Family {
  type: string;
  samples: Sample[];
}

/**
 * A strict reader of the Prometheus text format (0.0.4): every line is a HELP, a TYPE or a well-formed sample.
 * Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan").
 */
function parseProm(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (sample: string) => {
    for (const suffix of ['_bucket', '_sum', '_count', '']) {
      const base = suffix && sample.endsWith(suffix) ? sample.slice(0, -suffix.length) : sample;
      if (families.has(base)) return families.get(base)!;
    }
    throw new Error(`sample ${sample} before its # TYPE`);
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let m = /^# HELP ([a-zA-Z_:][\w:]*) .+$/.exec(line);
    if (m) continue;
    m = /^# TYPE ([a-zA-Z_:][\w:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (m) {
      families.set(m[1], { type: m[2], samples: [] });
      continue;
    }
    m = /^([a-zA-Z_:][\w:]*)(?:\{((?:[a-zA-Z_]\w*="(?:[^"\\]|\\.)*",?)*)\})? ((?:[nN][aA][nN])|[+-]?[iI]nf|[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/.exec(line);
    if (!m) throw new Error(`not the Prometheus text format: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    familyOf(m[1]).samples.push({ name: m[1], labels, value: /^nan$/i.test(m[3]) ? NaN : Number(m[3].replace(/inf/i, 'Infinity')) });
  }
  return families;
}

/** The value of one sample (0 when absent): name and the labels it must carry. */
function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string>): number {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return 0;
}

/** A player with 10,000 baht and an account at the pg game: the headers of their token. */
async function playerAtPg(app: FastifyInstance, db: TestDb): Promise<{ authorization: string }> {
  const playerId = await insertPlayer(db.db);
  await depositTo(db.db, playerId, 10_000);
  const headers = { authorization: `Bearer ${await app.tokens.issue(playerId)}` };
  expect((await app.inject({ method: 'GET', url: '/api/wallet/activate/pg', headers })).statusCode).toBe(200);
  return headers;
}

async function scrape(app: FastifyInstance): Promise<Map<string, Family>> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: auth });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseProm(res.body);
}

describe('/metrics behind METRICS_TOKEN', () => {
  let db: TestDb;
  let app: FastifyInstance;
  let sim: GameSimulator;
  const providerSawRequestIds: (string | undefined)[] = [];
  const providerSawHeaders: Record<string, string>[] = [];

  beforeAll(async () => {
    db = await freshDb();
    await seedBase(db.db);
    // The game simulator, seen through a provider that records what each deposit call knew of its request.
    sim = createGameProvider(testConfig(db.dataDir), db.db) as GameSimulator;
    const recording = new Proxy(sim, {
      get(target, prop) {
        const v = Reflect.get(target, prop) as unknown;
        if (prop !== 'deposit' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
        // deposit(gameCode, username, transferId, amount, call): the call names the request it is made for.
        return (...args: unknown[]) => {
          const call = args[4] as ProviderCall | undefined;
          providerSawRequestIds.push(call?.requestId);
          providerSawHeaders.push(outboundHeaders(call));
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as GameProvider;
    app = await buildApp(testConfig(db.dataDir, { METRICS_TOKEN: TOKEN }), {
      database: db,
      logger: false,
      wallet: { gameProvider: recording, payoutAdapter: new PayoutSimulator({ delayMs: null }), wallet: { reconcileIntervalMs: 0, reconcileAtStart: false } },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.dispose();
  });

  test('is refused without the token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'UNAUTHORIZED' });
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  test('answers the Prometheus text format with every named family', async () => {
    await app.inject({ method: 'GET', url: '/api/wallet/activate/pg' });
    await app.inject({ method: 'GET', url: '/api/no/such/route', headers: { accept: 'application/json' } });
    const families = await scrape(app);
    const expected: [string, string][] = [
      ['http_request_duration_seconds', 'histogram'],
      ['wallet_ledger_entries_total', 'counter'],
      ['wallet_provider_call_duration_seconds', 'histogram'],
      ['wallet_webhook_events_total', 'counter'],
      ['wallet_pending', 'gauge'],
      ['wallet_pending_oldest_age_seconds', 'gauge'],
      ['wallet_open_sockets', 'gauge'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
      ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
    ];
    for (const [name, type] of expected) expect([name, families.get(name)?.type]).toEqual([name, type]);
    // Latency is labelled by the route's pattern, never the raw URL.
    expect(valueOf(families, 'http_request_duration_seconds_count', { route: '/api/wallet/activate/:slotCode', method: 'GET', status_class: '4xx' })).toBe(1);
    expect(valueOf(families, 'http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
    const routes = new Set(families.get('http_request_duration_seconds')!.samples.map((s) => s.labels.route));
    expect([...routes].filter((r) => r.includes('/pg') || r.includes('/no/such'))).toEqual([]);
    expect(valueOf(families, 'wallet_pending', { kind: 'transfer' })).toBe(0);
    expect(valueOf(families, 'wallet_open_sockets', { namespace: '/' })).toBe(0);
  });

  test('a transfer counts its ledger entry by kind and the provider call by outcome, and the provider sees the request id', async () => {
    const before = await scrape(app);
    const headers = await playerAtPg(app, db);
    providerSawRequestIds.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/wallet/transfer',
      headers: { ...headers, 'x-request-id': 'ops-transfer-1' },
      payload: { from: 'WALLET', to: 'pg', amount: 25 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('ops-transfer-1');
    expect(providerSawRequestIds).toEqual(['ops-transfer-1']);
    expect(providerSawHeaders.at(-1)).toEqual({ 'x-request-id': 'ops-transfer-1' });

    const after = await scrape(app);
    const diff = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(diff('wallet_ledger_entries_total', { kind: 'transfer_to_game' })).toBe(1);
    expect(diff('wallet_ledger_entries_total', { kind: 'transfer_to_game_settle' })).toBe(1);
    // depositTo wrote through the test's own connection, not the app: the counter is the app's work only.
    expect(diff('wallet_ledger_entries_total', { kind: 'deposit' })).toBe(0);
    expect(diff('wallet_provider_call_duration_seconds_count', { provider: 'games', operation: 'deposit', outcome: 'ok' })).toBe(1);
    expect(diff('wallet_provider_call_duration_seconds_count', { provider: 'games', operation: 'createPlayer', outcome: 'ok' })).toBe(1);
    expect(diff('http_request_duration_seconds_count', { route: '/api/wallet/transfer', method: 'POST', status_class: '2xx' })).toBe(1);
  });

  test('a provider timeout is counted as one and leaves a pending transfer with its age', async () => {
    const headers = await playerAtPg(app, db);
    sim.failNext('deposit', 'timeout-before-apply');
    const before = await scrape(app);
    await app.inject({ method: 'POST', url: '/api/wallet/transfer', headers, payload: { from: 'WALLET', to: 'pg', amount: 10 } });
    const real = Date.now;
    const now = app.clock.now;
    app.clock.now = () => new Date(real() + 90_000);
    try {
      const after = await scrape(app);
      const diff = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
      expect(diff('wallet_provider_call_duration_seconds_count', { provider: 'games', operation: 'deposit', outcome: 'timeout' })).toBe(1);
      expect(valueOf(after, 'wallet_pending', { kind: 'transfer' })).toBe(1);
      expect(valueOf(after, 'wallet_pending_oldest_age_seconds', { kind: 'transfer' })).toBeGreaterThanOrEqual(89);
    } finally {
      app.clock.now = now;
      sim.clearFaults();
    }
  });

  test('webhook deliveries are counted by outcome', async () => {
    const before = await scrape(app);
    await app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: 'no-such-qr', amount: 10 }));
    await app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: 'no-such-qr', amount: 10 }, 'not-the-secret'));
    const after = await scrape(app);
    const diff = (outcome: string) => valueOf(after, 'wallet_webhook_events_total', { outcome }) - valueOf(before, 'wallet_webhook_events_total', { outcome });
    expect(diff('UNKNOWN_REFERENCE')).toBe(1);
    expect(diff('UNAUTHORIZED')).toBe(1);
  });

  test('two apps in one process keep their own registries', async () => {
    const other = await buildApp(testConfig(db.dataDir, { METRICS_TOKEN: TOKEN }), { database: db, logger: false });
    await other.ready();
    try {
      const families = await scrape(other);
      expect(valueOf(families, 'http_request_duration_seconds_count', { route: '/api/wallet/transfer' })).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('/metrics without METRICS_TOKEN or METRICS_PORT', () => {
  test('is not served', async () => {
    const db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { ...auth, accept: 'application/json' } });
      expect(res.statusCode).toBe(404);
      expect(app.routeCatalogue.some((r) => r.url === '/metrics')).toBe(false);
    } finally {
      await app.close();
      await db.dispose();
    }
  });
});

describe('/metrics on METRICS_PORT', () => {
  let db: TestDb;
  let app: FastifyInstance;
  let api: string;
  let metricsUrl: string;
  beforeAll(async () => {
    db = await freshDb();
    app = await buildApp(testConfig(db.dataDir, { METRICS_PORT: '0', METRICS_TOKEN: TOKEN }), { database: db, logger: false });
    api = await app.listen({ port: 0, host: '127.0.0.1' });
    metricsUrl = `http://127.0.0.1:${app.ops.metricsPort()}/metrics`;
  });
  afterAll(async () => {
    await app?.close();
    await db?.dispose();
  });

  test('serves the metrics there (with the token when one is set) and not on the API port', async () => {
    expect(app.ops.metricsPort()).toEqual(expect.any(Number));
    expect((await fetch(metricsUrl)).status).toBe(401);
    const ok = await fetch(metricsUrl, { headers: auth });
    expect(ok.status).toBe(200);
    expect(parseProm(await ok.text()).has('http_request_duration_seconds')).toBe(true);
    expect((await fetch(`http://127.0.0.1:${app.ops.metricsPort()}/api/lookup/info`)).status).toBe(404);
    expect((await fetch(`${api}/metrics`, { headers: { ...auth, accept: 'application/json' } })).status).toBe(404);
  });

  test('counts the open sockets of this process', async () => {
    const read = async () => valueOf(parseProm(await (await fetch(metricsUrl, { headers: auth })).text()), 'wallet_open_sockets', { namespace: '/' });
    expect(await read()).toBe(0);
    const guest = await newGuest(app);
    const sockets = [socketTo(api, { guestId: guest.guestId }), socketTo(api, { guestId: guest.guestId })];
    try {
      await Promise.all(sockets.map(connected));
      expect(await read()).toBe(2);
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });
});

describe('METRICS_* configuration', () => {
  test('a short token or METRICS_PORT equal to PORT stops the start with a one-line reason', () => {
    expect(() => testConfig('/tmp/x', { METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 24-256 printable characters/);
    expect(() => testConfig('/tmp/x', { PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => testConfig('/tmp/x', { METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be a whole number/);
    expect(testConfig('/tmp/x', {})).toMatchObject({ metricsToken: null, metricsPort: null, metricsHost: '127.0.0.1' });
  });
});

describe('/healthz and /readyz', () => {
  test('answer without a token and past the rate limit; /readyz names the checks', async () => {
    const db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir, { RATE_LIMIT_PER_MINUTE: '300' }), { database: db, logger: false });
    try {
      for (let i = 0; i < 300; i += 1) await app.inject({ method: 'GET', url: '/api/lookup/info' });
      const limited = await app.inject({ method: 'GET', url: '/api/lookup/info', headers: { 'x-request-id': 'ops-limited-1' } });
      expect([limited.statusCode, limited.headers['x-request-id']]).toEqual([429, 'ops-limited-1']);
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect([health.statusCode, health.json()]).toEqual([200, { status: 'ok' }]);
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready', notReady: [], checks: { database: 'ok', redis: 'not configured', migrations: 'ok' } }]);
      expect(app.routeCatalogue.filter((r) => r.unlimited).map((r) => `${r.method} ${r.url}`).sort()).toEqual(['GET /healthz', 'GET /readyz']);
    } finally {
      await app.close();
      await db.dispose();
    }
  });

  test('/readyz is 503 naming the migrations when the database lacks the latest one', async () => {
    const db = await freshDb();
    const latest = await db.db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never, 'desc').executeTakeFirstOrThrow() as { name: string };
    await db.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', latest.name as never).execute();
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not ready', notReady: ['migrations'], checks: { database: 'ok', migrations: `pending: ${latest.name}` } });
    } finally {
      await app.close();
      await db.dispose();
    }
  });

  test('/readyz is 503 naming the database when it is closed, while /healthz stays 200', async () => {
    const db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await db.destroy();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not ready', notReady: ['database'], checks: { database: expect.stringMatching(/^unreachable/), migrations: 'not checked' } });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.dispose().catch(() => undefined);
    }
  });

  test("/readyz answers a fixed reason, never the driver's error text, which goes to the log (issue 39)", async () => {
    const db = await freshDb();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: { ...loggerOptions('info'), stream } });
    (app.config as { redisUrl: string | null }).redisUrl = 'redis://127.0.0.1:1';
    try {
      await db.destroy();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not ready', notReady: expect.arrayContaining(['database', 'redis']), checks: { database: 'unreachable', redis: 'unreachable', migrations: 'not checked' } });
      const logged = lines.map((l) => JSON.parse(l) as { check?: string; err?: string }).filter((l) => l.check);
      expect(logged.map((l) => l.check).sort()).toEqual(['database', 'redis']);
      expect(logged.every((l) => typeof l.err === 'string' && l.err.length > 0)).toBe(true);
      expect(res.body).not.toContain(logged.find((l) => l.check === 'database')?.err);
    } finally {
      (app.config as { redisUrl: string | null }).redisUrl = null;
      await app.close();
      await db.dispose().catch(() => undefined);
    }
  });

  // Needs a Redis server (CI and this machine run one and set REDIS_URL); skipped rather than faked without it.
  (process.env.REDIS_URL ? test : test.skip)('/readyz pings Redis when REDIS_URL is set', async () => {
    const db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir, { REDIS_URL: process.env.REDIS_URL ?? '' }), { database: db, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect([res.statusCode, res.json().checks]).toEqual([200, { database: 'ok', redis: 'ok', migrations: 'ok' }]);
    } finally {
      await app.close();
      await db.dispose();
    }
  });

  test('/readyz is 503 naming Redis when REDIS_URL does not answer', async () => {
    const db = await freshDb();
    // Nothing listens on port 1; realtime and the rate limiter need Redis at start, so only the ops plugin sees this URL.
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
    (app.config as { redisUrl: string | null }).redisUrl = 'redis://127.0.0.1:1';
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ notReady: ['redis'], checks: { redis: expect.stringMatching(/^unreachable/) } });
    } finally {
      (app.config as { redisUrl: string | null }).redisUrl = null;
      await app.close();
      await db.dispose();
    }
  });
});

describe('request ids', () => {
  let db: TestDb;
  let app: FastifyInstance;
  let sim: GameSimulator;
  const lines: string[] = [];
  beforeAll(async () => {
    db = await freshDb();
    await seedBase(db.db);
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    sim = createGameProvider(testConfig(db.dataDir), db.db) as GameSimulator;
    app = await buildApp(testConfig(db.dataDir, { LOG_LEVEL: 'info' }), {
      database: db,
      logger: { ...loggerOptions('info'), stream },
      wallet: { gameProvider: sim, payoutAdapter: new PayoutSimulator({ delayMs: null }), wallet: { reconcileIntervalMs: 0, reconcileAtStart: false } },
    });
    // A route whose service logs through the dependencies the route scoped to the request (lib/request-context.ts),
    // after a database round trip and a parsed body.
    const serviceDeps = { log: app.log as { info(obj: object, msg: string): void } };
    const service = async (deps: typeof serviceDeps, body: unknown) => {
      await app.db.selectFrom('settings').select('key').limit(1).execute();
      deps.log.info({ body }, 'service line');
    };
    app.post('/api/test/ops-log', async (req) => {
      await service(scoped(serviceDeps, req), req.body);
      req.log.info('request line');
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.dispose();
  });

  test('every log line of a request carries its id once, and the answer echoes it', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/test/ops-log', headers: { 'x-request-id': 'ops-log-42' }, payload: { a: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('ops-log-42');
    const mine = lines.filter((l) => l.includes('ops-log-42'));
    expect(mine.map((l) => JSON.parse(l).msg)).toEqual(expect.arrayContaining(['incoming request', 'service line', 'request line', 'request completed']));
    for (const l of mine) {
      expect(JSON.parse(l).reqId).toBe('ops-log-42');
      expect(l.match(/"reqId"/g)).toHaveLength(1);
    }
    // Outside a request, app.log lines carry no request id.
    app.log.info('background line');
    expect(JSON.parse(lines.find((l) => l.includes('background line'))!).reqId).toBeUndefined();
  });

  test("the transfer service's line about a provider timeout carries the transfer request's id", async () => {
    const headers = await playerAtPg(app, db);
    sim.failNext('deposit', 'timeout-before-apply');
    try {
      const res = await app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: { ...headers, 'x-request-id': 'ops-timeout-7' }, payload: { from: 'WALLET', to: 'pg', amount: 10 } });
      expect(res.statusCode).toBe(202);
    } finally {
      sim.clearFaults();
    }
    const line = lines.map((l) => JSON.parse(l) as { msg: string; reqId?: string }).find((l) => l.msg === 'transfer outcome unknown; left pending for reconciliation');
    expect(line?.reqId).toBe('ops-timeout-7');
  });

  test('an unsafe or missing X-Request-Id is replaced by a generated one', async () => {
    for (const given of [undefined, 'has space', 'x'.repeat(65), '"><script>', '']) {
      const res = await app.inject({ method: 'GET', url: '/healthz', headers: given === undefined ? {} : { 'x-request-id': given } });
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

describe('wallet test app', () => {
  test('adapters stay themselves behind the timing wrapper (instanceof, settled payouts)', async () => {
    const t = await buildWalletTestApp();
    try {
      expect(t.app.wallet.payouts).toBeInstanceOf(PayoutSimulator);
    } finally {
      await t.close();
    }
  });
});
