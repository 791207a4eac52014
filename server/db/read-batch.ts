/**
 * Reads of one kind asked in the same turn of the event loop, run together as one statement (issue 13, the read path).
 * On PostgreSQL every statement is a round trip: a socket write that wakes an idle server process, which was ~45 % of
 * the app's CPU under the wallet-read load on this two-core machine kind, and the server's own per-statement work
 * besides. On SQLite every statement is a read transaction (its lock calls) and a statement step on the main thread:
 * one for a batch of wallet reads doubled the bench's read rate. Requests that arrive together (one poll of the sockets) ask together: the first ask of a
 * turn schedules the flush with setImmediate, which runs after the poll phase has handed every ready request its
 * turn, so a batch holds what came in that poll and waits for nothing else.
 *
 * Each ask still reads at the time it is asked or later: the statement starts after the ask, never before, so no
 * answer is older than its request (nothing is cached). A statement that fails fails every ask in its batch.
 *
 *   const rowOf = readBatch<Ask, Row | undefined>((asks) => runForAll(asks)); // answers in the asks' order
 *   const row = await rowOf(ask);
 */
export type ReadBatch<A, R> = (ask: A) => Promise<R>;

/** Most asks one statement carries; a turn with more starts another batch. */
export const READ_BATCH_MAX = 64;

export function readBatch<A, R>(runAll: (asks: A[]) => Promise<R[]>, max = READ_BATCH_MAX): ReadBatch<A, R> {
  type Waiting = { ask: A; resolve: (r: R) => void; reject: (e: unknown) => void };
  let waiting: Waiting[] = [];

  const flush = (batch: Waiting[]) => {
    let answers: Promise<R[]>;
    try {
      answers = runAll(batch.map((w) => w.ask));
    } catch (e) {
      answers = Promise.reject(e);
    }
    answers.then(
      (rs) => {
        if (rs.length !== batch.length) throw new Error(`read batch: ${rs.length} answers for ${batch.length} asks`);
        batch.forEach((w, i) => w.resolve(rs[i]));
      },
    ).catch((e: unknown) => batch.forEach((w) => w.reject(e)));
  };

  return (ask) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ ask, resolve, reject });
      if (waiting.length === 1) {
        setImmediate(() => {
          const batch = waiting;
          waiting = [];
          if (batch.length) flush(batch);
        });
      } else if (waiting.length >= max) {
        const batch = waiting;
        waiting = [];
        flush(batch);
      }
    });
}

/**
 * `readBatch` per database handle (each has its own pool or connection), made on first use: `runAll` gets the handle
 * with the asks. For reads answered as one statement over the asks (PostgreSQL: `unnest` of the asked values `with
 * ordinality`; SQLite: `json_each` over them as one JSON text), rows back with the ask's number: `byAsk`.
 */
export function readBatchPerDatabase<D extends object, A, R>(runAll: (db: D, asks: A[]) => Promise<R[]>): (db: D, ask: A) => Promise<R> {
  const batches = new WeakMap<D, ReadBatch<A, R>>();
  return (db, ask) => {
    let batch = batches.get(db);
    if (!batch) {
      batch = readBatch((asks: A[]) => runAll(db, asks));
      batches.set(db, batch);
    }
    return batch(ask);
  };
}

/** Rows carrying the 1-based number `n` of the ask they answer, placed by it: undefined where an ask found none. */
export function byAsk<T extends { n: number | string }>(rows: T[], asks: number): (T | undefined)[] {
  const placed: (T | undefined)[] = new Array(asks).fill(undefined);
  for (const r of rows) placed[Number(r.n) - 1] = r;
  return placed;
}
