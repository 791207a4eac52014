import fc from 'fast-check';
import { runAudit, walletBalance } from '../../ledger';
import { parseBaht } from '../../ledger/money';
import { writeInviteSettings } from '../invite/settings';
import { writeSettingDoc } from '../../settings';
import { DEPOSIT_RULES_KEY } from '../deposits/domain/rules';
import { buildInviteWheelTestApp, satang, seeded, type InviteWheelTestApp, type TestPlayer } from '../../test/support/wheel';

/**
 * The money rules of the invite bonus and the prize wheel under random sequences of deposits (gift links through
 * the deposit route: the first one of an invitee earns the inviter), invite receives, invites and the wheel
 * switched on and off, the invite percentage changed, spins, claims (of one's own and others' coupons, before
 * and after they expire) and the clock moving on. A model predicts every answer: the code, the amount received
 * or claimed, the coins left. After every step the ledger audit holds and each player's wallet and coins are
 * what the model says; at the end no money was created: each wallet is its deposits + cash coupons claimed +
 * invite bonuses received, spin_budget and invite_budget paid exactly what the coupon and receipt rows say, and
 * each receipt is the sum of the earnings it claimed.
 */
jest.setTimeout(300_000);

const DAY = 86_400_000;
const SLICES = [
  { code: 'CASH', weight: 2, type: 'cash' as const, amount: 7.77 },
  { code: 'COINS', weight: 1, type: 'coin' as const, amount: 2 },
  { code: 'NONE', weight: 1, type: 'none' as const },
];

let t: InviteWheelTestApp;
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
});
afterAll(async () => {
  const spins = await t.db.db.selectFrom('wheel_spins').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const claimed = await t.db.db.selectFrom('wheel_coupons').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'CLAIMED').executeTakeFirstOrThrow();
  const receipts = await t.db.db.selectFrom('invite_receipts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  // What the sequences reached, so a change that stops them reaching a state shows here.
  console.log(`invite/wheel property: ${Number(spins.n)} spins, ${Number(claimed.n)} coupons claimed, ${Number(receipts.n)} invite receipts`);
  await t.close();
});

type Who = 0 | 1 | 2 | 3;
type Cmd =
  | { k: 'deposit'; who: Who; baht: number }
  | { k: 'receive'; who: Who }
  | { k: 'invite'; on: boolean; percent: number }
  | { k: 'wheel'; on: boolean }
  | { k: 'coins'; who: Who; n: number }
  | { k: 'spin'; who: Who }
  | { k: 'claim'; who: Who; pick: number; own: boolean }
  | { k: 'claimBad'; who: Who }
  | { k: 'time'; hours: number };

const who = fc.constantFrom<Who>(0, 1, 2, 3);
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('deposit' as const), who, baht: fc.oneof(fc.integer({ min: 2, max: 99 }), fc.integer({ min: 100, max: 800 })) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('receive' as const), who }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('invite' as const), on: fc.boolean(), percent: fc.constantFrom(5, 10, 2.5, 33.33) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('wheel' as const), on: fc.integer({ min: 0, max: 3 }).map((n) => n > 0) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('coins' as const), who, n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('spin' as const), who }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('claim' as const), who, pick: fc.nat(), own: fc.integer({ min: 0, max: 3 }).map((n) => n > 0) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('claimBad' as const), who }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 120 }) }) },
);

interface CouponModel { id: string; owner: Who; type: 'cash' | 'coin'; amount: number; expiresAt: number; claimed: boolean }

const sum = async (q: Promise<{ s: number | string | null }>) => Number((await q).s ?? 0);

