import type { ProviderCall } from '../../lib/request-context';
import { outboundHeaders } from '../../lib/request-context';
import { CircuitBreaker, type BreakerOptions } from './breaker';
import { ProviderCallError, ProviderTimeoutError, ProviderUnavailable } from './errors';
import { maskFields, maskRules, redactSecrets, type MaskRule } from './mask';

/**
 * The one HTTP client of the real adapters (docs/providers/README.md): Node's fetch with a timeout per attempt,
 * retries only for calls marked idempotent (bounded, with doubling backoff), the provider's circuit breaker, and
 * one log line per attempt with the request and the answer masked (personal data by the adapter's rules, every
 * secret wherever it appears). Headers are never logged.
 */
export interface LogSink {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface HttpClientOptions {
  /** The provider's name in logs, metrics and the breaker (`easyslip`, `slipok`, ...). */
  provider: string;
  baseUrl: string;
  /** Per attempt, connect to last byte of the answer. */
  timeoutMs?: number;
  /** Extra attempts for an idempotent call after a timeout, a connection failure, a 5xx or a 429. */
  retries?: number;
  /** Wait before the first retry; doubled for each further one, at most maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A breaker of its own is made from these options unless one is given (e.g. shared by two clients of one provider). */
  breaker?: CircuitBreaker | BreakerOptions;
  log?: LogSink;
  /** Keys of request and answer bodies holding personal data (account numbers, names, phones). */
  mask?: Record<string, MaskRule>;
  /** Strings never to appear in a log line (API keys, tokens). */
  secrets?: readonly string[];
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * What every real adapter takes for its client, beside its own secrets: the service's base URL (a sandbox, or a
 * contract fake in tests), timeouts, retries, its breaker, a log and a fetch. `adapterClient` makes the client.
 */
export interface AdapterHttpSettings {
  baseUrl?: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  breaker?: HttpClientOptions['breaker'];
  log?: LogSink;
  fetch?: typeof fetch;
}

/** An adapter's client: its settings, the provider's name and default base URL, what to mask and never log. */
export function adapterClient(
  provider: string,
  defaultBaseUrl: string,
  settings: AdapterHttpSettings,
  privacy: { mask?: HttpClientOptions['mask']; secrets: readonly string[] },
): HttpClient {
  const { baseUrl, timeoutMs, retries, backoffMs, breaker, log, fetch } = settings;
  return new HttpClient({ provider, baseUrl: baseUrl || defaultBaseUrl, timeoutMs, retries, backoffMs, breaker, log, fetch, ...privacy });
}

export interface HttpCall {
  /** The adapter operation (`verify`, `createCharge`), for the log. */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended to the base URL. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON (content-type application/json). */
  json?: unknown;
  /** Safe to send twice (a read, or a write with the provider's idempotency key): only then is it retried. */
  idempotent: boolean;
  call?: ProviderCall;
}

export interface HttpAnswer {
  status: number;
  /** The parsed JSON body, or null when the body was empty or not JSON. */
  body: unknown;
  headers: Headers;
  attempts: number;
}

export const HTTP_DEFAULTS = { timeoutMs: 8000, retries: 1, backoffMs: 250, maxBackoffMs: 2000 } as const;

const retryable = (status: number) => status >= 500 || status === 429;

export class HttpClient {
  readonly breaker: CircuitBreaker;
  readonly provider: string;
  private readonly rules: Record<string, MaskRule>;

  constructor(private readonly opts: HttpClientOptions) {
    this.provider = opts.provider;
    this.breaker = opts.breaker instanceof CircuitBreaker ? opts.breaker : new CircuitBreaker(opts.provider, opts.breaker);
    this.rules = maskRules(opts.mask ?? {});
  }

  async request(c: HttpCall): Promise<HttpAnswer> {
    if (!this.breaker.allow()) {
      this.opts.log?.warn({ provider: this.provider, operation: c.operation, reqId: c.call?.requestId, circuit: 'open' }, 'provider call refused: circuit open');
      throw new ProviderUnavailable(this.provider, this.breaker.retryAt());
    }
    const attempts = c.idempotent ? 1 + Math.max(0, this.opts.retries ?? HTTP_DEFAULTS.retries) : 1;
    let last: Error | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await (this.opts.sleep ?? sleep)(this.backoff(attempt - 1));
      try {
        const answer = await this.once(c, attempt);
        if (!retryable(answer.status)) {
          this.breaker.success();
          return answer;
        }
        last = new ProviderCallError(this.provider, c.operation, answer.status, `HTTP ${answer.status}`);
      } catch (e) {
        last = e as Error;
      }
    }
    this.breaker.failure(last instanceof ProviderTimeoutError ? 'timeout' : last instanceof ProviderCallError && last.status ? `http_${last.status}` : 'connection');
    throw last!;
  }

  private backoff(retry: number): number {
    const base = this.opts.backoffMs ?? HTTP_DEFAULTS.backoffMs;
    return Math.min(base * 2 ** (retry - 1), this.opts.maxBackoffMs ?? HTTP_DEFAULTS.maxBackoffMs);
  }

  private async once(c: HttpCall, attempt: number): Promise<HttpAnswer> {
    const url = new URL(`${this.opts.baseUrl.replace(/\/+$/, '')}${c.path}`);
    for (const [k, v] of Object.entries(c.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json', ...outboundHeaders(c.call), ...c.headers };
    let body: string | undefined;
    if (c.json !== undefined) {
      body = JSON.stringify(c.json);
      headers['content-type'] = 'application/json';
    }
    const started = Date.now();
    const line = { provider: this.provider, operation: c.operation, method: c.method, path: url.pathname, attempt, reqId: c.call?.requestId };
    const request = this.masked({ query: c.query, body: c.json });
    const timeoutMs = this.opts.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
    try {
      const res = await (this.opts.fetch ?? fetch)(url, { method: c.method, headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
      const text = await res.text();
      let parsed: unknown = null;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
      }
      const ms = Date.now() - started;
      const log = retryable(res.status) ? this.opts.log?.warn : this.opts.log?.info;
      log?.call(this.opts.log, { ...line, status: res.status, ms, request, answer: this.masked(parsed ?? (text ? `[${text.length} bytes, not JSON]` : null)) }, 'provider call');
      return { status: res.status, body: parsed, headers: res.headers, attempts: attempt };
    } catch (e) {
      const ms = Date.now() - started;
      const err = e as Error & { cause?: { code?: string } };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      this.opts.log?.warn({ ...line, ms, request, error: timedOut ? 'timeout' : (err.cause?.code ?? err.name) }, 'provider call failed');
      if (timedOut) throw new ProviderTimeoutError(this.provider, c.operation, !c.idempotent);
      throw new ProviderCallError(this.provider, c.operation, null, err.cause?.code ?? err.name);
    }
  }

  /** The value as it may be logged: personal fields masked, then every secret removed wherever it is. */
  masked(value: unknown): unknown {
    if (value === undefined || value === null) return value;
    const text = JSON.stringify(maskFields(value, this.rules));
    return text === undefined ? undefined : JSON.parse(redactSecrets(text, this.opts.secrets ?? []));
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
