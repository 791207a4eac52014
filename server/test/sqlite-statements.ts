import Database from 'better-sqlite3';
import { currentRequestId } from '../lib/request-context';

/** A statement better-sqlite3 stepped: its SQL and parameters, its connection, and the request it ran for. */
export interface Stepped {
  source: string;
  args: unknown[];
  /** The connection: its file, and whether it is the read-only one. */
  database: { name: string; readonly: boolean };
  /** The HTTP request it ran for (lib/request-context.ts); undefined for background work (the journal feed, pollers). */
  requestId: string | undefined;
}

const METHODS = ['run', 'all', 'get', 'iterate'] as const;
type Method = (typeof METHODS)[number];

/**
 * Every statement better-sqlite3 steps while `during` runs, on any connection (their prototype is shared): what tests
 * count and inspect of a request's SQL on SQLite. The caller filters: a request's own (`requestId`), a kind (`source`).
 */
export async function steppedDuring<T>(during: () => Promise<T>): Promise<{ result: T; stepped: Stepped[] }> {
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as Record<Method, (...a: unknown[]) => unknown>;
  const saved = Object.fromEntries(METHODS.map((m) => [m, proto[m]])) as Record<Method, (...a: unknown[]) => unknown>;
  const stepped: Stepped[] = [];
  for (const m of METHODS) {
    proto[m] = function (this: { source: string; database: { name: string; readonly: boolean } }, ...a: unknown[]) {
      stepped.push({ source: this.source, args: a.flat(), database: { name: this.database.name, readonly: this.database.readonly }, requestId: currentRequestId() });
      return saved[m].apply(this, a);
    };
  }
  try {
    return { result: await during(), stepped };
  } finally {
    Object.assign(proto, saved);
  }
}
