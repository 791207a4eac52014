import os from 'node:os';

/**
 * How many connections a process's PostgreSQL pool opens at most, unless told (DB_POOL_MAX, config.ts): two per core,
 * shared among the `processes` serving on this machine (WORKERS), at least 4 and at most 10 a process. Each connection is a server process; on this two-core
 * machine kind, 10 of them for 50 concurrent transfers kept more processes runnable than there are cores, each socket
 * write woke one, and the transfers queued behind each other's wake-ups: with 2-6 connections the bench's PostgreSQL
 * transfer p99 fell from 809-950 ms (10) to 411-592 ms, throughput the same or slightly better; 20 was worse on both
 * (docs/server.md "Connections"). Wallet reads did not move.
 */
export function defaultPoolMax(cores: number = os.availableParallelism(), processes = 1): number {
  return Math.min(10, Math.max(4, Math.ceil((2 * cores) / processes)));
}
