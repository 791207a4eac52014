import { sql } from 'kysely';
import { isPostgres } from '../../db/portable';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { callContextSql } from './repository';

/**
 * The context read's plan on PostgreSQL (docs/seamless-wallet.md "Plans on a new table"): a named statement planned
 * while seamless_transactions is new and has no statistics must still look the transaction_uuid up through the
 * unique index, not read every row of the aggregator through the reference index.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

test('planned generic on an empty, never-analyzed table, the uuid lookups take the unique index', async () => {
  // The plan is PostgreSQL's: SQLite plans each statement on the unique index (its own suites run the same read).
  if (!isPostgres(t.app.db)) return;
  const text = callContextSql(t.app.db);
  const n = Math.max(...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  const plan = await t.app.db.connection().execute(async (c) => {
    await sql`set plan_cache_mode = force_generic_plan`.execute(c);
    await sql.raw(`prepare seamless_context_plan as ${text}`).execute(c);
    try {
      const r = await sql.raw<{ 'QUERY PLAN': string }>(`explain execute seamless_context_plan(${Array(n).fill('null').join(', ')})`).execute(c);
      return r.rows.map((x) => x['QUERY PLAN']);
    } finally {
      await sql`deallocate seamless_context_plan`.execute(c);
      await sql`reset plan_cache_mode`.execute(c);
    }
  });
  const scans = plan.filter((l) => / on seamless_transactions\b/.test(l)).map((l) => l.trim().replace(/\s+\(cost.*$/, ''));
  // The transaction and its reference by uuid (the unique index), the rollback that came first by reference.
  expect(scans.filter((l) => l.includes('using seamless_transactions_uuid'))).toHaveLength(2);
  expect(scans.filter((l) => l.includes('using seamless_transactions_reference'))).toHaveLength(1);
  expect(scans).toHaveLength(3);
});
