import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { freshDb, testConfig, type TestDb } from '../test/support/helper';

/** A made-up client address per test, so counters in the shared Redis never collide. */
const randomIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
const hit = (app: FastifyInstance, ip: string, url = '/api/lookup/info') =>
  app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': ip } });

// Needs a Redis server: CI (.ci/run) and this machine run one on 127.0.0.1:6379 and set REDIS_URL.
// Without REDIS_URL there is nothing to test against, so the suite is skipped rather than faked.
const d = process.env.REDIS_URL ? describe : describe.skip;
d('global rate limit (Redis store)', () => {
  let db: TestDb;
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    db = await freshDb();
    const config = testConfig(db.dataDir, { REDIS_URL: process.env.REDIS_URL ?? '', RATE_LIMIT_PER_MINUTE: '300' });
    a = await buildApp(config, { database: db, logger: false });
    b = await buildApp(config, { database: db, logger: false });
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.dispose();
  });

  test('two server processes share one budget per address', async () => {
    const ip = randomIp();
    for (let i = 0; i < 150; i++) {
      expect([(await hit(a, ip, '/api/lookup/active')).statusCode, (await hit(b, ip, '/api/lookup/active')).statusCode]).toEqual([200, 200]);
    }
    const over = await hit(b, ip, '/api/lookup/active');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: 'REQUEST_LIMIT' });
    expect((await hit(a, ip, '/api/lookup/active')).statusCode).toBe(429);
    expect((await hit(a, randomIp(), '/api/lookup/active')).statusCode).toBe(200);
  });
});
