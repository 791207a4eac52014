import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../app';
import { createDb, CONNECTION_TIMEOUT_MS, type Database } from '../../db';
import { seedBase } from '../../db/seed';
import { freshDb, testConfig, testEngine, type TestDb } from '../../test/support/helper';
import { newPlayer } from '../../test/support/chat';
import { isDatabaseUnavailable } from './unavailable';

/**
 * PostgreSQL out of reach under the app (issue 43, docs/operations.md "Without Redis, and other faults"): requests
 * fail fast with a translated 503 SERVICE_UNAVAILABLE, a login too (the guess counter cannot be reserved, so no
 * password is checked: the lockout fails closed), /readyz names the database, /healthz still answers, and the app
 * serves again by itself within seconds of the database's return. The outage is a TCP proxy of the test's own between
 * the app and PostgreSQL (never the shared server restarted): `down` ends every connection and refuses new ones, as
 * a restart does; `stall` ends them and takes new ones without ever answering, as an unreachable host does.
 */

/** A TCP proxy to `target` that a test cuts and restores. */
async function proxyTo(target: { host: string; port: number }) {
  let mode: 'up' | 'down' | 'stall' = 'up';
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    if (mode === 'down') return client.destroy();
    if (mode === 'stall') return; // taken, never answered
    const upstream = net.connect(target.port, target.host);
    open.add(upstream);
    upstream.on('close', () => (open.delete(upstream), client.destroy()));
    upstream.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    set(to: 'up' | 'down' | 'stall') {
      mode = to;
      if (to !== 'up') for (const s of open) s.destroy();
    },
    close: () => {
      for (const s of open) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t };
}

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('database errors that mean "out of reach" are told from the others', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  for (const e of [
    withCode('ECONNREFUSED'),
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('57P03', 'the database system is starting up'),
    withCode('08006'),
    withCode('53300', 'sorry, too many clients already'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Connection terminated due to connection timeout'),
    withCode('SQLITE_BUSY', 'database is locked'),
    new Error('wrapped', { cause: withCode('ECONNRESET') }),
  ]) {
    expect([e.message, isDatabaseUnavailable(e)]).toEqual([e.message, true]);
  }
  for (const e of [new Error('boom'), withCode('23505', 'duplicate key'), withCode('42P01', 'relation does not exist'), withCode('SQLITE_CONSTRAINT'), null, 'text']) {
    expect(isDatabaseUnavailable(e)).toBe(false);
  }
});

// The proxy stands between the app and a PostgreSQL server; SQLite is a file in the process, with nothing to cut.
const pgOnly = testEngine() === 'postgres' ? describe : describe.skip; // PostgreSQL only: SQLite has no server to lose
pgOnly('PostgreSQL cut and restored under the app', () => {
  let db: TestDb;
  let proxied: Database;
  let proxy: Awaited<ReturnType<typeof proxyTo>>;
  let app: FastifyInstance;
  let auth: string;
  const wallet = () => app.inject({ method: 'GET', url: '/api/wallet', headers: { authorization: auth } });
  const readyz = async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json() as { checks: Record<string, string>; notReady: string[] } };
  };

  beforeAll(async () => {
    db = await freshDb();
    await seedBase(db.db);
    const url = new URL(process.env.DATABASE_URL as string);
    proxy = await proxyTo({ host: url.hostname, port: Number(url.port || 5432) });
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db.db)).rows[0].s;
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    proxied = createDb({ databaseUrl: url.toString(), dataDir: db.dataDir, schema, poolMax: 4 });
    app = await buildApp(testConfig(db.dataDir), { database: proxied, logger: false });
    await app.ready();
    auth = (await newPlayer(app)).auth;
  });
  afterAll(async () => {
    await app?.close();
    await proxied?.destroy();
    await proxy?.close();
    await db?.dispose();
  });

  test.each(['down', 'stall'] as const)('%s: 503 SERVICE_UNAVAILABLE at once, login refused unchecked, /readyz names the database; back within seconds', async (mode) => {
    expect((await wallet()).statusCode).toBe(200);
    expect((await readyz()).status).toBe(200);

    proxy.set(mode);
    // A refused connection fails at once; a stalled one after the pool's connection timeout.
    const bound = mode === 'down' ? 1000 : CONNECTION_TIMEOUT_MS + 1500;
    const during = await timed(wallet);
    expect([during.value.statusCode, during.value.json(), during.value.headers['retry-after']]).toEqual([503, { message: 'SERVICE_UNAVAILABLE' }, '2']);
    expect(during.ms).toBeLessThan(bound);
    // The login's guess counter lives in the database: without it no password is checked (the lockout fails closed).
    const login = await timed(() => app.inject({ method: 'POST', url: '/api/login', payload: { username: '0812345678', password: 'whatever1' } }));
    expect([login.value.statusCode, login.value.json()]).toEqual([503, { message: 'SERVICE_UNAVAILABLE' }]);
    expect(login.ms).toBeLessThan(bound);
    const ready = await timed(readyz);
    expect(ready.value).toEqual({ status: 503, body: { status: 'not ready', notReady: ['database'], checks: { database: 'unreachable', redis: 'not configured', migrations: 'not checked' } } });
    expect(ready.ms).toBeLessThan(2500);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    proxy.set('up');
    const back = await timed(() => until(async () => (await wallet()).statusCode === 200, 'the app to serve again'));
    expect(back.ms).toBeLessThan(5000);
    expect((await readyz()).status).toBe(200);
    console.log(`PostgreSQL ${mode}: 503 in ${during.ms} ms, a login 503 in ${login.ms} ms, /readyz in ${ready.ms} ms; serving again ${back.ms} ms after the database came back`);
  });
});
