import { testEngine } from '../../test/support/helper';
import { buildInviteWheelTestApp, satang, tally, type InviteWheelTestApp, type TestPlayer } from '../../test/support/wheel';

/**
 * Spins and claims sent 50 at once (docs/invite-wheel.md "Races"): one coin gives one prize, one coupon pays
 * once, on SQLite and PostgreSQL. Each is one transaction that locks the player's row first (PostgreSQL; SQLite
 * has one writer), with a conditional update underneath (coin > 0, status CLAIMABLE) and the ledger's unique
 * reference luckydraw:{couponId}. The audit holds after each.
 */
jest.setTimeout(120_000);

let t: InviteWheelTestApp;
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
  await t.wheel([
    { code: 'CASH', weight: 1, type: 'cash', amount: 25 },
    { code: 'COIN', weight: 1, type: 'coin', amount: 3 },
  ]);
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.audit()).toEqual([]);
});

const N = 50;
const landOn = (code: 'CASH' | 'COIN') => t.setRandom(() => (code === 'CASH' ? 0 : 1));

async function coupon(p: TestPlayer, code: 'CASH' | 'COIN'): Promise<string> {
  await t.db.db.updateTable('players').set((eb) => ({ coin: eb('coin', '+', 1) })).where('id', '=', p.id).execute();
  landOn(code);
  return (await t.spin(p)).json().result.couponId as string;
}

test(`${N} spins at once by a player holding one coin: exactly one prize, ${N - 1} NO_COIN`, async () => {
  landOn('CASH');
  const p = await t.player({ coins: 1 });
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: N }, () => t.spin(p)));
  expect(tally(answers)).toEqual({ '200': 1, '422 NO_COIN': N - 1 });
  expect(answers.find((a) => a.statusCode === 200)!.json().result).toMatchObject({ code: 'CASH', remainingCoin: 0 });
  expect(await t.coins(p)).toBe(0);
  expect(await t.db.db.selectFrom('wheel_coupons').select('id').where('player_id', '=', p.id).execute()).toHaveLength(1);
  expect(await t.db.db.selectFrom('wheel_spins').select('id').where('player_id', '=', p.id).execute()).toHaveLength(1);
  console.log(`[${testEngine()}] ${N} concurrent spins: ${Date.now() - started} ms`);
});

test(`${N} spins at once with 7 coins: 7 prizes, the rest NO_COIN, the coins never below 0`, async () => {
  landOn('COIN');
  const p = await t.player({ coins: 7 });
  const answers = await Promise.all(Array.from({ length: N }, () => t.spin(p)));
  expect(tally(answers)).toEqual({ '200': 7, '422 NO_COIN': N - 7 });
  expect(answers.filter((a) => a.statusCode === 200).map((a) => a.json().result.remainingCoin).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(await t.coins(p)).toBe(0);
});

test(`${N} claims of one cash coupon at once: credited once, ${N - 1} NO_CLAIMABLE_COUPON`, async () => {
  const p = await t.player();
  const id = await coupon(p, 'CASH');
  const answers = await Promise.all(Array.from({ length: N }, () => t.claim(p, id)));
  expect(tally(answers)).toEqual({ '200': 1, '404 NO_CLAIMABLE_COUPON': N - 1 });
  expect(await t.balance(p)).toBe(satang(25));
  const budget = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'spin_budget:THB').executeTakeFirstOrThrow();
  const claimed = await t.db.db.selectFrom('wheel_coupons').select((eb) => eb.fn.sum<number>('amount').as('s')).where('status', '=', 'CLAIMED').where('prize_type', '=', 'cash').executeTakeFirstOrThrow();
  expect(-Number(budget.balance)).toBe(Number(claimed.s));
});

test(`${N} claims of one coin coupon at once: the coins added once`, async () => {
  const p = await t.player();
  const id = await coupon(p, 'COIN');
  const answers = await Promise.all(Array.from({ length: N }, () => t.claim(p, id)));
  expect(tally(answers)).toEqual({ '200': 1, '404 NO_CLAIMABLE_COUPON': N - 1 });
  expect(await t.coins(p)).toBe(3);
});

test('spins and claims of one player interleaved: every coin and coupon is used once', async () => {
  landOn('COIN');
  const p = await t.player({ coins: 5 });
  // Coins won are claimed while spins run: 5 coins + 3 per claimed coupon, each spent once.
  const first = await Promise.all(Array.from({ length: 10 }, () => t.spin(p)));
  const ids = first.filter((a) => a.statusCode === 200).map((a) => a.json().result.couponId as string);
  expect(ids).toHaveLength(5);
  const mixed = await Promise.all([...ids.flatMap((id) => [t.claim(p, id), t.claim(p, id)]), ...Array.from({ length: 20 }, () => t.spin(p))]);
  const claims = mixed.slice(0, ids.length * 2);
  expect(tally(claims)).toEqual({ '200': 5, '404 NO_CLAIMABLE_COUPON': 5 });
  const spins = mixed.slice(ids.length * 2).filter((a) => a.statusCode === 200).length;
  const made = await t.db.db.selectFrom('wheel_spins').select('id').where('player_id', '=', p.id).execute();
  expect(made).toHaveLength(5 + spins);
  expect(await t.coins(p)).toBe(5 * 3 - spins);
});
