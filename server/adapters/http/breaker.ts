/**
 * A circuit breaker per provider (docs/providers/README.md "Circuit breaker"): after `failureThreshold` consecutive
 * failures (errors, timeouts, 5xx) within `windowMs` it opens; while open every call is refused at once for
 * `coolDownMs`; then it is half-open and lets exactly one call through: its success closes the circuit, its failure
 * opens it again for another cool-down. A definite answer of the provider (any 2xx-4xx) is a success here: the
 * service is up, it said no.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitSnapshot {
  provider: string;
  state: CircuitState;
  /** Consecutive failures counted in the current window. */
  failures: number;
  openedAt: string | null;
  /** When an open circuit lets its next probe through. */
  retryAt: string | null;
  /** What the last failure was (a short code-like text, never a provider's raw body). */
  lastFailure: string | null;
}

export interface BreakerOptions {
  failureThreshold?: number;
  windowMs?: number;
  coolDownMs?: number;
  now?: () => number;
  /** Told of every state change (the metrics gauge wallet_provider_circuit_open, a log line). */
  onChange?: (state: CircuitState, snapshot: CircuitSnapshot) => void;
}

export const BREAKER_DEFAULTS = { failureThreshold: 5, windowMs: 60_000, coolDownMs: 30_000 } as const;

export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private failureTimes: number[] = [];
  private openedAt: number | null = null;
  private probing = false;
  private lastFailure: string | null = null;
  private readonly threshold: number;
  private readonly windowMs: number;
  private readonly coolDownMs: number;
  private readonly now: () => number;

  constructor(
    readonly provider: string,
    private readonly opts: BreakerOptions = {},
  ) {
    this.threshold = Math.max(1, opts.failureThreshold ?? BREAKER_DEFAULTS.failureThreshold);
    this.windowMs = opts.windowMs ?? BREAKER_DEFAULTS.windowMs;
    this.coolDownMs = opts.coolDownMs ?? BREAKER_DEFAULTS.coolDownMs;
    this.now = opts.now ?? Date.now;
  }

  get state(): CircuitState {
    if (this.current === 'open' && this.openedAt !== null && this.now() >= this.openedAt + this.coolDownMs) this.set('half-open');
    return this.current;
  }

  /**
   * May a call go out now? True when closed; when half-open, true for the one probe (until it reports). Every call
   * that was allowed must report `success()` or `failure()`.
   */
  allow(): boolean {
    const s = this.state;
    if (s === 'closed') return true;
    if (s === 'half-open' && !this.probing) {
      this.probing = true;
      return true;
    }
    return false;
  }

  success(): void {
    this.probing = false;
    this.failureTimes = [];
    if (this.current !== 'closed') {
      this.openedAt = null;
      this.set('closed');
    }
  }

  failure(what = 'error'): void {
    const t = this.now();
    this.lastFailure = what;
    if (this.current === 'half-open' || this.probing) {
      this.probing = false;
      this.open(t);
      return;
    }
    this.failureTimes = this.failureTimes.filter((f) => f > t - this.windowMs);
    this.failureTimes.push(t);
    if (this.current === 'closed' && this.failureTimes.length >= this.threshold) this.open(t);
  }

  /** When an open circuit will let a probe through (null when not open). */
  retryAt(): Date | null {
    return this.current === 'open' && this.openedAt !== null ? new Date(this.openedAt + this.coolDownMs) : null;
  }

  snapshot(): CircuitSnapshot {
    const state = this.state;
    return {
      provider: this.provider,
      state,
      failures: this.failureTimes.length,
      openedAt: this.openedAt === null ? null : new Date(this.openedAt).toISOString(),
      retryAt: this.retryAt()?.toISOString() ?? null,
      lastFailure: this.lastFailure,
    };
  }

  private open(t: number): void {
    this.openedAt = t;
    this.failureTimes = [];
    this.set('open');
  }

  private set(state: CircuitState): void {
    if (this.current === state) return;
    this.current = state;
    this.opts.onChange?.(state, this.snapshot());
  }
}

/**
 * The breakers of one app (one per provider), for the operator's readiness detail: `circuitsOf(app).snapshot()`.
 * Kept per owner object (the Fastify instance), never process-wide, so tests with several apps do not mix them.
 */
export class CircuitRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();
  add(b: CircuitBreaker): CircuitBreaker {
    this.breakers.set(b.provider, b);
    return b;
  }
  get(provider: string): CircuitBreaker | undefined {
    return this.breakers.get(provider);
  }
  snapshot(): CircuitSnapshot[] {
    return [...this.breakers.values()].map((b) => b.snapshot());
  }
}

const registries = new WeakMap<object, CircuitRegistry>();

export function circuitsOf(owner: object): CircuitRegistry {
  let r = registries.get(owner);
  if (!r) registries.set(owner, (r = new CircuitRegistry()));
  return r;
}

/** The gauge wallet_provider_circuit_open as the breaker's onChange: 1 while open or half-open, 0 when closed. */
export function circuitGauge(gauge: { set(labels: { provider: string }, value: number): void } | undefined, provider: string): BreakerOptions['onChange'] {
  if (!gauge) return undefined;
  gauge.set({ provider }, 0);
  return (state) => gauge.set({ provider }, state === 'closed' ? 0 : 1);
}
