import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * The app's Prometheus metrics (docs/operations.md "Metrics"). One Registry per app instance, never prom-client's
 * global one, so tests that build many apps in one process do not collide and each app reports only its own work.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'route' | 'method' | 'status_class'>;
  ledgerEntries: Counter<'kind'>;
  providerCalls: Histogram<'provider' | 'operation' | 'outcome'>;
  /** 1 while the provider's circuit breaker is open or half-open (server/adapters/http/breaker.ts), 0 when closed. */
  providerCircuitOpen: Gauge<'provider'>;
  webhookEvents: Counter<'outcome'>;
  pending: Gauge<'kind'>;
  pendingOldest: Gauge<'kind'>;
  openSockets: Gauge<'namespace'>;
  /** 1 while this process holds the job's lease (server/jobs/lease.ts), else 0. */
  jobLeaseHeld: Gauge<'job'>;
  /** Bytes an unprivileged process may still write on DATA_DIR's file system (the upload watermark's reading). */
  dataDiskFree: Gauge;
  /** Counts journal entries as the ledger writes them (installed on app.db). */
  ledgerPlugin: KyselyPlugin;
  /** Process metrics and event-loop delay (prom-client's defaults); only when /metrics is served. */
  collectProcessMetrics(): void;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PROVIDER_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const ledgerEntries = new Counter({
    name: 'wallet_ledger_entries_total',
    help: 'Journal entries (money movements) this process posted, by kind (deposit, transfer_to_game, withdrawal, bonus, ...)',
    labelNames: ['kind'] as const,
    registers,
  });
  let processMetrics = false;
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route pattern (not the raw URL), method and status class',
      labelNames: ['route', 'method', 'status_class'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    ledgerEntries,
    providerCalls: new Histogram({
      name: 'wallet_provider_call_duration_seconds',
      help: 'Calls to outside services (game providers, payment gateway, payouts, slip verification, gift redeemer, SMS) by outcome: ok, refused, timeout, error',
      labelNames: ['provider', 'operation', 'outcome'] as const,
      buckets: PROVIDER_BUCKETS,
      registers,
    }),
    providerCircuitOpen: new Gauge({
      name: 'wallet_provider_circuit_open',
      help: "Whether an outside service's circuit breaker refuses calls: 1 while open or half-open (one probe at a time), 0 when closed",
      labelNames: ['provider'] as const,
      registers,
    }),
    webhookEvents: new Counter({
      name: 'wallet_webhook_events_total',
      help: "Payment webhook deliveries by outcome: the event's outcome (CREDITED, AMOUNT_MISMATCH, PAYOUT_SUCCESS, ...) or the refusal's code",
      labelNames: ['outcome'] as const,
      registers,
    }),
    pending: new Gauge({
      name: 'wallet_pending',
      help: 'Work not finished yet, read from the database at scrape: kind transfer (wallet <-> game, pending), withdrawal (IN_PROGRESS) or review (payments under review, OPEN)',
      labelNames: ['kind'] as const,
      registers,
    }),
    pendingOldest: new Gauge({
      name: 'wallet_pending_oldest_age_seconds',
      help: 'Age of the oldest unfinished transfer, withdrawal or open review, 0 when there is none (read at scrape)',
      labelNames: ['kind'] as const,
      registers,
    }),
    openSockets: new Gauge({
      name: 'wallet_open_sockets',
      help: 'socket.io connections open on this process, by namespace (/ players and guests, /staff the console)',
      labelNames: ['namespace'] as const,
      registers,
    }),
    jobLeaseHeld: new Gauge({
      name: 'wallet_job_lease_held',
      help: 'Whether this process holds the lease of a background job that runs once across processes (reconciler, wagering-poller): 1 or 0',
      labelNames: ['job'] as const,
      registers,
    }),
    dataDiskFree: new Gauge({
      name: 'wallet_data_disk_free_bytes',
      help: "Bytes free for the server's user on DATA_DIR's file system (uploads stop below the minFreeDiskMb watermark), read at scrape",
      registers,
    }),
    ledgerPlugin: journalEntryCounter((kind) => ledgerEntries.inc({ kind })),
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}

