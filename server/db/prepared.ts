import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DB } from './schema';
import { isPostgres } from './portable';

/**
 * Queries built and compiled by Kysely once, then run again with new parameters (issue 13: building and compiling
 * every query was about a fifth of the server's CPU on the wallet read). The builder is called once per engine with
 * stand-ins for the named arguments; every later call reuses the compiled SQL and swaps the stand-ins in the
 * parameter list for the call's values. The SQL text is the same each time, so SQLite's statement cache
 * (withStatementCache) and PostgreSQL's plan reuse both apply.
 *
 *   const playerById = prepared((db, a: { id: number }) => db.selectFrom('players').selectAll().where('id', '=', a.id));
 *   const row = await playerById.first(trx, { id: 7 });
 *
 * Rules for the builder: use an argument only where Kysely takes a value (a comparison's right side, insert or
 * update values, limit); the query's shape must not depend on an argument (no `if (a.x)` and no `in` list whose
 * length varies: the builder runs once). A `db` or transaction of either engine may run it. Kysely plugins see a
 * prepared query at its one compile only: a plugin that watches each query it runs (the /metrics journal-entry
 * counter in ops/metrics.ts) does not see it, so such queries stay built.
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
    }
    return c;
  };
  const run = (db: Kysely<DB>, args: A): Promise<QueryResult<O>> => {
    const c = compiledFor(db);
    const parameters = c.parameters.map((p) => {
      if (!(p instanceof StandIn)) return p;
      const v = args[p.name];
      if (v === undefined) throw new Error(`prepared query: argument ${p.name} is missing`);
      return v;
    });
    return db.executeQuery<O>({ ...c, parameters });
  };
  return {
    run,
    all: async (db, args) => (await run(db, args)).rows,
    first: async (db, args) => (await run(db, args)).rows[0],
    sqlFor: (db) => compiledFor(db).sql,
  };
}
