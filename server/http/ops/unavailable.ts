/**
 * Is this error the database being out of reach, rather than a fault of the request or of the code (docs/operations.md
 * "Without Redis, and other faults")? Those are answered 503 SERVICE_UNAVAILABLE ("try again in a moment", translated)
 * instead of 500 INTERNAL_SERVER_ERROR, so the player and a load balancer see a passing outage: PostgreSQL restarting,
 * stopped or unreachable, the pool's wait for a connection run out (server/db/index.ts), SQLite's writer busy past its
 * busy timeout. The error's `cause` chain is followed (a wrapper's cause is the driver's error).
 */

/** Node's socket errors: refused, reset, timed out, no route, no name. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * PostgreSQL's SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception),
 * 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now: starting up or shutting down), 53300 (too many
 * connections).
 */
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

/** node-postgres's own messages when the connection is gone or never came (it sets no code on them). */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code) || code === 'SQLITE_BUSY')) return true;
    if (typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m))) return true;
  }
  return false;
}
