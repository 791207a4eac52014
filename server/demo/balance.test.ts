import { freshDb, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { DEMO_OPENING_BALANCE, seedDemo } from './index';
import { runAudit, walletBalance } from '../ledger/index';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
  await seedBase(t.db);
});
afterAll(() => t.dispose());

test('the demo player starts with an opening balance from the demo float, credited once', async () => {
  const p = await seedDemo(t.db);
  await seedDemo(t.db);
  expect(await walletBalance(t.db, p.id)).toBe(DEMO_OPENING_BALANCE);
  const float = await t.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'demo_float:THB').executeTakeFirstOrThrow();
  expect(Number(float.balance)).toBe(-DEMO_OPENING_BALANCE);
  expect((await runAudit(t.db)).violations).toEqual([]);
});
