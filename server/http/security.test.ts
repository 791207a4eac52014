import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, ConfigError } from '../config';
import { buildTestApp, type TestApp } from '../test/support/helper';
import type { FastifyInstance } from 'fastify';

/** A made-up client address per test, so counters (in memory or in a shared Redis) never collide. */
const randomIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
const hit = (app: FastifyInstance, ip: string, url = '/api/lookup/info') =>
  app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': ip } });

describe('headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A page the browser renders: the SPA's document (503 "not built" in tests, with the same headers). */
  const page = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/user/home', headers: { accept: 'text/html' } });

  test('a CSP that lets the SPA run from its own origin and nothing else', async () => {
    const res = await page(t.app);
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['font-src']).toContain("'self'");
    expect(directives['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:']));
    expect(directives['connect-src']).toEqual(expect.arrayContaining(["'self'", 'ws:']));
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'self'"]);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  test("helmet's document headers on what is not under /api/: a page, the health probe, an unknown path", async () => {
    const answers = await Promise.all([page(t.app), t.app.inject({ method: 'GET', url: '/healthz' }), t.app.inject({ method: 'GET', url: '/no-such-thing' })]);
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
        'referrer-policy': 'no-referrer',
        'origin-agent-cluster': '?1',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  test('every /api/ answer carries the API headers only: a lookup, a refusal, an unknown API path, a bad body', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/lookup/info' }),
      t.app.inject({ method: 'GET', url: '/api/wallet' }),
      t.app.inject({ method: 'GET', url: '/api/no-such-thing' }),
      t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 400]);
    const documentOnly = ['x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection', 'origin-agent-cluster', 'cross-origin-opener-policy'];
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      });
      for (const name of documentOnly) expect(res.headers[name]).toBeUndefined();
    }
  });

  test('FRAME_ANCESTORS lets the mobile host app embed the site; API answers still frame nowhere', async () => {
    const t2 = await buildTestApp({ FRAME_ANCESTORS: 'https://host.example' });
    try {
      const res = await page(t2.app);
      expect(String(res.headers['content-security-policy'])).toContain('frame-ancestors https://host.example');
      expect(res.headers['x-frame-options']).toBeUndefined();
      const api = await t2.app.inject({ method: 'GET', url: '/api/lookup/info' });
      expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    } finally {
      await t2.close();
    }
  });

  test("the staff console frames nowhere whatever FRAME_ANCESTORS says (frame-ancestors 'none', X-Frame-Options DENY)", async () => {
    const t2 = await buildTestApp({ FRAME_ANCESTORS: 'https://host.example' });
    try {
      for (const url of ['/staff', '/staff/', '/staff/players', '/staff?x=1']) {
        const res = await t2.app.inject({ method: 'GET', url });
        const csp = String(res.headers['content-security-policy']);
        expect([url, csp]).toEqual([url, expect.stringContaining("frame-ancestors 'none'")]);
        expect(csp).not.toContain('host.example');
        expect([url, res.headers['x-frame-options']]).toEqual([url, 'DENY']);
      }
      // The player's pages keep the host app's framing; a path that only starts like the console's is a player page.
      for (const url of ['/', '/staffing']) expect(String((await t2.app.inject({ method: 'GET', url })).headers['content-security-policy'])).toContain('frame-ancestors https://host.example');
    } finally {
      await t2.close();
    }
  });
});

describe('configuration', () => {
  const base = { DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32), DEMO: 'on' };
  test('a limit that could trip a busy player is refused; 0 turns it off', () => {
    expect(() => loadConfig({ ...base, RATE_LIMIT_PER_MINUTE: '100' }, { persistSecrets: false })).toThrow(ConfigError);
    expect(loadConfig({ ...base, RATE_LIMIT_PER_MINUTE: '0' }, { persistSecrets: false }).rateLimitPerMinute).toBe(0);
    expect(loadConfig(base, { persistSecrets: false }).rateLimitPerMinute).toBe(600);
  });
  test('bad FRAME_ANCESTORS and TRUST_PROXY values are refused', () => {
    expect(() => loadConfig({ ...base, FRAME_ANCESTORS: 'javascript:alert(1)' }, { persistSecrets: false })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '$(rm)' }, { persistSecrets: false })).toThrow(ConfigError);
    expect(loadConfig(base, { persistSecrets: false }).trustProxy).toBe('loopback');
  });
});

