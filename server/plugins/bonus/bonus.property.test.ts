import fc from 'fast-check';
import { runAudit, walletBalance } from '../../ledger';
import { depositTo } from '../../test/support/ledger';
import { buildBonusTestApp, satang, type BonusTestApp } from '../../test/support/bonus';

/**
 * The money rules of bonuses and refunds under random sequences of deposits, activations (bonuses with and
 * without a budget, a promotion), transfers to the game, winning and losing rounds at the simulator, wagering
 * passes, clears, refunds and withdrawals: after every step the ledger audit holds and no player holds two
 * active bonuses; at the end no money was created: what the player holds (wallet + the provider's balance +
 * withdrawals) is exactly deposits + net game result + bonuses kept + refunds, the budgets' ledger accounts
 * match what the bonus rows say they paid, no budget paid more than its total, and every refund is its
 * percentage of the net loss of exactly the rounds it counted.
 */
let t: BonusTestApp;
beforeAll(async () => {
  t = await buildBonusTestApp();
  await t.define('bonus', { code: 'PROPA', type: 'limit', maxReceived: 1000, percent: 10, cap: 50, turnoverMultiple: 2, percentFail: 90 });
  await t.define('bonus', { code: 'PROPB', type: 'limit', maxReceived: 1000, percent: 25, cap: 500, turnoverMultiple: 1, percentFail: 60, budget: 300 });
  await t.define('promotion', { code: 'PROPP', percent: 50, cap: 100, turnoverMultiple: 3, percentFail: 10, budget: 1000 });
  await t.refund({ isActive: true, refundSuccess: 5, refundFail: 10 });
});
afterAll(async () => {
  // What the sequences reached, so a change that stops them reaching an ending shows here.
  const ends = await t.db.db.selectFrom('user_bonuses').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  const refunds = await t.db.db.selectFrom('refunds').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rounds = await t.db.db.selectFrom('bet_rounds').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  console.log(`bonus property: ${Number(rounds.n)} rounds; bonuses ${ends.map((e) => `${e.status} ${Number(e.n)}`).join(', ')}; refunds ${Number(refunds.n)}`);
  await t.close();
});

type Cmd =
  | { k: 'deposit'; amount: number }
  | { k: 'activate'; code: 'PROPA' | 'PROPB' }
  | { k: 'promotion' }
  | { k: 'toGame'; amount: number | 'all' }
  | { k: 'play'; bet: number; win: boolean; rounds: number }
  | { k: 'poll' }
  | { k: 'clear' }
  | { k: 'refund' }
  | { k: 'withdraw'; amount: number };

// Weighted so that sequences reach the interesting states: bonuses finished by turnover, failed by losses,
// cleared with money at the game, refunds with and without a failed bonus.
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 500 }).map((baht) => ({ k: 'deposit' as const, amount: satang(baht) })) },
  { weight: 2, arbitrary: fc.constantFrom('PROPA' as const, 'PROPB' as const).map((code) => ({ k: 'activate' as const, code })) },
  { weight: 1, arbitrary: fc.constant({ k: 'promotion' as const }) },
  { weight: 3, arbitrary: fc.oneof(fc.constant('all' as const), fc.integer({ min: 1, max: 600 })).map((amount) => ({ k: 'toGame' as const, amount })) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('play' as const), bet: fc.integer({ min: 1, max: 60 }), win: fc.integer({ min: 0, max: 2 }).map((n) => n === 0), rounds: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 3, arbitrary: fc.constant({ k: 'poll' as const }) },
  { weight: 2, arbitrary: fc.constant({ k: 'clear' as const }) },
  { weight: 2, arbitrary: fc.constant({ k: 'refund' as const }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 300 }).map((amount) => ({ k: 'withdraw' as const, amount })) },
);

const sum = async (q: Promise<{ s: number | string | null }>) => Number((await q).s ?? 0);

