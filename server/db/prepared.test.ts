import { CompiledQuery, sql } from 'kysely';
import { freshDb, testEngine, type TestDb } from '../test/support/helper';
import { seedBase } from './seed';
import { nowIso } from '.';
import { inheritDirectReads, prepared } from './prepared';
import { isPostgres } from './portable';
import { insertPlayer } from '../test/support/ledger';

/** Prepared queries (server/db/prepared.ts) on the engine under test: compiled once, run with each call's values. */
let db: TestDb;
beforeAll(async () => {
  db = await freshDb();
  await seedBase(db.db);
});
afterAll(() => db.dispose());

const playerById = prepared((k, a: { id: number }) => k.selectFrom('players').select(['id', 'name', 'currency']).where('id', '=', a.id));
const gamesIn = prepared((k, a: { one: string; two: string }) => k.selectFrom('games').select('code').where('code', 'in', [a.one, a.two]).orderBy('code'));
const rename = prepared((k, a: { id: number; name: string; at: string }) => k.updateTable('players').set({ name: a.name, updated_at: a.at }).where('id', '=', a.id));

test('each call runs with its own arguments; the builder runs once per engine', async () => {
  const a = await insertPlayer(db.db);
  const b = await insertPlayer(db.db);
  expect((await playerById.first(db.db, { id: a }))?.id).toBe(a);
  expect(Number((await playerById.first(db.db, { id: b }))?.id)).toBe(b);
  expect(await playerById.first(db.db, { id: 999_999 })).toBeUndefined();

  let builds = 0;
  const counted = prepared((k, x: { id: number }) => (builds++, k.selectFrom('players').select('id').where('id', '=', x.id)));
  for (const id of [a, b, a]) expect(Number((await counted.first(db.db, { id }))?.id)).toBe(id);
  expect(builds).toBe(1);
});

test('constants in the query stay; arguments in lists and updates are swapped in; a transaction runs it too', async () => {
  const codes = (await db.db.selectFrom('games').select('code').orderBy('code').limit(2).execute()).map((g) => g.code);
  expect((await gamesIn.all(db.db, { one: codes[0], two: codes[1] })).map((g) => g.code)).toEqual(codes);
  expect(await gamesIn.all(db.db, { one: 'nope', two: 'none' })).toEqual([]);

  const id = await insertPlayer(db.db);
  await db.db.transaction().execute(async (trx) => {
    const res = await rename.run(trx, { id, name: 'Renamed', at: nowIso() });
    expect(Number(res.numAffectedRows)).toBe(1);
    expect((await playerById.first(trx, { id }))?.name).toBe('Renamed');
  });
  const withConstant = prepared((k, x: { id: number }) => k.selectFrom('players').select('id').where('id', '=', x.id).where('currency', '=', 'LAK'));
  expect(await withConstant.first(db.db, { id })).toBeUndefined();
});

