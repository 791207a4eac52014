import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, type LogSink } from './client';
import { ProviderCallError, ProviderTimeoutError, ProviderUnavailable } from './errors';
import { bahtToSatang } from './baht';
import { maskAccount, maskFields, maskName } from './mask';

/** A real local server whose answer each test chooses: status and body, or a delay, per request. */
let server: http.Server;
let base: string;
let answers: Array<{ status?: number; body?: unknown; delayMs?: number }> = [];
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const a = answers.shift() ?? { status: 200, body: { ok: true } };
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(a.body ?? {}));
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  answers = [];
  seen.length = 0;
});

function logger() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const sink: LogSink = {
    info: (obj, msg) => void lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => void lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    error: (obj, msg) => void lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
  return { sink, lines };
}

const KEY = 'sk_live_0123456789abcdef';

test('a call: base URL + path + query, our headers and the request id, the JSON answer parsed, one masked log line', async () => {
  const { sink, lines } = logger();
  const client = new HttpClient({ provider: 'p', baseUrl: base, log: sink, secrets: [KEY], mask: { account: 'account', name: 'name' } });
  answers.push({ status: 200, body: { account: '1234567890', name: 'SOMCHAI JAIDEE', echo: `Bearer ${KEY}` } });
  const a = await client.request({ operation: 'read', method: 'POST', path: '/x', query: { q: '1' }, headers: { authorization: `Bearer ${KEY}` }, json: { account: '0987654321' }, idempotent: true, call: { requestId: 'req-1' } });
  expect(a).toMatchObject({ status: 200, attempts: 1, body: { account: '1234567890', name: 'SOMCHAI JAIDEE' } });
  expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/x?q=1', body: '{"account":"0987654321"}' });
  expect(seen[0].headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'x-request-id': 'req-1', 'content-type': 'application/json' });
  expect(lines).toHaveLength(1);
  expect(lines[0].obj).toMatchObject({ provider: 'p', operation: 'read', status: 200, reqId: 'req-1', request: { body: { account: 'xxxxxx4321' } }, answer: { account: 'xxxxxx7890', name: 'S***', echo: 'Bearer [secret]' } });
  expect(JSON.stringify(lines)).not.toContain(KEY);
  expect(JSON.stringify(lines)).not.toContain('1234567890');
});

test('an idempotent call that times out is retried once, then ProviderTimeoutError; a 4xx is an answer, not a failure', async () => {
  const client = new HttpClient({ provider: 'p', baseUrl: base, timeoutMs: 100, backoffMs: 1 });
  answers.push({ delayMs: 400 }, { delayMs: 400 });
  const started = Date.now();
  await expect(client.request({ operation: 'read', method: 'GET', path: '/slow', idempotent: true })).rejects.toBeInstanceOf(ProviderTimeoutError);
  expect(seen).toHaveLength(2);
  expect(Date.now() - started).toBeLessThan(380); // never waited for the slow answers
  answers.push({ status: 404, body: { message: 'nope' } });
  await expect(client.request({ operation: 'read', method: 'GET', path: '/x', idempotent: true })).resolves.toMatchObject({ status: 404, attempts: 1 });
  expect(client.breaker.snapshot().failures).toBe(0); // the 404 counted as the service being up
});

test('a timeout answered on the retry succeeds; a 5xx then 200 too', async () => {
  const client = new HttpClient({ provider: 'p', baseUrl: base, timeoutMs: 150, backoffMs: 1 });
  answers.push({ delayMs: 400 }, { status: 200, body: { n: 2 } });
  await expect(client.request({ operation: 'read', method: 'GET', path: '/x', idempotent: true })).resolves.toMatchObject({ body: { n: 2 }, attempts: 2 });
  answers.push({ status: 503 }, { status: 200, body: { n: 3 } });
  await expect(client.request({ operation: 'read', method: 'GET', path: '/x', idempotent: true })).resolves.toMatchObject({ body: { n: 3 }, attempts: 2 });
});

