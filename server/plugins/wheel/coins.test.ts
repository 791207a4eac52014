import { DEPOSIT_RULES_KEY } from '../deposits/domain/rules';
import { writeSettingDoc } from '../../settings';
import { buildInviteWheelTestApp, satang, type InviteWheelTestApp } from '../../test/support/wheel';

/**
 * Issue 39 row 11: wheel coins come from play, not from deposit -> withdraw churn. A deposit's coins are granted
 * once rounds played after it bet coinTurnover [1] x its amount (docs/invite-wheel.md "Coins"), through the
 * deposit routes and the simulator's bet feed, on a real database (SQLite, and PostgreSQL with server:pg).
 */
jest.setTimeout(60_000);

let t: InviteWheelTestApp;
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.audit()).toEqual([]);
  await writeSettingDoc(t.db.db, DEPOSIT_RULES_KEY, {});
});

test('a deposit -> withdraw churn with no play earns no coin', async () => {
  const p = await t.player();
  for (let i = 0; i < 3; i++) {
    await t.deposit(p, 100);
    expect(await t.withdraw(p, 100)).toBe(200);
  }
  await t.app.bonus.pollNow();
  expect(await t.coins(p)).toBe(0);
  expect((await t.get(p, '/api/spinwheel/setup')).json().result.userCoin).toBe(0);
});

test('the coins come once rounds after the deposit bet its amount; play before it, or beyond it, pays no later deposit', async () => {
  const p = await t.player({ balance: satang(1000) }); // money to play with that is no deposit of the routes
  await t.wager(p, 300); // before any deposit: wagers nothing
  await t.deposit(p, 300, 'gift');
  expect(await t.coins(p)).toBe(0);
  await t.wager(p, 250);
  expect(await t.coins(p)).toBe(0);
  await t.wager(p, 50);
  expect(await t.coins(p)).toBe(1);
  await t.deposit(p, 600, 'gift');
  await t.deposit(p, 100, 'qr');
  await t.wager(p, 400);
  expect(await t.coins(p)).toBe(1);
  await t.wager(p, 200); // the 600 deposit is met (oldest first); the 100 one after it waits
  expect(await t.coins(p)).toBe(2);
  await t.wager(p, 100);
  expect(await t.coins(p)).toBe(3);
});

test('coinTurnover 0 grants the coins with the deposit; a deposit under coinThreshold earns none either way', async () => {
  await writeSettingDoc(t.db.db, DEPOSIT_RULES_KEY, { coinTurnover: 0 });
  const p = await t.player();
  await t.deposit(p, 100);
  expect(await t.coins(p)).toBe(1);
  await t.deposit(p, 99);
  expect(await t.coins(p)).toBe(1);
  await writeSettingDoc(t.db.db, DEPOSIT_RULES_KEY, { coinTurnover: 2 });
  await t.deposit(p, 100);
  await t.wager(p, 100);
  expect(await t.coins(p)).toBe(1);
  await t.wager(p, 100);
  expect(await t.coins(p)).toBe(2);
});
