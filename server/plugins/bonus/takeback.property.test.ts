import fc from 'fast-check';
import { runAudit, walletBalance } from '../../ledger';
import { depositTo } from '../../test/support/ledger';
import { pendingTransferTotal } from './repository';
import { buildBonusTestApp, satang, type BonusTestApp, type TestPlayer } from '../../test/support/bonus';

/**
 * Issue 39 row 1: no sequence of moves ends with unwagered bonus money withdrawn. Random sequences of activations,
 * transfers both ways (amounts and everything), winning and losing rounds at the simulator, wagering passes, clears,
 * withdrawals and a provider that does not answer its next balance call. After every step the ledger audit holds;
 * at every accepted withdrawal, and at the end once every bonus ended and every debt was collected, what the
 * player took out (plus what they still hold) is at most their own money:
 *
 *   deposits + net game result + bonuses finished by turnover + for each other bonus max(0, amount - T)
 *
 * where T is the player's lowest total balance (wallet + provider + transit) from the moment that bonus ended until
 * nothing of it was owed any more: the bonus money the player may keep is only what they had already lost at play.
 */
let t: BonusTestApp;
beforeAll(async () => {
  t = await buildBonusTestApp();
  await t.define('bonus', { code: 'TBA', type: 'limit', maxReceived: 1000, percent: 20, cap: 200, turnoverMultiple: 2, percentFail: 70 });
  // Fails at the first real loss: the failure rule's take-back is reached often.
  await t.define('bonus', { code: 'TBC', type: 'limit', maxReceived: 1000, percent: 100, cap: 1000, turnoverMultiple: 5, percentFail: 95 });
  await t.define('bonus', { code: 'TBB', type: 'limit', maxReceived: 1000, percent: 50, cap: 500, turnoverMultiple: 0.3, percentFail: 0 });
});
afterAll(async () => {
  const ends = await t.db.db.selectFrom('user_bonuses').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  const owed = await t.db.db.selectFrom('user_bonuses').select('id').where('cleared_amount', '>', 0).execute();
  console.log(`takeback property: bonuses ${ends.map((e) => `${e.status} ${Number(e.n)}`).join(', ')}; ${owed.length} took money back`);
  await t.close();
});

type Cmd =
  | { k: 'activate'; code: 'TBA' | 'TBB' | 'TBC' }
  | { k: 'toGame'; amount: number | 'all' }
  | { k: 'fromGame'; amount: number | 'all' }
  | { k: 'play'; bet: number; win: boolean; rounds: number }
  | { k: 'poll' }
  | { k: 'clear' }
  | { k: 'withdraw'; amount: number | 'all' }
  | { k: 'providerSilent' };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('TBA' as const, 'TBB' as const, 'TBC' as const).map((code) => ({ k: 'activate' as const, code })) },
  { weight: 4, arbitrary: fc.oneof({ weight: 2, arbitrary: fc.constant('all' as const) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 800 }) }).map((amount) => ({ k: 'toGame' as const, amount })) },
  { weight: 4, arbitrary: fc.oneof(fc.constant('all' as const), fc.integer({ min: 1, max: 800 })).map((amount) => ({ k: 'fromGame' as const, amount })) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('play' as const), bet: fc.integer({ min: 10, max: 150 }), win: fc.integer({ min: 0, max: 2 }).map((n) => n === 0), rounds: fc.integer({ min: 1, max: 6 }) }) },
  { weight: 4, arbitrary: fc.constant({ k: 'poll' as const }) },
  { weight: 2, arbitrary: fc.constant({ k: 'clear' as const }) },
  { weight: 3, arbitrary: fc.oneof(fc.constant('all' as const), fc.integer({ min: 100, max: 1500 })).map((amount) => ({ k: 'withdraw' as const, amount })) },
  { weight: 1, arbitrary: fc.constant({ k: 'providerSilent' as const }) },
);

const sum = async (q: Promise<{ s: number | string | null }>) => Number((await q).s ?? 0);

/** What the provider holds for the player, read from the simulator's own table (not a provider call: no fault). */
async function atProvider(p: TestPlayer): Promise<number> {
  const r = await t.sim.store.selectFrom('sim_players').select('balance').where('username', '=', p.username).where('game_code', '=', 'pg').executeTakeFirst();
  return Number(r?.balance ?? 0);
}

/** The player's total balance: wallet + what the provider holds + money in transit. */
async function total(p: TestPlayer): Promise<number> {
  return (await walletBalance(t.db.db, p.id)) + (await atProvider(p)) + (await pendingTransferTotal(t.db.db, p.id));
}

async function bonusRows(p: TestPlayer) {
  const rows = await t.db.db.selectFrom('user_bonuses').select(['id', 'status', 'amount', 'debt']).where('player_id', '=', p.id).execute();
  return rows.map((r) => ({ id: Number(r.id), status: r.status, amount: Number(r.amount), debt: Number(r.debt) }));
}

async function withdrawable(p: TestPlayer, amount: number | 'all'): Promise<number> {
  return amount === 'all' ? Math.min(50_000_00, await walletBalance(t.db.db, p.id)) : satang(amount);
}