test('a call not marked idempotent is never retried: its timeout says the outcome is unknown', async () => {
  const client = new HttpClient({ provider: 'p', baseUrl: base, timeoutMs: 100, backoffMs: 1 });
  answers.push({ delayMs: 400 });
  const err = await client.request({ operation: 'charge', method: 'POST', path: '/charge', json: {}, idempotent: false }).catch((e) => e);
  expect(err).toBeInstanceOf(ProviderTimeoutError);
  expect(err.maybeApplied).toBe(true);
  expect(seen).toHaveLength(1);
  answers.push({ status: 500 });
  await expect(client.request({ operation: 'charge', method: 'POST', path: '/charge', json: {}, idempotent: false })).rejects.toMatchObject({ name: 'ProviderCallError', status: 500 });
  expect(seen).toHaveLength(2);
});

test('the breaker opens after repeated failures and refuses at once without calling; a probe after the cool-down closes it', async () => {
  let now = 0;
  const { sink, lines } = logger();
  const client = new HttpClient({ provider: 'p', baseUrl: base, retries: 0, log: sink, breaker: { failureThreshold: 3, coolDownMs: 1_000, now: () => now } });
  for (let i = 0; i < 3; i++) {
    answers.push({ status: 502 });
    await expect(client.request({ operation: 'read', method: 'GET', path: '/x', idempotent: true })).rejects.toBeInstanceOf(ProviderCallError);
  }
  expect(client.breaker.state).toBe('open');
  const started = Date.now();
  await expect(client.request({ operation: 'read', method: 'GET', path: '/x', idempotent: true })).rejects.toBeInstanceOf(ProviderUnavailable);
  expect(Date.now() - started).toBeLessThan(50);
  expect(seen).toHaveLength(3); // nothing sent while open
  expect(lines.at(-1)).toMatchObject({ level: 'warn', msg: 'provider call refused: circuit open' });
  now = 1_000;
  answers.push({ status: 200, body: {} });
  await expect(client.request({ operation: 'read', method: 'GET', path: '/x', idempotent: true })).resolves.toMatchObject({ status: 200 });
  expect(client.breaker.state).toBe('closed');
});

test('a refused connection is a ProviderCallError without status, counted by the breaker', async () => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const client = new HttpClient({ provider: 'p', baseUrl: `http://127.0.0.1:${port}`, retries: 0 });
  await expect(client.request({ operation: 'read', method: 'GET', path: '/', idempotent: true })).rejects.toMatchObject({ name: 'ProviderCallError', status: null });
  expect(client.breaker.snapshot()).toMatchObject({ failures: 1, lastFailure: 'connection' });
});

test('baht to satang through the decimal text: exact, and refused beyond 2 decimals', () => {
  expect([bahtToSatang(1500.5), bahtToSatang(0.1), bahtToSatang(19.99), bahtToSatang('1000.10'), bahtToSatang(1000), bahtToSatang(1234567.89)]).toEqual([150050, 10, 1999, 100010, 100000, 123456789]);
  expect([bahtToSatang(1.005), bahtToSatang(-1), bahtToSatang('1e3'), bahtToSatang(NaN), bahtToSatang(null), bahtToSatang('')]).toEqual([null, null, null, null, null, null]);
});

test('masking: accounts to their last 4 digits, names to a letter, nested rules, account objects not inherited', () => {
  expect(maskAccount('123-4-56789-0')).toBe('xxx-x-xx789-0');
  expect(maskAccount('xxx-x-x1234-x')).toBe('xxx-x-x1234-x');
  expect(maskName('นาย อีซี่ สลิป')).toBe('น***');
  const rules = { account: 'account', name: 'name', th: 'name', en: 'name' } as const;
  expect(maskFields({ account: { name: { th: 'นาย ก', en: 'MR A' }, bank: { type: 'BANKAC', account: '1234567890' } }, transRef: 'REF1' }, rules)).toEqual({
    account: { name: { th: 'น***', en: 'M***' }, bank: { type: 'BANKAC', account: 'xxxxxx7890' } },
    transRef: 'REF1',
  });
});