test('random sequences keep the ledger invariants and never create money', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 50, max: 400 }), fc.constantFrom(0, 0, 50, 200), fc.array(cmd, { minLength: 5, maxLength: 25, size: 'medium' }), async (wallet, game, cmds) => {
      // Each run starts with money in the wallet and some at the game.
      const p = await t.player({ games: ['pg'] });
      await depositTo(t.db.db, p.id, satang(wallet + game));
      let deposits = satang(wallet + game);
      if (game > 0) await t.toGame(p, 'pg', game);
      const active = async () => (await t.get(p, '/api/bonus/check/active')).json().status as boolean;
      for (const c of cmds) {
        switch (c.k) {
          case 'deposit':
            await depositTo(t.db.db, p.id, c.amount);
            deposits += c.amount;
            break;
          case 'activate':
          case 'promotion': {
            const res = await t.get(p, c.k === 'promotion' ? '/api/promotion/activate/propp' : `/api/bonus/activate/${c.code}`);
            if (res.statusCode !== 200) expect(['BONUS_ALREADY_ACTIVE', 'BONUS_REMAINING', 'BONUS_FULL', 'PROMOTION_RECEIVED']).toContain(res.json().message);
            break;
          }
          case 'toGame': {
            const res =
              c.amount === 'all'
                ? await t.app.inject({ method: 'POST', url: '/api/wallet/transferAll', headers: p.headers, payload: { to: 'pg' } })
                : await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'WALLET', to: 'pg', amount: c.amount } });
            if (res.statusCode !== 200) expect(['MONEY_NOT_ENOUGH', 'TRANSFER_MINIMUM']).toContain(res.json().message);
            break;
          }
          case 'play':
            try {
              await t.play(p, 'pg', c.bet, c.win ? 'win' : 'lose', c.rounds);
            } catch (e) {
              expect(String(e)).toMatch(/422 .*MONEY_NOT_ENOUGH/); // more than the game balance
            }
            break;
          case 'poll':
            await t.app.bonus.pollNow();
            break;
          case 'clear': {
            const res = await t.get(p, '/api/bonus/clear');
            expect(res.statusCode === 200 ? res.json().message : res.json().message).toMatch(/^(BONUS_CLEAR|NO_DATA)$/);
            break;
          }
          case 'refund': {
            const res = await t.get(p, '/api/refund/receive');
            if (res.statusCode !== 200) expect(['REFUND_CONDITION', 'REFUND_MINIMUM']).toContain(res.json().message);
            break;
          }
          case 'withdraw': {
            const wasActive = await active();
            const res = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: c.amount } });
            if (wasActive) expect(res.json()).toEqual({ message: 'BONUS_CONDITION' });
            else if (res.statusCode !== 200) expect(res.json().message).toBe('MONEY_NOT_ENOUGH');
            break;
          }
        }
        const audit = await runAudit(t.db.db);
        if (!audit.ok) throw new Error(`after ${JSON.stringify(c)}:\n${audit.violations.join('\n')}`);
        const open = await t.db.db.selectFrom('user_bonuses').select('id').where('player_id', '=', p.id).where('status', '=', 'ACTIVE').execute();
        expect(open.length).toBeLessThanOrEqual(1);
      }
      await t.app.bonus.pollNow();

      // What the player holds, from the ledger and the provider.
      const provider = await t.sim.balance('pg', p.username);
      const withdrawn = await sum(
        t.db.db.selectFrom('withdrawals').select((eb) => eb.fn.sum<number>('amount').as('s')).where('player_id', '=', p.id).where('status', '!=', 'FAILED').executeTakeFirstOrThrow(),
      );
      const holds = (await walletBalance(t.db.db, p.id)) + provider + withdrawn;
      // Where it came from: the rounds at the provider, the bonuses kept, the refunds.
      const gameNet = await sum(
        t.sim.store.selectFrom('sim_rounds').select((eb) => eb.fn.sum<number>(eb('win', '-', eb.ref('bet'))).as('s')).where('username', '=', p.username).where('game_code', '=', 'pg').executeTakeFirstOrThrow(),
      );
      const bonuses = await t.db.db.selectFrom('user_bonuses').select(['amount', 'cleared_amount']).where('player_id', '=', p.id).execute();
      const bonusKept = bonuses.reduce((s, b) => s + Number(b.amount) - Number(b.cleared_amount ?? 0), 0);
      const refunds = await sum(t.db.db.selectFrom('refunds').select((eb) => eb.fn.sum<number>('amount').as('s')).where('player_id', '=', p.id).executeTakeFirstOrThrow());
      expect(holds).toBe(deposits + gameNet + bonusKept + refunds);

      // The budgets: their ledger accounts are exactly what the bonus rows paid net of clears; never above a total.
      for (const [code, budget] of [['PROPA', null], ['PROPB', satang(300)], ['PROPP', satang(1000)]] as const) {
        const acc = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', `bonus_budget:${code}:THB`).executeTakeFirst();
        const rows = await t.db.db.selectFrom('user_bonuses').select(['amount', 'cleared_amount']).where('code', '=', code).execute();
        const paid = rows.reduce((s, b) => s + Number(b.amount) - Number(b.cleared_amount ?? 0), 0);
        expect(0 - Number(acc?.balance ?? 0)).toBe(paid);
        if (budget !== null) expect(paid).toBeLessThanOrEqual(budget);
      }
      // Every refund is floor(net loss x percent) of exactly the rounds it claimed.
      for (const r of await t.db.db.selectFrom('refunds').selectAll().where('player_id', '=', p.id).execute()) {
        const net = await sum(
          t.db.db.selectFrom('bet_rounds').select((eb) => eb.fn.sum<number>(eb('bet', '-', eb.ref('win'))).as('s')).where('refund_id', '=', r.id).executeTakeFirstOrThrow(),
        );
        expect(Number(r.net_loss)).toBe(net);
        expect(Number(r.amount)).toBe(Math.floor((net * Number(r.percent_bp)) / 10_000));
        expect(Number(r.amount)).toBeGreaterThan(0);
      }
      const refundBudget = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'refund_budget:THB').executeTakeFirst();
      const allRefunds = await sum(t.db.db.selectFrom('refunds').select((eb) => eb.fn.sum<number>('amount').as('s')).executeTakeFirstOrThrow());
      expect(0 - Number(refundBudget?.balance ?? 0)).toBe(allRefunds);
    }),
    { numRuns: 50 },
  );
}, 300_000);