describe('global rate limit (memory)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '300' });
  });
  afterAll(() => t.close());

  test('300 requests a minute from one address pass; the next answers 429 REQUEST_LIMIT; other addresses are unaffected', async () => {
    const ip = randomIp();
    for (let i = 0; i < 300; i++) {
      const res = await hit(t.app, ip);
      if (res.statusCode !== 200) throw new Error(`request ${i + 1} answered ${res.statusCode}`);
    }
    const over = await hit(t.app, ip);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: 'REQUEST_LIMIT' });
    expect(over.headers['retry-after']).toBeDefined();
    expect((await hit(t.app, randomIp())).statusCode).toBe(200);
  });

  test('unknown URLs count against the same budget', async () => {
    const ip = randomIp();
    for (let i = 0; i < 300; i++) await hit(t.app, ip, `/api/nope/${i}`);
    const over = await hit(t.app, ip, '/api/lookup/banks');
    expect(over.statusCode).toBe(429);
  });
});

test("the build's /assets/ files are not counted (the service worker precaches them at once); unknown asset names are", async () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'assets', 'main.0123456789.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>t</title>');
  const t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '300', DIST_DIR: dist });
  try {
    const ip = randomIp();
    for (let i = 0; i < 400; i++) {
      const res = await hit(t.app, ip, '/assets/main.0123456789.js');
      if (res.statusCode !== 200) throw new Error(`asset request ${i + 1} answered ${res.statusCode}`);
    }
    expect((await hit(t.app, ip)).statusCode).toBe(200); // the API budget is untouched
    for (let i = 0; i < 300; i++) await hit(t.app, ip, `/assets/nope-${i}.js`);
    expect((await hit(t.app, ip, '/assets/main.0123456789.js')).statusCode).toBe(200);
    expect((await hit(t.app, ip)).statusCode).toBe(429);
  } finally {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  }
});

test('TRUST_PROXY=off ignores X-Forwarded-For, so forged addresses share the real one\'s budget', async () => {
  const t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '300', TRUST_PROXY: 'off' });
  try {
    for (let i = 0; i < 300; i++) await hit(t.app, randomIp());
    expect((await hit(t.app, randomIp())).statusCode).toBe(429);
  } finally {
    await t.close();
  }
});

test('RATE_LIMIT_PER_MINUTE=0 turns the limit off', async () => {
  const t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  try {
    const res = await hit(t.app, randomIp());
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  } finally {
    await t.close();
  }
});

describe("the CSP's img-src and a gateway that answers a QR as an image on its own host", () => {
  const imgSrc = async (env: Record<string, string>) => {
    const kept = { ...process.env };
    Object.assign(process.env, env);
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/user/home', headers: { accept: 'text/html' } });
      const csp = String(res.headers['content-security-policy']);
      return csp.split(';').map((d) => d.trim().split(/\s+/)).find(([k]) => k === 'img-src')!.slice(1);
    } finally {
      await t.close();
      for (const k of Object.keys(env)) if (kept[k] === undefined) delete process.env[k];
      Object.assign(process.env, kept);
    }
  };

  test('PAYMENT_GATEWAY=opn adds Opn API host (OPN_BASE_URL when set), so the QR image loads; the simulator adds none', async () => {
    expect(await imgSrc({})).toEqual(["'self'", 'data:', 'blob:']);
    const secrets = { OPN_SECRET_KEY: 'skey_test_' + 'x'.repeat(20), OPN_WEBHOOK_SECRET: Buffer.from('w'.repeat(32)).toString('base64') };
    expect(await imgSrc({ PAYMENT_GATEWAY: 'opn', ...secrets })).toEqual(["'self'", 'data:', 'blob:', 'https://api.omise.co']);
    expect(await imgSrc({ PAYMENT_GATEWAY: 'opn', OPN_BASE_URL: 'http://127.0.0.1:4567/v1', ...secrets })).toEqual(["'self'", 'data:', 'blob:', 'http://127.0.0.1:4567']);
  });
});
