import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DB } from './schema';
import { transactionStatements } from './group-commit';
import { isPostgres } from './portable';
import { rowMaker } from './statement-cache';

/**
 * Queries built and compiled by Kysely once, then run again with new parameters (issue 13: building and compiling
 * every query was about a fifth of the server's CPU on the wallet read). The builder is called once per engine with
 * stand-ins for the named arguments; every later call reuses the compiled SQL and swaps the stand-ins in the
 * parameter list for the call's values. The SQL text is the same each time, so SQLite's statement cache
 * (withStatementCache) applies, and on PostgreSQL it runs as a named statement, parsed and planned once per
 * connection (namePreparedStatements).
 *
 *   const playerById = prepared((db, a: { id: number }) => db.selectFrom('players').selectAll().where('id', '=', a.id));
 *   const row = await playerById.first(trx, { id: 7 });
 *
 * Rules for the builder: use an argument only where Kysely takes a value (a comparison's right side, insert or
 * update values, limit); the query's shape must not depend on an argument (no `if (a.x)` and no `in` list whose
 * length varies: the builder runs once). A `db` or transaction of either engine may run it. Kysely plugins see a
 * prepared query at its one compile only: a plugin that watches each query it runs (the /metrics journal-entry
 * counter in server/lib/metrics.ts) does not see it, so such queries stay built.
 */
export interface Prepared<A, O> {
  /** Every row. */
  all(db: Kysely<DB>, args: A): Promise<O[]>;
  /** The first row, or undefined. */
  first(db: Kysely<DB>, args: A): Promise<O | undefined>;
  /** The driver's result (numAffectedRows for updates and deletes). */
  run(db: Kysely<DB>, args: A): Promise<QueryResult<O>>;
  /** The compiled SQL for an engine (tests). */
  sqlFor(db: Kysely<DB>): string;
  /** The compiled SQL for `db`'s engine with these arguments as its parameters, not run (a movement's CTE: ledger/movement.ts). */
  bound(db: Kysely<DB>, args: A): { sql: string; parameters: unknown[] };
}

/**
 * A synchronous way to run a read outside any transaction, per Kysely instance: on SQLite with group commit, the
 * read-only connection (db/index.ts). It answers undefined for a statement that is not a plain read, which then takes
 * Kysely's way. Kysely's executor (connection lease, plugins' result hooks, several promise layers) cost about as
 * much as the read itself, five times per GET /api/wallet (issue 13); a prepared query needs none of it.
 */
type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;
const directReads = new WeakMap<Kysely<DB>, DirectRead>();

/** Lets prepared queries run on `db` outside a transaction read through `read` (db/index.ts). */
export function registerDirectReads(db: Kysely<DB>, read: DirectRead): void {
  directReads.set(db, read);
}

/** `derived` (e.g. `db.withPlugin(...)`) reads directly as `db` does. */
export function inheritDirectReads(db: Kysely<DB>, derived: Kysely<DB>): Kysely<DB> {
  const read = directReads.get(db);
  if (read) directReads.set(derived, read);
  return derived;
}

/**
 * The PostgreSQL SQL of every prepared query, with the statement name it runs under (`namePreparedStatements`).
 * node-postgres sends an unnamed statement for a plain query, which PostgreSQL parses and plans on every run;
 * a named one is parsed once per connection and its plan reused.
 */
const postgresNames = new Map<string, string>();

/** Most statements named by `nameOnPostgres` (each is parsed and kept once per connection). */
const MOST_NAMED = 500;

/**
 * Runs this SQL as a named statement on PostgreSQL from now on (namePreparedStatements): for statements built at run
 * time whose text is one of a few per code path, their values all parameters (a movement's one statement,
 * server/ledger/movement.ts). Parsed and planned once per connection instead of at every run. Past MOST_NAMED texts,
 * new ones run unnamed: a text that varied with its values would otherwise grow the map without end.
 */
export function nameOnPostgres(text: string): void {
  if (!postgresNames.has(text) && postgresNames.size < MOST_NAMED) postgresNames.set(text, `prepared_${postgresNames.size + 1}`);
}

/** The SQL of the prepared statement named `name` on PostgreSQL (tests that read the wire: pg-round-trips.ts). */
export function preparedSqlNamed(name: string): string | undefined {
  for (const [text, n] of postgresNames) if (n === name) return text;
  return undefined;
}

/**
 * Makes `client` run the SQL of prepared queries as named statements (db/index.ts calls it for each new pool
 * connection). Kysely calls `client.query(sql, parameters)`; any other call, or SQL no prepared query made, goes
 * through as it was. A named statement's rows come as arrays (`rowMode: 'array'`) and are made objects by a function
 * built once per statement for its fields (statement-cache.ts `rowMaker`): node-postgres copies a dictionary object
 * and sets each field by name, ~5 % of the app's CPU under the wallet-read load (issue 13).
 */