/** A label value we control the spelling of (codes, kinds): anything else is "other", so a label never explodes. */
export function labelOf(v: unknown): string {
  return typeof v === 'string' && /^[A-Za-z0-9_.:-]{1,48}$/.test(v) ? v : 'other';
}

/** What postEntry calls on its handle's plugins: the ledger's JournalObserver, restated so lib/ imports nothing above it. */
interface JournalEntryListener {
  journalEntryPosted(kind: string): void;
}

/**
 * Counts the journal entries the app posts, by kind: installed on app.db (app.ts), it hears of each entry postEntry
 * writes through that handle (JournalObserver, server/ledger/journal.ts) once its insert succeeded. It counts when
 * the entry is written inside its transaction: a transaction that rolls back after a successful postEntry (rare: a
 * later step of the same movement fails) is counted too. Entries written through another handle on the same database
 * (a test's own connection, a CLI) are not this app's work and are not counted.
 */
function journalEntryCounter(count: (kind: string) => void): KyselyPlugin & JournalEntryListener {
  return {
    transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => args.node,
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
    journalEntryPosted: (kind) => count(labelOf(kind)),
  };
}

type Outcome = 'ok' | 'refused' | 'timeout' | 'error';

/** An adapter's answer read as an outcome: a definite "no" from the service is refused, not an error. */
function outcomeOfResult(result: unknown): Outcome {
  const r = result as { ok?: unknown; status?: unknown; reason?: unknown; kind?: unknown } | null;
  if (r && typeof r === 'object') {
    // A gateway webhook read (payments' readWebhook): the gateway not reachable is an error, a forgery refused.
    if (r.kind === 'unavailable') return 'error';
    if (r.kind === 'forged') return 'refused';
    if (r.ok === false) return r.reason === 'SERVICE_UNAVAILABLE' ? 'error' : 'refused';
    if (r.status === 'failed' || r.status === 'rejected') return 'refused';
  }
  return 'ok';
}

function outcomeOfError(err: unknown): Outcome {
  const e = err as { name?: string; message?: string } | null;
  return /timeout/i.test(`${e?.name ?? ''} ${e?.message ?? ''}`) ? 'timeout' : 'error';
}

/**
 * The adapter, with each named operation timed and counted in wallet_provider_call_duration_seconds. The
 * object stays itself for everything else (a Proxy: instanceof and other methods work as before). Without
 * metrics (an app built without the ops plugin) the adapter is returned as is.
 */
export function instrumentAdapter<T extends object>(metrics: Metrics | undefined, provider: string, adapter: T, operations: readonly string[]): T {
  if (!metrics) return adapter;
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      // Read on every access, so a method replaced on the adapter later (a test's spy) is the one called.
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (!operations.includes(String(prop))) return value.bind(target);
      return async (...args: unknown[]) => {
        const end = metrics.providerCalls.startTimer({ provider, operation: String(prop) });
        try {
          const result = await (value as (...a: unknown[]) => unknown).apply(target, args);
          end({ outcome: outcomeOfResult(result) });
          return result;
        } catch (err) {
          end({ outcome: outcomeOfError(err) });
          throw err;
        }
      };
    },
  });
}

/** The operations of each outside service's interface (server/adapters/<x>/types.ts) that are timed. */
export const ADAPTER_OPERATIONS = {
  games: ['createPlayer', 'deposit', 'withdraw', 'balance', 'transferStatus', 'launchUrl', 'resetPassword', 'betFeed'],
  // readWebhook: a gateway's own event, checked and its payment fetched by id (PAYMENT_GATEWAY=opn); paymentOf: the
  // poll for a QR whose webhook did not arrive.
  payments: ['createQr', 'cancelQr', 'readWebhook', 'paymentOf'],
  payouts: ['requestPayout', 'getPayoutStatus', 'cancelPayout'],
  slipVerify: ['verify'],
  gift: ['inspect', 'redeem'],
  sms: ['send'],
} as const;
