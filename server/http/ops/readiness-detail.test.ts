import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, loggerOptions } from '../../app';
import { freshDb, testConfig, type TestDb } from '../../test/support/helper';
import { startEasySlipFake, type EasySlipFake } from '../../test/support/fakes/easyslip-fake';
import { CircuitBreaker, circuitsOf } from '../../adapters/http';

/**
 * docs/operations.md "/readyz/detail": each real adapter's circuit breaker for the operator, served where /metrics is
 * and behind its token; the public /readyz keeps its fixed words and stays ready while a provider is down.
 */

const TOKEN = 'readiness-detail-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const PUBLIC_READY = { status: 'ready', notReady: [], checks: { database: 'ok', redis: 'not configured', migrations: 'ok' } };

/** The log lines an app writes, parsed. */
function logSink() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, stream };
}

describe('a real slip verifier down (EasySlip through its contract fake)', () => {
  let db: TestDb;
  let app: FastifyInstance;
  let fake: EasySlipFake;
  const log = logSink();
  const KEYS = ['SLIP_VERIFIER', 'EASYSLIP_API_KEY', 'EASYSLIP_BASE_URL', 'SLIP_VERIFIER_TIMEOUT_MS'];
  const saved = KEYS.map((k) => process.env[k]);

  beforeAll(async () => {
    fake = await startEasySlipFake();
    // The deposits plugin reads its adapter's settings from the environment, as an operator sets them.
    Object.assign(process.env, { SLIP_VERIFIER: 'easyslip', EASYSLIP_API_KEY: fake.apiKey, EASYSLIP_BASE_URL: fake.url, SLIP_VERIFIER_TIMEOUT_MS: '1000' });
    db = await freshDb();
    app = await buildApp(testConfig(db.dataDir, { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' }), { database: db, logger: { ...loggerOptions('info'), stream: log.stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.dispose();
    await fake?.close();
    KEYS.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
  });

  test('closed: the detail lists the breaker; the public /readyz is the same as without one', async () => {
    const pub = await app.inject({ method: 'GET', url: '/readyz' });
    expect([pub.statusCode, pub.json()]).toEqual([200, PUBLIC_READY]);
    const res = await app.inject({ method: 'GET', url: '/readyz/detail', headers: auth });
    expect([res.statusCode, res.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(res.json()).toEqual({ ...PUBLIC_READY, degraded: [], providers: [{ provider: 'easyslip', state: 'closed', since: null, retryAt: null, failures: 0, lastFailure: null }] });
  });

  test('the detail is refused without the token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong' }, { authorization: TOKEN }]) {
      const res = await app.inject({ method: 'GET', url: '/readyz/detail', headers });
      expect([res.statusCode, res.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
    }
  });

  test('five failed verifies open the circuit: /readyz stays 200 with its public words, the detail says open since when, one warn line says so', async () => {
    fake.mode = 'down';
    const before = Date.now();
    for (let i = 0; i < 5; i++) {
      expect(await app.deposits.verifier.verify({ sendingBank: '004', transRef: `R${i}`, payload: `p${i}` })).toMatchObject({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
    }
    const sent = fake.requests.length;
    expect(await app.deposits.verifier.verify({ sendingBank: '004', transRef: 'R5', payload: 'p5' })).toMatchObject({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
    expect(fake.requests).toHaveLength(sent); // refused at once: the circuit is open

    const pub = await app.inject({ method: 'GET', url: '/readyz' });
    expect([pub.statusCode, pub.json()]).toEqual([200, PUBLIC_READY]);
    expect(pub.body).not.toContain('easyslip');
    const res = await app.inject({ method: 'GET', url: '/readyz/detail', headers: auth });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { status: string; degraded: string[]; providers: Array<{ since: string; retryAt: string }> };
    expect(body).toMatchObject({ status: 'ready', notReady: [], degraded: ['easyslip'], providers: [{ provider: 'easyslip', state: 'open', failures: 0, lastFailure: 'http_500' }] });
    const since = Date.parse(body.providers[0].since);
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(body.providers[0].retryAt) - since).toBe(30_000);

    // The log: one warn line for the change, seen by the probes (two reads above), with the key nowhere.
    const changes = log.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('readiness: easyslip'));
    expect(changes).toEqual([expect.objectContaining({ level: 40, provider: 'easyslip', circuit: 'open', since: body.providers[0].since, lastFailure: 'http_500', msg: 'readiness: easyslip circuit open, degraded' })]);
    expect(JSON.stringify(log.lines)).not.toContain(fake.apiKey);
  });
});

describe('a breaker through open, half-open and closed', () => {
  let db: TestDb;
  let app: FastifyInstance;
  const log = logSink();
  let now = Date.parse('2026-12-02T04:00:00.000Z');
  const breaker = new CircuitBreaker('thaibulksms', { failureThreshold: 2, coolDownMs: 10_000, now: () => now });
  const detail = async () => (await app.inject({ method: 'GET', url: '/readyz/detail', headers: auth })).json() as { degraded: string[]; providers: unknown[] };

  beforeAll(async () => {
    db = await freshDb();
    app = await buildApp(testConfig(db.dataDir, { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' }), { database: db, logger: { ...loggerOptions('info'), stream: log.stream } });
    circuitsOf(app).add(breaker);
  });
  afterAll(async () => {
    await app?.close();
    await db?.dispose().catch(() => undefined); // destroyed by the last test
  });

  test('half-open keeps the outage\'s start and has no retry time; a good probe closes it and the log says so', async () => {
    breaker.failure('timeout');
    breaker.failure('connection');
    expect(await detail()).toMatchObject({ degraded: ['thaibulksms'], providers: [{ provider: 'thaibulksms', state: 'open', since: '2026-12-02T04:00:00.000Z', retryAt: '2026-12-02T04:00:10.000Z', lastFailure: 'connection' }] });
    now += 10_000;
    expect(await detail()).toMatchObject({ degraded: ['thaibulksms'], providers: [{ state: 'half-open', since: '2026-12-02T04:00:00.000Z', retryAt: null }] });
    expect(breaker.allow()).toBe(true);
    breaker.success();
    expect(await detail()).toEqual({ ...PUBLIC_READY, degraded: [], providers: [{ provider: 'thaibulksms', state: 'closed', since: null, retryAt: null, failures: 0, lastFailure: 'connection' }] });
    // Nothing changed since the last read: no line.
    await detail();
    const changes = log.lines.filter((l) => l.provider === 'thaibulksms').map((l) => [l.level, l.circuit, l.msg]);
    expect(changes).toEqual([
      [40, 'open', 'readiness: thaibulksms circuit open, degraded'],
      [40, 'half-open', 'readiness: thaibulksms circuit half-open, degraded'],
      [30, 'closed', 'readiness: thaibulksms circuit closed again'],
    ]);
  });

  test('a provider down does not hide a real failure: the database down is 503 on both, the detail still names the circuit', async () => {
    breaker.failure('timeout');
    breaker.failure('timeout');
    await db.destroy();
    const pub = await app.inject({ method: 'GET', url: '/readyz' });
    expect([pub.statusCode, pub.json()]).toEqual([503, { status: 'not ready', notReady: ['database'], checks: { database: 'unreachable', redis: 'not configured', migrations: 'not checked' } }]);
    const res = await app.inject({ method: 'GET', url: '/readyz/detail', headers: auth });
    expect([res.statusCode, res.json()]).toMatchObject([503, { status: 'not ready', notReady: ['database'], degraded: ['thaibulksms'] }]);
  });
});

describe('where the detail is served', () => {
  test('without METRICS_TOKEN or METRICS_PORT it is not (like /metrics)', async () => {
    const db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz/detail', headers: { ...auth, accept: 'application/json' } });
      expect(res.statusCode).toBe(404);
      expect(app.routeCatalogue.some((r) => r.url === '/readyz/detail')).toBe(false);
    } finally {
      await app.close();
      await db.dispose();
    }
  });

  test('with METRICS_PORT on that port only, with the token when one is set', async () => {
    const db = await freshDb();
    const app = await buildApp(testConfig(db.dataDir, { METRICS_PORT: '0', METRICS_TOKEN: TOKEN }), { database: db, logger: false });
    try {
      const api = await app.listen({ port: 0, host: '127.0.0.1' });
      circuitsOf(app).add(new CircuitBreaker('slipok'));
      const url = `http://127.0.0.1:${app.ops.metricsPort()}/readyz/detail`;
      expect((await fetch(url)).status).toBe(401);
      const ok = await fetch(url, { headers: auth });
      expect([ok.status, ok.headers.get('cache-control')]).toEqual([200, 'no-store']);
      expect(await ok.json()).toEqual({ ...PUBLIC_READY, degraded: [], providers: [{ provider: 'slipok', state: 'closed', since: null, retryAt: null, failures: 0, lastFailure: null }] });
      expect((await fetch(`${api}/readyz/detail`, { headers: { ...auth, accept: 'application/json' } })).status).toBe(404);
    } finally {
      await app.close();
      await db.dispose();
    }
  });
});
