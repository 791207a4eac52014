import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LogSink } from '../../../adapters/http';

/**
 * The small HTTP server under each contract fake (docs/providers/): 127.0.0.1 on a free port, the requests it got
 * (for assertions: headers, query, body), and the modes every fake shares: answer normally, answer after a delay,
 * never answer (a timeout for the client), or fail with the provider's 5xx.
 */
export type FakeMode = 'ok' | 'slow' | 'timeout' | 'down';

export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

export interface FakeServer {
  url: string;
  mode: FakeMode;
  /** Delay of the 'slow' mode. */
  slowMs: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startFake(handle: (req: SeenRequest) => FakeAnswer, down: () => FakeAnswer): Promise<FakeServer> {
  const held = new Set<http.ServerResponse>();
  const fake: FakeServer = { url: '', mode: 'ok', slowMs: 200, requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw || null;
      if (raw && /json/.test(req.headers['content-type'] ?? '')) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      const seen: SeenRequest = { method: req.method ?? 'GET', path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, body };
      fake.requests.push(seen);
      const send = (a: FakeAnswer) => {
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(a.body));
      };
      if (fake.mode === 'timeout') {
        held.add(res); // never answered; closed with the server
        return;
      }
      if (fake.mode === 'down') return send(down());
      if (fake.mode === 'slow') {
        setTimeout(() => send(handle(seen)), fake.slowMs);
        return;
      }
      send(handle(seen));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return fake;
}

/** A transfer as a fake's test registers it, in our words; each fake renders it in its provider's shape. */
export interface FakeTransfer {
  transRef: string;
  /** 3-digit sending bank code, as the mini-QR carries it. */
  sendingBank: string;
  /** Baht, as the provider sends it (a JSON number). */
  amount: number;
  /** ISO time of the transfer. */
  at: string;
  sender: { bankShort: string; name: string; account: string };
  receiver: { bankCode: string; bankShort: string; name: string; account: string | null; promptPayId: string | null };
}

/** A bank's masking of an account number on a slip: xxx-x-x1234-x for 10 digits, the last four shown otherwise. */
export function bankMasked(account: string): string {
  const d = account.replace(/\D/g, '');
  if (d.length === 10) return `xxx-x-x${d.slice(5, 9)}-x`;
  return `${'x'.repeat(Math.max(0, d.length - 4))}${d.slice(-4)}`;
}

/** A PromptPay phone as slips show it: xxx-xxx-5678. */
export function phoneMasked(id: string): string {
  const d = id.replace(/\D/g, '');
  return d.length === 10 ? `xxx-xxx-${d.slice(6)}` : bankMasked(d);
}

/** A plausible Slip Verify mini-QR: tag 00 carrying API type 000001 (what the banks print on slips). */
export const looksLikeMiniQr = (payload: string) => /^00\d{2}0006000001/.test(payload);

/** A log sink for an adapter under test: each line kept as JSON of its object and message, to look for secrets in. */
export function capturedLog(): { sink: LogSink; lines: string[] } {
  const lines: string[] = [];
  const push = (o: object, m: string) => void lines.push(JSON.stringify({ o, m }));
  return { sink: { info: push, warn: push, error: push }, lines };
}
