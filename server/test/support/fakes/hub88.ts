import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyBody, keyFromPem } from '../../../adapters/aggregator/signature';
import { HUB88_GAME_URL_PATH } from '../../../adapters/aggregator/hub88';
import type { FakeMode } from './fake-server';

/**
 * Hub88's Games API game URL call as its documentation says (docs/providers/hub88.md): `POST
 * /operator/generic/v2/game/url`, the body signed by the operator (RSA-SHA256 over the raw body, base64, in
 * X-Hub88-Signature), checked here with the operator's public key; `200 {url}`; the documented errors as
 * `{error: <text>}` with their HTTP status (400, 401, 403, 404, 500). Its own node:http server (not startFake) because
 * the signature is over the raw bytes, which the shared fake does not keep.
 */

/** The documented errors of the Games API ("Error codes"), as the fake answers them. */
export const HUB88_DOC_ERRORS = {
  bad_request: { status: 400, error: 'Invalid or missing request parameters' },
  signature: { status: 401, error: 'Request signature is invalid' },
  not_enabled: { status: 403, error: "The currency, country or game isn't enabled for the Operator" },
  not_found: { status: 404, error: "The country, currency or game requested doesn't exist" },
  no_operator: { status: 404, error: "The operator_id doesn't correspond to any existing Operator" },
  internal: { status: 500, error: 'Internal server error' },
} as const;
export type Hub88ErrorCode = keyof typeof HUB88_DOC_ERRORS;

/** The fields the fake requires (the documented required ones, and those our adapter always sends). */
const REQUIRED = ['user', 'token', 'platform', 'operator_id', 'lobby_url', 'lang', 'ip', 'game_code', 'currency', 'country'] as const;

export interface Hub88SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown> | null;
}

export interface Hub88Fake {
  url: string;
  mode: FakeMode;
  /** Delay of the 'slow' mode. */
  slowMs: number;
  operatorId: number;
  /** Game codes the operator has enabled. */
  games: Set<string>;
  requests: Hub88SeenRequest[];
  /** Game URLs handed out, by our token. */
  launched: Map<string, string>;
  /** The next answers (one per entry) are this documented error instead. */
  failWith(...errors: Hub88ErrorCode[]): void;
  /** Back to normal: no queued error, mode ok, requests forgotten. */
  reset(): void;
  close(): Promise<void>;
}

export interface Hub88FakeOptions {
  /** The operator's public key (PEM): our signatures are checked with it. */
  operatorPublicKey: string;
  operatorId?: number;
  games?: string[];
}

export async function startHub88Fake(opts: Hub88FakeOptions): Promise<Hub88Fake> {
  const publicKey = keyFromPem(opts.operatorPublicKey, 'public');
  const queued: Hub88ErrorCode[] = [];
  const held = new Set<http.ServerResponse>();
  const fail = (code: Hub88ErrorCode) => ({ status: HUB88_DOC_ERRORS[code].status, body: { error: HUB88_DOC_ERRORS[code].error } });

  const handle = (seen: Hub88SeenRequest): { status: number; body: unknown } => {
    if (seen.method !== 'POST' || seen.path !== HUB88_GAME_URL_PATH) return { status: 404, body: { error: 'Not found' } };
    const signature = seen.headers['x-hub88-signature'];
    if (!verifyBody(seen.raw, typeof signature === 'string' ? signature : undefined, publicKey)) return fail('signature');
    const next = queued.shift();
    if (next) return fail(next);
    const b = seen.body;
    if (!b || REQUIRED.some((k) => b[k] === undefined || b[k] === null || b[k] === '')) return fail('bad_request');
    if (typeof b.user !== 'string' || b.user.length < 3) return fail('bad_request');
    if (typeof b.token !== 'string' || b.token.length < 10 || b.token.length > 255) return fail('bad_request');
    if (b.platform !== 'GPL_DESKTOP' && b.platform !== 'GPL_MOBILE') return fail('bad_request');
    if (typeof b.currency !== 'string' || !/^[A-Z]{3}$/.test(b.currency) || typeof b.country !== 'string' || !/^[A-Z]{2}$/.test(b.country)) return fail('bad_request');
    if (b.operator_id !== fake.operatorId) return fail('no_operator');
    if (!fake.games.has(String(b.game_code))) return fail('not_found');
    const url = `https://games.hub88-fake.example/launch/${encodeURIComponent(String(b.game_code))}?s=${encodeURIComponent(b.token)}&lang=${encodeURIComponent(String(b.lang))}`;
    fake.launched.set(b.token, url);
    return { status: 200, body: { url } };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = raw ? JSON.parse(raw) : null;
        body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      const seen: Hub88SeenRequest = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://fake').pathname, headers: req.headers, raw, body };
      fake.requests.push(seen);
      const send = (a: { status: number; body: unknown }) => {
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(a.body));
      };
      if (fake.mode === 'timeout') {
        held.add(res);
        return;
      }
      if (fake.mode === 'down') return send(fail('internal'));
      if (fake.mode === 'slow') {
        setTimeout(() => send(handle(seen)), fake.slowMs);
        return;
      }
      send(handle(seen));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));

  const fake: Hub88Fake = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mode: 'ok',
    slowMs: 200,
    operatorId: opts.operatorId ?? 4242,
    games: new Set(opts.games ?? ['clt_dragonrising', 'sim_dragon_rising']),
    requests: [],
    launched: new Map(),
    failWith: (...errors) => void queued.push(...errors),
    reset() {
      queued.length = 0;
      fake.mode = 'ok';
      fake.requests.length = 0;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return fake;
}