(testEngine() === 'postgres' ? test : test.skip)('on PostgreSQL a prepared query runs as a named statement, parsed once per connection', async () => {
  await db.db.transaction().execute(async (trx) => {
    const text = playerById.sqlFor(trx);
    const namedHere = async () =>
      (await sql<{ name: string }>`select name from pg_prepared_statements where statement = ${text}`.execute(trx)).rows.map((r) => r.name);
    const before = await namedHere();
    await playerById.first(trx, { id: 1 });
    await playerById.first(trx, { id: 2 });
    const after = await namedHere();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/^prepared_\d+$/);
    expect(before.length).toBeLessThanOrEqual(1);
    // Plain queries stay unnamed.
    const plain = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like 'select count(*)::int as n%'`.execute(trx);
    expect(plain.rows[0].n).toBe(0);
  });
});

test('rows are what the plain query gives: keys in column order, the last of two equal names, nulls, JSON', async () => {
  const id = await insertPlayer(db.db);
  const withEverything = prepared((k, a: { id: number }) =>
    k
      .selectFrom('players')
      .leftJoin('banks', 'banks.code', 'players.bank_code')
      .select(['players.name as same', 'players.currency', 'players.inviter_id', 'banks.name_en as same'])
      .select((eb) => (isPostgres(k) ? sql<unknown>`json_build_object('a', ${eb.ref('players.id')})` : sql<unknown>`json_object('a', ${eb.ref('players.id')})`).as('j'))
      .where('players.id', '=', a.id),
  );
  const text = withEverything.sqlFor(db.db);
  const plain = (await db.db.executeQuery(CompiledQuery.raw(text, [id]))).rows;
  for (const handle of [db.db, null]) {
    const rows = handle ? await withEverything.all(handle, { id }) : await db.db.transaction().execute((trx) => withEverything.all(trx, { id }));
    expect(rows).toEqual(plain);
    expect(rows.map((r) => Object.keys(r))).toEqual(plain.map((r) => Object.keys(r as object)));
  }
  expect(plain).toHaveLength(1);
});

test('a missing argument is refused before anything runs', async () => {
  await expect(playerById.first(db.db, {} as { id: number })).rejects.toThrow('argument id is missing');
});

describe("SQLite with group commit: prepared queries without Kysely's executor (reads outside a transaction on the read-only connection)", () => {
  const onSqlite = !process.env.DATABASE_URL;
  /** A derived instance whose Kysely result hook counts the queries that went through Kysely's executor. */
  const counting = () => {
    let throughKysely = 0;
    const k = inheritDirectReads(
      db.db,
      db.db.withPlugin({
        transformQuery: (a) => a.node,
        transformResult: async (a) => (throughKysely++, a.result),
      }),
    );
    return { k, count: () => throughKysely };
  };

  (onSqlite ? test : test.skip)("skip Kysely's executor, and see committed rows only", async () => {
    const { k, count } = counting();
    const id = await insertPlayer(db.db);
    expect((await playerById.first(k, { id }))?.id).toBe(id);
    expect(count()).toBe(0);

    // Inside a transaction the query runs on the transaction's connection (also without Kysely's executor) and sees
    // its own rows; a read outside it, at the same moment, does not see them before they are committed.
    await k.transaction().execute(async (trx) => {
      const renamed = await rename.run(trx, { id, name: 'Not yet committed', at: nowIso() });
      expect(Number(renamed.numAffectedRows)).toBe(1);
      expect((await playerById.first(trx, { id }))?.name).toBe('Not yet committed');
      expect((await playerById.first(k, { id }))?.name).not.toBe('Not yet committed');
    });
    expect(count()).toBe(0);
    expect((await playerById.first(k, { id }))?.name).toBe('Not yet committed');
    expect(count()).toBe(0);
  });

  (onSqlite ? test : test.skip)("in a transaction without Kysely's executor: a rollback undoes it, and the handle dies with its transaction", async () => {
    const { k, count } = counting();
    const id = await insertPlayer(db.db);
    let kept: typeof k | undefined;
    await expect(
      k.transaction().execute(async (trx) => {
        kept = trx;
        await rename.run(trx, { id, name: 'Rolled back', at: nowIso() });
        expect((await playerById.first(trx, { id }))?.name).toBe('Rolled back');
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await playerById.first(k, { id }))?.name).not.toBe('Rolled back');
    await expect(rename.run(kept!, { id, name: 'Too late', at: nowIso() })).rejects.toThrow(/after its transaction|outside its transaction/);
    await k.transaction().execute(async (trx) => {
      kept = trx;
      await rename.run(trx, { id, name: 'Committed', at: nowIso() });
    });
    await expect(rename.run(kept!, { id, name: 'Too late', at: nowIso() })).rejects.toThrow(/after its transaction|outside its transaction/);
    expect((await playerById.first(k, { id }))?.name).toBe('Committed');
    expect(count()).toBe(0);
  });

  test('a write outside a transaction still takes the driver: it commits and reports its rows', async () => {
    const { k, count } = counting();
    const id = await insertPlayer(db.db);
    const res = await rename.run(k, { id, name: 'Written', at: nowIso() });
    expect(Number(res.numAffectedRows)).toBe(1);
    expect(count()).toBe(1);
    expect((await playerById.first(db.db, { id }))?.name).toBe('Written');
  });
});
