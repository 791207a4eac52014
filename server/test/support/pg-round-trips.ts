import pg from 'pg';
import { preparedSqlNamed } from '../../db/prepared';
import { inMarkedCall, whileMarking } from './sqlite-statements';

/** A query node-postgres sent for a request: its SQL text (a named prepared statement's text too). */
export interface SentQuery {
  text: string;
}

type QueryFn = (...a: unknown[]) => unknown;


/**
 * The round trips node-postgres makes for a request of an app marked with `markRequests` while `during` runs, in
 * order, with their SQL. On the wire a simple query is one Query message and an extended one (parameters, named
 * statements) ends with one Sync; each is answered by ReadyForQuery before node-postgres sends the next on that
 * connection (it does not pipeline), so each is one round trip. BEGIN and COMMIT are round trips of their own.
 * Counted on the connection's prototype, below node-postgres's client (db/index.ts wraps each client's query for
 * named statements). Background work (the journal feed, the pollers, the reconciler) is not counted, nor is the game
 * provider's simulator: on PostgreSQL it keeps its sim_ tables in the wallet's database, through the wallet's pool,
 * but stands for an outside service, so its statements (and the transactions holding them) are left out.
 * Issue 43 holds the money paths to a budget of round trips with it.
 */
export async function roundTripsDuring<T>(during: () => Promise<T>): Promise<{ result: T; trips: SentQuery[] }> {
  const proto = (pg as unknown as { Connection: { prototype: Record<'query' | 'parse' | 'bind' | 'sync', QueryFn> } }).Connection.prototype;
  const saved = { query: proto.query, parse: proto.parse, bind: proto.bind, sync: proto.sync };
  const trips: SentQuery[] = [];
  /** Per connection: the statement being sent, and the round trips of the transaction it is in (null outside one). */
  const state = new WeakMap<object, { text: string; open: SentQuery[] | null }>();
  const of = (c: object) => {
    let s = state.get(c);
    if (!s) state.set(c, (s = { text: '', open: null }));
    return s;
  };
  const sent = (c: object, text: string) => {
    if (!inMarkedCall()) return;
    const s = of(c);
    const trip = { text };
    if (/^\s*begin\b/i.test(text)) s.open = [trip];
    else if (s.open) {
      s.open.push(trip);
      if (/^\s*(commit|rollback)\b/i.test(text)) {
        if (!s.open.some((q) => /"sim_/.test(q.text))) trips.push(...s.open);
        s.open = null;
      }
    } else if (!/"sim_/.test(text)) trips.push(trip);
  };
  proto.query = function (this: object, ...a: unknown[]) {
    sent(this, String(a[0]));
    return saved.query.apply(this, a);
  };
  proto.parse = function (this: object, ...a: unknown[]) {
    of(this).text = String((a[0] as { text?: string })?.text ?? '');
    return saved.parse.apply(this, a);
  };
  proto.bind = function (this: object, ...a: unknown[]) {
    const name = (a[0] as { statement?: string })?.statement;
    if (name) of(this).text = preparedSqlNamed(name) ?? of(this).text;
    return saved.bind.apply(this, a);
  };
  proto.sync = function (this: object, ...a: unknown[]) {
    sent(this, of(this).text);
    of(this).text = '';
    return saved.sync.apply(this, a);
  };
  try {
    return { result: await whileMarking(during), trips };
  } finally {
    Object.assign(proto, saved);
  }
}

/**
 * Fails when `trips` are more than `budget`, naming each round trip's SQL (the first 160 characters): what a change
 * that adds one must explain.
 */
export function expectWithinBudget(trips: SentQuery[], budget: number, what: string): void {
  if (trips.length <= budget) return;
  const list = trips.map((q, i) => `  ${i + 1}. ${q.text.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n');
  throw new Error(`${what}: ${trips.length} round trips to PostgreSQL, budget ${budget}:\n${list}`);
}
