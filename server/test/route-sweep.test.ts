import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { ERROR_CODES, PROJECT_ERROR_CODES, SLIP_REASON_CODES, STAFF_ERROR_CODES, WALLET_ERROR_CODES } from '../../shared/errorCodes';
import { insertPlayer } from './support/ledger';
import { createStaff } from './support/staff';
import { staffTokenKey } from '../plugins/staff/tokens';
import { buildTestApp, type TestApp } from './support/helper';
import type { RouteEntry } from '../app';

/**
 * The route sweep: every route the app registered (read from the instance, so a new route is covered the day it
 * is added) gets the requests a careless client or an attacker sends. Whatever the route, the answer is never
 * a 5xx, every refusal is the `{ message: CODE }` envelope with a code the SPA can translate, and a protected
 * route refuses a missing or bad token with 401 before it looks at the body. Staff routes (app.authenticateStaff)
 * are protected too, and the two kinds of token are bad tokens for each other.
 */

/** Codes a refusal may carry: spec §8, the product's own, the slip reasons, and RULES.md's `gone` and `invalid-token`. */
const KNOWN_CODES = new Set<string>([...ERROR_CODES, ...PROJECT_ERROR_CODES, ...SLIP_REASON_CODES, ...STAFF_ERROR_CODES, ...WALLET_ERROR_CODES, 'gone', 'invalid-token']);
/** The game simulator stands in for an outside provider's page: its own refusals are the provider's words. */
const SIMULATOR_CODES = new Set<string>(['INVALID_BET']);
const AUTH_CODES = new Set(['UNAUTHORIZED', 'invalid-token', 'EXPIRED_AUTH_TOKEN']);

const TWO_MB = JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) });

type Body = { name: string; payload?: string; contentType?: string };
/** The bodies every route is sent. */
const BODIES: Body[] = [
  { name: 'no body' },
  { name: 'empty JSON body', payload: '', contentType: 'application/json' },
  { name: 'empty object', payload: '{}', contentType: 'application/json' },
  { name: 'array', payload: '[1,2]', contentType: 'application/json' },
  { name: 'string', payload: '"x"', contentType: 'application/json' },
  { name: 'number', payload: '42', contentType: 'application/json' },
  { name: 'null', payload: 'null', contentType: 'application/json' },
  { name: 'wrong types', payload: JSON.stringify({ amount: ['5'], page: {}, limit: '10', from: 1, to: [], username: 5, password: {}, link: 7 }), contentType: 'application/json' },
  { name: 'broken JSON', payload: '{"amount": 1', contentType: 'application/json' },
  { name: 'wrong content type', payload: 'amount=5', contentType: 'text/plain' },
  { name: 'form body', payload: 'amount=5', contentType: 'application/x-www-form-urlencoded' },
  { name: 'multipart without boundary', payload: 'x', contentType: 'multipart/form-data' },
  { name: '2 MB body', payload: TWO_MB, contentType: 'application/json' },
];

/** A concrete URL for a route pattern: every parameter (and wildcard) gets a plausible value. */
const concrete = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (name === 'code' ? 'KBANK' : `sweep-${name}`)).replace(/\*$/, 'sweep.txt');
const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

let t: TestApp;
let routes: readonly RouteEntry[];
let playerId: number;
let revoked: string;
let expired: string;
let staffId: number;
let staffToken: string;
let staffRevoked: string;
let staffExpired: string;
const tally = { routes: 0, protected: 0, cases: 0 };