test('random sequences never let unwagered bonus money out and keep the ledger invariants', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 200, max: 2000 }), fc.array(cmd, { minLength: 10, maxLength: 40, size: 'large' }), async (deposit, cmds) => {
      const p = await t.player({ games: ['pg'] });
      await depositTo(t.db.db, p.id, satang(deposit));
      const deposits = satang(deposit);
      let withdrawn = 0;
      // For each bonus that ended without its turnover: the lowest total balance since it ended, while still owed.
      const lowest = new Map<number, number>();
      const settled = new Set<number>();

      const bound = async () => {
        const gameNet = await sum(
          t.sim.store.selectFrom('sim_rounds').select((eb) => eb.fn.sum<number>(eb('win', '-', eb.ref('bet'))).as('s')).where('username', '=', p.username).executeTakeFirstOrThrow(),
        );
        let kept = 0;
        for (const b of await bonusRows(p)) {
          if (b.status === 'SUCCESS') kept += b.amount;
          else if (b.status !== 'ACTIVE') kept += Math.max(0, b.amount - (lowest.get(b.id) ?? 0));
        }
        return deposits + gameNet + kept;
      };
      /** Runs a step that may end bonuses: each one ended by it is judged against the total just before. */
      const ending = async (step: () => Promise<void>) => {
        const before = await total(p);
        const wasActive = new Set((await bonusRows(p)).filter((b) => b.status === 'ACTIVE').map((b) => b.id));
        await step();
        for (const b of await bonusRows(p)) if (wasActive.has(b.id) && b.status !== 'ACTIVE' && b.status !== 'SUCCESS') lowest.set(b.id, before);
      };
      const withdraw = async (amount: number | 'all') => {
        const want = await withdrawable(p, amount);
        if (want < satang(100)) return;
        const res = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: want / 100 } });
        if (res.statusCode === 200) {
          withdrawn += want;
          expect(withdrawn).toBeLessThanOrEqual(await bound());
        } else expect(['BONUS_CONDITION', 'BONUS_DEBT', 'MONEY_NOT_ENOUGH']).toContain(res.json().message);
      };

      for (const c of cmds) {
        switch (c.k) {
          case 'activate': {
            const res = await t.get(p, `/api/bonus/activate/${c.code}`);
            if (res.statusCode !== 200) expect(['BONUS_ALREADY_ACTIVE', 'BONUS_REMAINING']).toContain(res.json().message);
            break;
          }
          case 'toGame':
          case 'fromGame': {
            const res =
              c.k === 'toGame' && c.amount === 'all'
                ? await t.app.inject({ method: 'POST', url: '/api/wallet/transferAll', headers: p.headers, payload: { to: 'pg' } })
                : await t.app.inject({
                    method: 'POST',
                    url: '/api/wallet/transfer',
                    headers: p.headers,
                    payload:
                      c.k === 'toGame'
                        ? { from: 'WALLET', to: 'pg', amount: c.amount }
                        : { from: 'pg', to: 'WALLET', amount: c.amount === 'all' ? Math.max(1, (await atProvider(p)) / 100) : c.amount },
                  });
            if (res.statusCode !== 200) expect(['MONEY_NOT_ENOUGH', 'TRANSFER_MINIMUM', 'TRANSFER_FAIL']).toContain(res.json().message);
            break;
          }
          case 'play':
            try {
              await t.play(p, 'pg', c.bet, c.win ? 'win' : 'lose', c.rounds);
            } catch (e) {
              expect(String(e)).toMatch(/422 .*MONEY_NOT_ENOUGH/);
            }
            break;
          case 'poll':
            await ending(async () => void (await t.app.bonus.pollNow()));
            break;
          case 'clear':
            await ending(async () => {
              const res = await t.get(p, '/api/bonus/clear');
              expect(res.json().message).toMatch(/^(BONUS_CLEAR|NO_DATA)$/);
            });
            break;
          case 'withdraw':
            await withdraw(c.amount);
            break;
          case 'providerSilent':
            t.sim.failNext('balance', 'timeout-before-apply');
            break;
        }
        const audit = await runAudit(t.db.db);
        if (!audit.ok) throw new Error(`after ${JSON.stringify(c)}:\n${audit.violations.join('\n')}`);
        // A bonus still owed follows the player's total down (money lost at play), never up.
        const now = await total(p);
        for (const b of await bonusRows(p)) {
          if (!lowest.has(b.id) || settled.has(b.id)) continue;
          if (b.debt > 0) lowest.set(b.id, Math.min(lowest.get(b.id)!, now));
          else settled.add(b.id);
        }
      }

      // Cash out: end what is active, collect every debt, bring everything back and take it all.
      await ending(async () => void (await t.get(p, '/api/bonus/clear')));
      for (let i = 0; i < 5 && (await bonusRows(p)).some((b) => b.debt > 0); i++) await t.app.bonus.pollNow();
      expect((await bonusRows(p)).filter((b) => b.debt > 0)).toEqual([]);
      const atGame = await atProvider(p);
      if (atGame > 0) await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'pg', to: 'WALLET', amount: atGame / 100 } });
      await withdraw('all');
      expect(withdrawn + (await total(p))).toBeLessThanOrEqual(await bound());
      expect((await runAudit(t.db.db)).ok).toBe(true);
    }),
    { numRuns: 50 },
  );
}, 300_000);
