import Database from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** A statement better-sqlite3 stepped: its SQL and parameters, its connection, and whether it ran for the test's call. */
export interface Stepped {
  source: string;
  args: unknown[];
  /** The connection: its file, and whether it is the read-only one. */
  database: { name: string; readonly: boolean };
  /**
   * It ran for an HTTP request of an app marked with `markRequests`, not for background work (the journal feed, the
   * pollers): told by an AsyncLocalStorage of the tests' own, entered by the hooks markRequests adds.
   */
  fromCall: boolean;
}

// Tests only: the app itself carries no async context (lib/request-context.ts says why).
const calls = new AsyncLocalStorage<true>();
let recording = false;

/**
 * Lets steppedDuring tell a request's statements from background work's: while it records, each request of `app`
 * runs in the tests' context, entered in onRequest and again in preValidation (a parsed body resumes in the request
 * stream's context, not the hook's). Outside a recording nothing is entered. Call it before `app.ready()`.
 */
export function markRequests(app: FastifyInstance): void {
  const enter = (_req: unknown, _reply: unknown, done: () => void) => (recording ? calls.run(true, done) : done());
  app.addHook('onRequest', enter);
  app.addHook('preValidation', enter);
}

/** Whether the code running now runs for a request of an app marked with `markRequests`, while a recording is on. */
export const inMarkedCall = (): boolean => calls.getStore() === true;

/** Runs `during` with the marking of requests on (what steppedDuring and pg-round-trips.ts's queriesDuring record in). */
export async function whileMarking<T>(during: () => Promise<T>): Promise<T> {
  recording = true;
  try {
    return await during();
  } finally {
    recording = false;
  }
}

const METHODS = ['run', 'all', 'get', 'iterate'] as const;
type Method = (typeof METHODS)[number];

/**
 * Every statement better-sqlite3 steps while `during` runs, on any connection (their prototype is shared): what tests
 * count and inspect of a request's SQL on SQLite. The caller filters: the call's own (`fromCall`), a kind (`source`).
 */
export async function steppedDuring<T>(during: () => Promise<T>): Promise<{ result: T; stepped: Stepped[] }> {
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as Record<Method, (...a: unknown[]) => unknown>;
  const saved = Object.fromEntries(METHODS.map((m) => [m, proto[m]])) as Record<Method, (...a: unknown[]) => unknown>;
  const stepped: Stepped[] = [];
  for (const m of METHODS) {
    proto[m] = function (this: { source: string; database: { name: string; readonly: boolean } }, ...a: unknown[]) {
      stepped.push({ source: this.source, args: a.flat(), database: { name: this.database.name, readonly: this.database.readonly }, fromCall: calls.getStore() === true });
      return saved[m].apply(this, a);
    };
  }
  recording = true;
  try {
    return { result: await during(), stepped };
  } finally {
    recording = false;
    Object.assign(proto, saved);
  }
}