export function namePreparedStatements(client: { query: (...args: never[]) => unknown }): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? postgresNames.get(text) : undefined;
    if (!name) return query(...args);
    return (query({ name, text, values, rowMode: 'array' }) as Promise<ArrayResult>).then((result) => asObjects(name, result));
  }) as typeof client.query;
}

interface ArrayResult {
  fields: { name: string }[];
  rows: unknown[];
}

/** Per statement name: its fields' names as last seen, and the function making rows of them. */
const rowMakers = new Map<string, { names: string[]; make: (values: unknown[]) => Record<string, unknown> }>();

function asObjects<R extends ArrayResult>(statement: string, result: R): R {
  const { fields, rows } = result;
  if (!rows.length) return result;
  let maker = rowMakers.get(statement);
  if (!maker || maker.names.length !== fields.length || maker.names.some((n, i) => n !== fields[i].name)) {
    const names = fields.map((f) => f.name);
    maker = { names, make: rowMaker(names) };
    rowMakers.set(statement, maker);
  }
  for (let i = 0; i < rows.length; i++) rows[i] = maker.make(rows[i] as unknown[]);
  return result;
}

/**
 * Per transaction handle: how its prepared queries run without Kysely's executor (SQLite with group commit: the
 * lease's statements, group-commit.ts), or null where they take Kysely's way (PostgreSQL, SQLite without group
 * commit). Found on the transaction's first prepared query, through the one public way to its connection.
 */
type DirectStatement = (text: string, parameters: unknown[]) => QueryResult<unknown>;
const transactionDirect = new WeakMap<Kysely<DB>, DirectStatement | null>();

async function directOf(trx: Kysely<DB>): Promise<DirectStatement | null> {
  let direct = transactionDirect.get(trx);
  if (direct === undefined) {
    direct = (await trx.getExecutor().provideConnection(async (connection) => transactionStatements(connection))) ?? null;
    transactionDirect.set(trx, direct);
  }
  return direct;
}

function runDirect<O>(direct: DirectStatement, text: string, parameters: unknown[]): Promise<QueryResult<O>> {
  try {
    return Promise.resolve(direct(text, parameters) as QueryResult<O>);
  } catch (e) {
    return Promise.reject(e);
  }
}

class StandIn {
  constructor(readonly name: string) {}
}

const standIns = new Proxy({}, { get: (_, name) => new StandIn(String(name)) });

export function prepared<A extends Record<string, unknown>, O>(build: (db: Kysely<DB>, args: A) => Compilable<O>): Prepared<A, O> {
  const compiled: { sqlite?: CompiledQuery<O>; postgres?: CompiledQuery<O> } = {};
  const compiledFor = (db: Kysely<DB>): CompiledQuery<O> => {
    const engine = isPostgres(db) ? 'postgres' : 'sqlite';
    let c = compiled[engine];
    if (!c) {
      c = build(db, standIns as A).compile();
      for (const p of c.parameters) {
        if (p !== null && typeof p === 'object' && !(p instanceof StandIn)) throw new Error(`prepared query: parameter ${String(p)} is neither a value nor an argument`);
      }
      compiled[engine] = c;
      if (engine === 'postgres' && !postgresNames.has(c.sql)) postgresNames.set(c.sql, `prepared_${postgresNames.size + 1}`);
    }
    return c;
  };
  const bind = (c: CompiledQuery<O>, args: A): unknown[] =>
    c.parameters.map((p) => {
      if (!(p instanceof StandIn)) return p;
      const v = args[p.name];
      if (v === undefined) throw new Error(`prepared query: argument ${p.name} is missing`);
      return v;
    });
  const run = (db: Kysely<DB>, args: A): Promise<QueryResult<O>> => {
    const c = compiledFor(db);
    const parameters = bind(c, args);
    if (db.isTransaction) {
      const inTransaction = transactionDirect.get(db);
      if (inTransaction) return runDirect<O>(inTransaction, c.sql, parameters);
      if (inTransaction === null) return db.executeQuery<O>({ ...c, parameters });
      return directOf(db).then((found) => (found ? runDirect<O>(found, c.sql, parameters) : db.executeQuery<O>({ ...c, parameters })));
    }
    const direct = directReads.get(db);
    if (direct) {
      try {
        const rows = direct(c.sql, parameters) as O[] | undefined;
        if (rows) return Promise.resolve({ rows });
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return db.executeQuery<O>({ ...c, parameters });
  };
  return {
    run,
    all: async (db, args) => (await run(db, args)).rows,
    first: async (db, args) => (await run(db, args)).rows[0],
    sqlFor: (db) => compiledFor(db).sql,
    bound: (db, args) => {
      const c = compiledFor(db);
      return { sql: c.sql, parameters: bind(c, args) };
    },
  };
}
