import fc from 'fast-check';
import { buildWalletTestApp, depositTo, type WalletTestApp } from '../test/support/ledger';
import { runAudit, walletBalance, gameBalances } from './index';
import { nowIso } from '../db';

/**
 * Random sequences of everything that moves money (deposits through the ledger, transfers both ways with the
 * provider refusing or timing out before or after applying, wins and losses at the provider, refreshes,
 * reconciliations, withdrawals settled or failed) keep every invariant of the audit, and after the dust
 * settles no money was created or lost: wallet + game + paid out = deposits + net winnings.
 */
let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
});
afterAll(() => t.close());

type Fault = 'none' | 'reject' | 'timeout-before-apply' | 'timeout-after-apply';
type Cmd =
  | { k: 'deposit'; amount: number }
  | { k: 'toGame'; amount: number; fault: Fault }
  | { k: 'fromGame'; amount: number; fault: Fault }
  | { k: 'play'; delta: number }
  | { k: 'refresh' }
  | { k: 'reconcile' }
  | { k: 'withdraw'; amount: number }
  | { k: 'settlePayouts'; ok: boolean };

const satang = fc.integer({ min: 1, max: 30_000 });
const fault = fc.constantFrom<Fault>('none', 'none', 'reject', 'timeout-before-apply', 'timeout-after-apply');
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  satang.map((amount) => ({ k: 'deposit' as const, amount: amount * 10 })),
  fc.record({ k: fc.constant('toGame' as const), amount: satang, fault }),
  fc.record({ k: fc.constant('fromGame' as const), amount: satang, fault }),
  fc.integer({ min: -20_000, max: 20_000 }).map((delta) => ({ k: 'play' as const, delta })),
  fc.constant({ k: 'refresh' as const }),
  fc.constant({ k: 'reconcile' as const }),
  fc.integer({ min: 100_00, max: 1_000_00 }).map((amount) => ({ k: 'withdraw' as const, amount })),
  fc.boolean().map((ok) => ({ k: 'settlePayouts' as const, ok })),
);

let round = 0;

test('every sequence keeps the ledger invariants and conserves money', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(cmd, { minLength: 1, maxLength: 14 }), async (cmds) => {
      round++;
      const p = await t.player({ games: ['pg'] });
      const user = `pw${p.id}`;
      let deposits = 0;
      let gameNet = 0;
      const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: p.headers });
      const expireClaims = () =>
        t.db.db.updateTable('game_transfers').set({ claimed_until: nowIso(new Date(Date.now() - 1)) }).where('player_id', '=', p.id).where('status', '=', 'pending').execute();
      const settleAll = async (ok: boolean) => {
        const mine = await t.db.db.selectFrom('withdrawals').select('id').where('player_id', '=', p.id).where('status', '=', 'IN_PROGRESS').execute();
        for (const w of mine) await t.payouts.settle(w.id, ok);
      };
      let n = 0;
      for (const c of cmds) {
        n++;
        switch (c.k) {
          case 'deposit':
            await depositTo(t.db.db, p.id, c.amount);
            deposits += c.amount;
            break;
          case 'toGame':
          case 'fromGame': {
            if (c.fault !== 'none') t.sim.failNext(c.k === 'toGame' ? 'deposit' : 'withdraw', c.fault);
            const body = c.k === 'toGame' ? { from: 'WALLET', to: 'pg', amount: (c.amount + 100) / 100 } : { from: 'pg', to: 'WALLET', amount: (c.amount + 100) / 100 };
            const res = await post('/api/wallet/transfer', body);
            expect([200, 202, 422]).toContain(res.statusCode);
            if (res.statusCode === 422) expect(['MONEY_NOT_ENOUGH', 'TRANSFER_FAIL']).toContain(res.json().message);
            t.sim.clearFaults(); // a fault not consumed (refused before the call) must not leak into later steps
            break;
          }
          case 'play': {
            // A win or a loss at the provider, outside the wallet.
            const id = `play-${round}-${n}`;
            const r = c.delta >= 0 ? await t.sim.deposit('pg', user, id, c.delta || 1) : await t.sim.withdraw('pg', user, id, -c.delta);
            if (r.status === 'settled') gameNet += c.delta >= 0 ? c.delta || 1 : c.delta;
            break;
          }
          case 'refresh':
            expect((await t.app.inject({ method: 'GET', url: '/api/wallet/refresh/slot', headers: p.headers })).statusCode).toBe(200);
            break;
          case 'reconcile':
            await expireClaims();
            await t.app.wallet.reconcileNow();
            break;
          case 'withdraw': {
            const res = await post('/api/wallet/withdrawAll', { amount: c.amount / 100 });
            expect(res.statusCode === 200 || res.json().message === 'MONEY_NOT_ENOUGH').toBe(true);
            break;
          }
          case 'settlePayouts':
            await settleAll(c.ok);
            break;
        }
        const audit = await runAudit(t.db.db);
        if (!audit.ok) throw new Error(`after ${JSON.stringify(c)}:\n${audit.violations.join('\n')}`);
        expect(await walletBalance(t.db.db, p.id)).toBeGreaterThanOrEqual(0);
      }
      // Let the dust settle: the provider answers again, every pending transfer is finished, payouts paid.
      await expireClaims();
      await t.app.wallet.reconcileNow();
      const pending = await t.db.db.selectFrom('game_transfers').select('id').where('player_id', '=', p.id).where('status', '=', 'pending').execute();
      expect(pending).toEqual([]);
      await settleAll(true);
      await t.db.db.updateTable('game_transfers').set({ updated_at: '2000-01-01T00:00:00.000Z' }).where('player_id', '=', p.id).execute();
      await t.app.inject({ method: 'GET', url: '/api/wallet/refresh/slot', headers: p.headers });
      const providerBalance = await t.sim.balance('pg', user);
      expect((await gameBalances(t.db.db, p.id)).get('pg') ?? 0).toBe(providerBalance);
      const paid = await t.db.db
        .selectFrom('withdrawals')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('s'))
        .where('player_id', '=', p.id)
        .where('status', '=', 'SUCCESS')
        .executeTakeFirstOrThrow();
      expect((await walletBalance(t.db.db, p.id)) + providerBalance + Number(paid.s)).toBe(deposits + gameNet);
      const audit = await runAudit(t.db.db);
      expect(audit.violations).toEqual([]);
    }),
    { numRuns: 25 },
  );
}, 240_000);
