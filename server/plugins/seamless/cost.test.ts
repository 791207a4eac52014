import { buildApp } from '../../app';
import { seedBase } from '../../db/seed';
import { isPostgres } from '../../db/portable';
import { freshDb, openSlipsAllDay, testConfig, type TestDb } from '../../test/support/helper';
import { markRequests, steppedDuring } from '../../test/support/sqlite-statements';
import { betBody, seamlessPlayer, signedCall, winBody } from '../../test/support/seamless';
import type { FastifyInstance } from 'fastify';

/**
 * The cost of a Wallet API call (docs/seamless-wallet.md "Cost of a call"): the statements a bet and a win run. The
 * hottest money path of the app (issue 42's bench), so a statement more is a regression to explain.
 */

let db: TestDb;
let app: FastifyInstance;
beforeAll(async () => {
  db = await freshDb();
  await seedBase(db.db);
  await openSlipsAllDay(db.db);
  app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
  markRequests(app);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.dispose();
});

const work = (sources: string[]) =>
  sources
    // The live-balance poller reads the journal on its own timer: not the call's work.
    .filter((s) => !s.startsWith('select "j"."id"'))
    .filter((s) => !/^(begin|savepoint|release|commit|rollback)\b/i.test(s));

test('a bet and a win are 8 statements each (SQLite; PostgreSQL adds the player lock to each)', async () => {
  // The statement hooks are better-sqlite3's; on PostgreSQL the same statements run, plus lockPlayer's SELECT ... FOR NO KEY UPDATE.
  if (isPostgres(db.db)) return;
  const p = await seamlessPlayer(app, { balance: 10_000 });
  await signedCall(app, '/transaction/bet', betBody(p, 100)); // the wallet and house accounts exist from here on
  const bet = betBody(p, 1_000);
  const b = await steppedDuring(() => signedCall(app, '/transaction/bet', bet));
  expect(b.result.body.status).toBe('RS_OK');
  const betWork = work(b.stepped.filter((s) => s.fromCall).map((s) => s.source));
  // The context read; the entry's accounts, insert, balances, postings; the round; the statement line; the transaction row.
  expect(betWork).toHaveLength(8);
  const w = await steppedDuring(() => signedCall(app, '/transaction/win', winBody(p, bet, 500)));
  expect(w.result.body.status).toBe('RS_OK');
  expect(work(w.stepped.filter((s) => s.fromCall).map((s) => s.source))).toHaveLength(8);
});