beforeAll(async () => {
  // METRICS_TOKEN: /metrics is registered (docs/operations.md), so the sweep covers it too.
  // A built page of its own: '/' is a route (the SPA's page with its boot data), and without a build it answers 503
  // "not built yet" (seen in a fresh clone, where npm test runs before any build).
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-dist-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="th"><head><title>Wallet</title></head><body><div id="root"></div></body></html>');
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', METRICS_TOKEN: 'sweep-metrics-token-0123456789', DIST_DIR: dist });
  routes = t.app.routeCatalogue;
  playerId = await insertPlayer(t.db.db);
  const session = await t.app.tokens.issue(playerId);
  const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${session}` } });
  expect(out.statusCode).toBe(200);
  revoked = session;
  // A token whose signature is good but whose time is up (a session that expired while the player was on a screen).
  const key = new TextEncoder().encode(t.app.config.jwtSecret);
  const past = Math.floor(Date.now() / 1000) - 60;
  expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(playerId)).setJti('sweep-expired').setIssuedAt(past - 3600).setExpirationTime(past).sign(key);

  const staff = await createStaff(t.app, { username: 'sweep-staff', role: 'admin' });
  staffId = staff.id;
  staffToken = await t.app.staffTokens.issue(staffId);
  const staffOut = await t.app.inject({ method: 'POST', url: '/api/staff/logout', headers: { authorization: `Bearer ${staff.token}` } });
  expect(staffOut.statusCode).toBe(200);
  staffRevoked = staff.token;
  staffExpired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(staffId)).setAudience('staff').setJti('sweep-expired')
    .setIssuedAt(past - 3600).setExpirationTime(past).sign(staffTokenKey(t.app.config.jwtSecret));
});
afterAll(async () => {
  console.log(`route sweep: ${tally.routes} routes (${tally.protected} protected), ${tally.cases} requests`);
  await t?.close();
});

async function send(route: RouteEntry, body: Body, authorization?: string) {
  tally.cases += 1;
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (body.contentType) headers['content-type'] = body.contentType;
  return t.app.inject({ method: route.method as 'GET', url: concrete(route.url), headers, payload: hasBody(route.method) ? body.payload : undefined });
}

/** What every answer must be: no 5xx; a refusal is JSON `{ message: CODE }` with a known code. Returns what is wrong. */
function problemsOf(route: RouteEntry, label: string, res: Awaited<ReturnType<typeof send>>): string[] {
  const where = `${route.method} ${route.url} (${label}): ${res.statusCode}`;
  if (res.statusCode >= 500) return [`${where} ${res.body.slice(0, 120)}`];
  if (res.statusCode < 400) return [];
  if (!/^application\/json/.test(String(res.headers['content-type']))) return [`${where} answered ${res.headers['content-type']}`];
  const body = res.json() as Record<string, unknown>;
  if (typeof body.message !== 'string') return [`${where} has no message: ${res.body.slice(0, 120)}`];
  // The envelope; a refused QR create also carries the QR record's other fields (hasQrcode false), as the SPA expects.
  if (Object.keys(body).length > 1 && !(route.url === '/api/qrcode/:code' && body.hasQrcode === false)) return [`${where} is not the envelope: ${res.body.slice(0, 120)}`];
  const code = body.message;
  const known = KNOWN_CODES.has(code) || (route.url.startsWith('/sim/') && SIMULATOR_CODES.has(code));
  return known ? [] : [`${where} answered an unknown code ${code}`];
}

test('the app registered the API: the sweep would notice routes going missing', () => {
  const urls = routes.map((r) => `${r.method} ${r.url}`);
  expect(urls).toEqual(expect.arrayContaining(['POST /api/login', 'GET /api/wallet', 'POST /api/wallet/transfer', 'POST /api/qrcode/:code', 'POST /api/wallet/slip', 'GET /api/limits', 'PUT /api/limits', 'POST /api/limits/restriction']));
  expect(routes.filter((r) => r.protected).length).toBeGreaterThan(20);
  // Every /api route but the public ones needs a token.
  const open = routes.filter((r) => r.url.startsWith('/api/') && !r.protected).map((r) => `${r.method} ${r.url}`).sort();
  expect(open).toEqual(
    [
      'POST /api/login', 'POST /api/account', 'POST /api/account/checkPhone', 'POST /api/account/validate', 'POST /api/otp/send', 'POST /api/otp/verify',
      // A forgotten password (docs/accounts.md "Forgotten password"): the player has no token.
      'POST /api/account/forgot', 'POST /api/account/reset',
      'POST /api/webhooks/payments', 'GET /api/statement/slip/image/:id',
      // A gateway's own events (docs/providers/opn.md): signed by the gateway, the charge fetched by id; 404 unless chosen.
      'POST /api/webhooks/opn', 'POST /api/staff/login', 'POST /api/staff/login/totp',
      // The seamless aggregator's Wallet API (docs/seamless-wallet.md): its RSA signature over the body is its authentication.
      ...['user/info', 'user/balance', 'transaction/bet', 'transaction/win', 'transaction/rollback'].map((p) => `POST /api/seamless/hub88/${p}`),
      // The chat: guests have no token (a token, when sent, is checked first); media URLs are 128-bit capabilities.
      'GET /api/chat/config', 'POST /api/chat/guest', 'POST /api/chat/send-message', 'POST /api/chat/history', 'PUT /api/chat/read-customer/',
      'POST /api/chat/upload-image', 'POST /api/chat/upload-video', 'GET /api/chat/media/:name',
      ...routes.filter((r) => r.url.startsWith('/api/lookup/')).map((r) => `${r.method} ${r.url}`),
    ].sort(),
  );
});

test('a protected route answers 401 to a missing, malformed, revoked or wrong kind of token, whatever the body', async () => {
  const badTokens: [string, string | undefined][] = [
    ['no token', undefined],
    ['not Bearer', 'Basic abc'],
    ['malformed token', 'Bearer not.a.jwt'],
    ['garbage', 'Bearer %%%'],
  ];
  const playerBad: [string, string][] = [
    ['logged-out session', `Bearer ${revoked}`],
    ['expired token', `Bearer ${expired}`],
    ["a staff member's token", `Bearer ${staffToken}`],
  ];
  const staffBad: [string, string][] = [
    ['logged-out staff session', `Bearer ${staffRevoked}`],
    ['expired staff token', `Bearer ${staffExpired}`],
    ["a player's token", `Bearer ${await t.app.tokens.issue(playerId)}`],
  ];
  expect(routes.filter((r) => r.staff).length).toBeGreaterThanOrEqual(2);
  for (const route of routes.filter((r) => r.protected)) {
    tally.protected += 1;
    for (const [label, authorization] of [...badTokens, ...(route.staff ? staffBad : playerBad)]) {
      for (const body of BODIES) {
        const res = await send(route, body, authorization);
        const where = `${route.method} ${route.url} (${label}, ${body.name})`;
        expect([where, res.statusCode]).toEqual([where, 401]);
        expect([where, AUTH_CODES.has(res.json().message)]).toEqual([where, true]);
      }
    }
  }
});

test('every route, with a valid token or none, answers sound refusals to bad bodies and never a 5xx', async () => {
  const problems: string[] = [];
  for (const route of routes) {
    tally.routes += 1;
    for (const body of BODIES) {
      // A fresh session each time (of the route's kind): the sweep reaches logout and password change too.
      const token = route.staff ? await t.app.staffTokens.issue(staffId) : route.protected ? await t.app.tokens.issue(playerId) : null;
      const authorization = token ? `Bearer ${token}` : undefined;
      problems.push(...problemsOf(route, body.name, await send(route, body, authorization)));
    }
  }
  expect(problems).toEqual([]);
});

describe('rate-limited', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '300', METRICS_TOKEN: 'sweep-metrics-token-0123456789' });
    for (let i = 0; i < 300; i += 1) await limited.app.inject({ method: 'GET', url: '/api/lookup/info' });
  });
  afterAll(async () => limited?.close());

  test('every route answers 429 REQUEST_LIMIT in the envelope once the address has used its minute', async () => {
    // Only the health probes are exempt (an orchestrator polls them from one address); they still answer.
    const unlimited = limited.app.routeCatalogue.filter((r) => r.unlimited);
    expect(unlimited.map((r) => `${r.method} ${r.url}`).sort()).toEqual(['GET /healthz', 'GET /readyz']);
    for (const route of unlimited) expect([route.url, (await limited.app.inject({ method: 'GET', url: route.url })).statusCode]).toEqual([route.url, 200]);
    for (const route of limited.app.routeCatalogue.filter((r) => !r.unlimited)) {
      tally.cases += 1;
      const res = await limited.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: { 'content-type': 'application/json' },
        payload: hasBody(route.method) ? '{"amount": 100}' : undefined,
      });
      const where = `${route.method} ${route.url}`;
      expect([where, res.statusCode, res.json()]).toEqual([where, 429, { message: 'REQUEST_LIMIT' }]);
    }
  });
});