test('random sequences keep the ledger invariants, answer as the model says and never create money', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.array(cmd, { minLength: 5, maxLength: 30, size: 'medium' }), async (seed, cmds) => {
      t.setRandom(seeded(seed));
      let now = Date.parse('2027-01-01T00:00:00.000Z') + seed;
      t.setNow(new Date(now));
      await t.wheel(SLICES);
      let wheelOn = true;
      let invite = { on: true, bp: 500 };
      // Rewards at the deposit (the model has no play): the turnover rules are coins.test.ts's and farming.test.ts's.
      await writeInviteSettings(t.db.db, { isActive: true, percent: 5, cap: null, turnover: 0, dailyCap: null });
      await writeSettingDoc(t.db.db, DEPOSIT_RULES_KEY, { coinTurnover: 0 });
      // Players 1 and 2 were invited by 0, player 3 by 1.
      const p0 = await t.player({ coins: 2 });
      const p1 = await t.player({ inviter: p0.id, coins: 2 });
      const p2 = await t.player({ inviter: p0.id, coins: 2 });
      const p3 = await t.player({ inviter: p1.id, coins: 2 });
      const players: TestPlayer[] = [p0, p1, p2, p3];
      const inviterOf: (Who | null)[] = [null, 0, 0, 1];
      const wallet = [0, 0, 0, 0];
      const coins = [2, 2, 2, 2];
      const deposited = [0, 0, 0, 0];
      const pending = [0, 0, 0, 0];
      const firstDone = [false, false, false, false];
      const coupons: CouponModel[] = [];

      for (const c of cmds) {
        const step = JSON.stringify(c);
        switch (c.k) {
          case 'deposit': {
            await t.deposit(players[c.who], c.baht, 'gift');
            const amount = satang(c.baht);
            wallet[c.who] += amount;
            deposited[c.who] += amount;
            if (c.baht >= 100) coins[c.who] += 1;
            const inviter = inviterOf[c.who];
            if (inviter !== null && !firstDone[c.who]) {
              firstDone[c.who] = true;
              if (invite.on) pending[inviter] += Math.floor((amount * invite.bp) / 10_000);
            }
            break;
          }
          case 'receive': {
            const res = await t.get(players[c.who], '/api/invite/bonus');
            if (!invite.on) expect([step, res.statusCode, res.json()]).toEqual([step, 422, { message: 'INVITE_INACTIVE' }]);
            else if (pending[c.who] === 0) expect([step, res.statusCode, res.json()]).toEqual([step, 422, { message: 'NO_INVITE_BONUS' }]);
            else {
              expect([step, res.statusCode, res.json()]).toEqual([step, 200, { message: 'INVITE_BONUS_SUCCESS', amount: pending[c.who] / 100 }]);
              wallet[c.who] += pending[c.who];
              pending[c.who] = 0;
            }
            break;
          }
          case 'invite':
            await writeInviteSettings(t.db.db, { isActive: c.on, percent: c.percent });
            invite = { on: c.on, bp: parseBaht(c.percent)! };
            break;
          case 'wheel':
            await t.wheel(SLICES, { isActive: c.on });
            wheelOn = c.on;
            break;
          case 'coins':
            await t.db.db.updateTable('players').set((eb) => ({ coin: eb('coin', '+', c.n) })).where('id', '=', players[c.who].id).execute();
            coins[c.who] += c.n;
            break;
          case 'spin': {
            const res = await t.spin(players[c.who]);
            if (!wheelOn) expect([step, res.json()]).toEqual([step, { message: 'WHEEL_INACTIVE' }]);
            else if (coins[c.who] === 0) expect([step, res.json()]).toEqual([step, { message: 'NO_COIN' }]);
            else {
              coins[c.who] -= 1;
              const r = res.json().result;
              expect([step, res.statusCode, r.remainingCoin]).toEqual([step, 200, coins[c.who]]);
              const slice = SLICES.find((s) => s.code === r.code)!;
              if (slice.type === 'none') expect(r.couponId).toBeNull();
              else coupons.push({ id: r.couponId, owner: c.who, type: slice.type, amount: slice.type === 'cash' ? satang(slice.amount) : slice.amount, expiresAt: now + 7 * DAY, claimed: false });
            }
            break;
          }
          case 'claim': {
            if (!coupons.length) break;
            const k = coupons[c.pick % coupons.length];
            const claimant = c.own ? k.owner : c.who;
            const res = await t.claim(players[claimant], k.id);
            if (k.owner !== claimant || k.claimed) expect([step, res.statusCode, res.json()]).toEqual([step, 404, { message: 'NO_CLAIMABLE_COUPON' }]);
            else if (now >= k.expiresAt) expect([step, res.statusCode, res.json()]).toEqual([step, 422, { message: 'COUPON_EXPIRED' }]);
            else {
              expect([step, res.statusCode, res.json().coupon.status]).toEqual([step, 200, 'CLAIMED']);
              k.claimed = true;
              if (k.type === 'cash') wallet[claimant] += k.amount;
              else coins[claimant] += k.amount;
            }
            break;
          }
          case 'claimBad': {
            const res = await t.claim(players[c.who], 'not-an-id');
            expect([step, res.statusCode, res.json()]).toEqual([step, 400, { message: 'INVALID_CODE' }]);
            break;
          }
          case 'time':
            now += c.hours * 3_600_000;
            t.setNow(new Date(now));
            break;
        }
        const audit = await runAudit(t.db.db);
        if (!audit.ok) throw new Error(`after ${step}:\n${audit.violations.join('\n')}`);
        for (const [i, p] of players.entries()) {
          expect([step, i, await walletBalance(t.db.db, p.id), await t.coins(p)]).toEqual([step, i, wallet[i], coins[i]]);
        }
      }

      // No money created: each wallet is what came in from outside plus what the rules paid, as the rows say.
      for (const [i, p] of players.entries()) {
        const cash = await sum(
          t.db.db.selectFrom('wheel_coupons').select((eb) => eb.fn.sum<number>('amount').as('s')).where('player_id', '=', p.id).where('status', '=', 'CLAIMED').where('prize_type', '=', 'cash').executeTakeFirstOrThrow(),
        );
        const received = await sum(t.db.db.selectFrom('invite_receipts').select((eb) => eb.fn.sum<number>('amount').as('s')).where('player_id', '=', p.id).executeTakeFirstOrThrow());
        expect([i, await walletBalance(t.db.db, p.id)]).toEqual([i, deposited[i] + cash + received]);
        // Every receipt is the sum of exactly the earnings it claimed; what waits is what the wallet view shows.
        for (const r of await t.db.db.selectFrom('invite_receipts').select(['id', 'amount']).where('player_id', '=', p.id).execute()) {
          const claimed = await sum(t.db.db.selectFrom('invite_earnings').select((eb) => eb.fn.sum<number>('amount').as('s')).where('receipt_id', '=', r.id).executeTakeFirstOrThrow());
          expect(Number(r.amount)).toBe(claimed);
        }
        expect((await t.get(p, '/api/wallet')).json().invite.amount).toBe(pending[i] / 100);
      }
      // One earning row per invitee that deposited, none for the others.
      const rows = await t.db.db.selectFrom('invite_earnings').select('invitee_id').where('invitee_id', 'in', players.map((p) => p.id)).execute();
      expect(rows.map((r) => Number(r.invitee_id)).sort()).toEqual(players.filter((_p, i) => firstDone[i]).map((p) => p.id).sort());

      // The budgets paid exactly what the rows say, over every run so far.
      const spinBudget = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'spin_budget:THB').executeTakeFirst();
      const allCash = await sum(t.db.db.selectFrom('wheel_coupons').select((eb) => eb.fn.sum<number>('amount').as('s')).where('status', '=', 'CLAIMED').where('prize_type', '=', 'cash').executeTakeFirstOrThrow());
      expect(0 - Number(spinBudget?.balance ?? 0)).toBe(allCash);
      const inviteBudget = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'invite_budget:THB').executeTakeFirst();
      const allReceipts = await sum(t.db.db.selectFrom('invite_receipts').select((eb) => eb.fn.sum<number>('amount').as('s')).executeTakeFirstOrThrow());
      expect(0 - Number(inviteBudget?.balance ?? 0)).toBe(allReceipts);
      // Every coupon came from a spin, and no claim came after its expiry.
      const orphan = await t.db.db.selectFrom('wheel_coupons as c').leftJoin('wheel_spins as s', 's.coupon_id', 'c.id').select('c.id').where('s.id', 'is', null).execute();
      expect(orphan).toEqual([]);
      const late = await t.db.db.selectFrom('wheel_coupons').select('id').where('status', '=', 'CLAIMED').whereRef('claimed_at', '>=', 'expires_at').execute();
      expect(late).toEqual([]);
    }),
    { numRuns: 40 },
  );
  t.setNow(null);
});
