import { sql } from 'kysely';
import { createDb, defaultPoolMax } from '.';
import { freshDb, testEngine } from '../test/support/helper';

test('the default pool: two connections per core, shared by the processes, never fewer than 4 nor more than 10 a process', () => {
  expect([1, 2, 3, 4, 5, 8, 64].map((cores) => defaultPoolMax(cores))).toEqual([4, 4, 6, 8, 10, 10, 10]);
  expect([1, 2, 4, 8].map((processes) => defaultPoolMax(16, processes))).toEqual([10, 10, 8, 4]);
  expect(defaultPoolMax(2, 2)).toBe(4);
});

// PostgreSQL only (SQLite has one writer connection and one reader, whatever the setting).
(testEngine() === 'postgres' ? test : test.skip)('PostgreSQL: queries beyond poolMax wait for a connection instead of opening one', async () => {
  const base = await freshDb(); // a schema of its own, migrated
  const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(base.db)).rows[0].s;
  const small = createDb({ databaseUrl: process.env.DATABASE_URL!, dataDir: base.dataDir, schema, poolMax: 2 });
  try {
    const started = Date.now();
    const pids = await Promise.all(
      Array.from({ length: 6 }, async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.1)`.execute(small.db)).rows[0].pid),
    );
    expect(new Set(pids).size).toBe(2);
    // Six 0.1 s sleeps on two connections: three rounds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  } finally {
    await small.destroy();
    await base.dispose();
  }
});
