import type SQLite from 'better-sqlite3';

/** Prepared statements kept per SQL text; more distinct texts than this and the least recently used is dropped. */
export const STATEMENT_CACHE_SIZE = 500;

/** What the cache hands out: the parts of a better-sqlite3 statement that Kysely, the group-commit driver and prepared queries use. */
export type CachedStatement = Pick<SQLite.Statement, 'reader' | 'readonly' | 'source' | 'run' | 'get' | 'all' | 'iterate' | 'columns'>;

/**
 * Kysely's SQLite driver prepares every query anew (better-sqlite3 has no statement cache): under load that was
 * about a tenth of the server's CPU (issue 13's profile of GET /api/wallet). A prepared statement can run again
 * with other parameters, and SQLite prepares it again by itself when the schema changes (a migration), so the
 * database hands Kysely its statements from an LRU keyed by the SQL text. Nothing streams (`.stream()` would hold
 * a statement busy while another query reused it); the cache is per connection, and there is one.
 *
 * A statement that returns rows hands them over as objects made in JavaScript (`RowsAsObjects`).
 */
export function withStatementCache(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): Pick<SQLite.Database, 'prepare' | 'close'> {
  const cache = new Map<string, CachedStatement>();
  return {
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) {
        cache.delete(text);
      } else {
        const prepared = database.prepare(text);
        stmt = prepared.reader ? new RowsAsObjects(prepared) : prepared;
        if (cache.size >= size) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, stmt);
      return stmt;
    },
    close() {
      cache.clear();
      return database.close();
    },
  } as Pick<SQLite.Database, 'prepare' | 'close'>;
}

type Row = Record<string, unknown>;

/**
 * A statement that returns rows, run in better-sqlite3's raw mode (each row an array) and its rows made objects by a
 * function built once for its column names (issue 13, the read path). better-sqlite3 builds each row object in C++,
 * one property set at a time through V8's API: the wallet view's batched read (19 columns) spent 8.8 us a row so,
 * 5.6 as arrays made objects here (a loop over 30 rows of the bench's database). An object literal with fixed keys
 * gets one hidden class, which the code reading the rows also likes better.
 *
 * The rows are the same: keys in column order, the last of two equal names wins (as better-sqlite3 sets them).
 * SQLite prepares a statement again after a schema change, so its columns may change under the same text
 * (`SELECT *` after an added column): a row of another width builds the function again from the columns then.
 */
class RowsAsObjects implements CachedStatement {
  readonly #stmt: SQLite.Statement;
  #width = -1;
  #make: (values: unknown[]) => Row = () => ({});

  constructor(stmt: SQLite.Statement) {
    this.#stmt = stmt.raw(true);
  }

  get reader() {
    return this.#stmt.reader;
  }
  get readonly() {
    return this.#stmt.readonly;
  }
  get source() {
    return this.#stmt.source;
  }

  #object(values: unknown[]): Row {
    if (values.length !== this.#width) this.#build();
    return this.#make(values);
  }

  #build() {
    const names = this.#stmt.columns().map((c) => c.name);
    this.#width = names.length;
    this.#make = rowMaker(names);
  }

  run(...params: unknown[]) {
    return this.#stmt.run(...params);
  }

  get(...params: unknown[]) {
    const values = this.#stmt.get(...params) as unknown[] | undefined;
    return values === undefined ? undefined : this.#object(values);
  }

  all(...params: unknown[]) {
    const rows = this.#stmt.all(...params) as unknown[];
    for (let i = 0; i < rows.length; i++) rows[i] = this.#object(rows[i] as unknown[]);
    return rows;
  }

  *iterate(...params: unknown[]): IterableIterator<Row> {
    for (const values of this.#stmt.iterate(...params)) yield this.#object(values as unknown[]);
  }

  columns() {
    return this.#stmt.columns();
  }
}

/**
 * A function that makes a row object of a row's values in column order, for these column names: one object literal,
 * so every row gets the same hidden class. Keys as the drivers set them: in column order, the last of two equal names
 * wins. A literal `__proto__: v` would set the prototype; such a row is built key by key.
 */
export function rowMaker(names: readonly string[]): (values: unknown[]) => Row {
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Row = {};
      names.forEach((n, i) => Object.defineProperty(row, n, { value: values[i], enumerable: true, writable: true, configurable: true }));
      return row;
    };
  }
  return new Function('v', `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')} };`) as (values: unknown[]) => Row;
}
