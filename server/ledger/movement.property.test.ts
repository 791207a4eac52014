import fc from 'fast-check';
import { sql } from 'kysely';
import { freshDb, testEngine, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { depositTo, insertPlayer } from '../test/support/ledger';
import { DuplicateEntryError, InsufficientFundsError, runAudit, systemAccount, walletAccount, type AccountRef } from './index';
import { moveMoney, MovementRefused } from './movement';
import { statementLine } from './statement';

/**
 * Issue 43: the posting primitive of both engines (ledger_post in one statement on PostgreSQL, postEntry in a
 * transaction on SQLite) under the same random movements, run at the same time: transfers between players' wallets
 * and system accounts, some not covered, some with a reference used before, some under a condition that does not
 * hold. After each batch, on either engine:
 * - every answered movement wrote its entry, postings and statement line; every refused one wrote none of them;
 * - no player account is below zero; each account's balance is the sum of its postings and its version their count;
 *   each account's postings chain (balance_before of one = balance_after of the one before, in version order);
 * - the money of the accounts the batch touched adds up to what it was (no money created or lost), and the audit is
 *   clean.
 * ledger.property.test.ts drives the same primitive through the wallet's routes (transfers, refreshes, reconciling).
 */
let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
  await seedBase(t.db);
});
afterAll(() => t.dispose());

type Op = { from: number; to: number; amount: number; reuse: boolean; blocked: boolean };
const op: fc.Arbitrary<Op> = fc.record({
  from: fc.integer({ min: 0, max: 4 }),
  to: fc.integer({ min: 0, max: 4 }),
  amount: fc.integer({ min: 1, max: 900 }),
  reuse: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  blocked: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

let round = 0;

test(`${testEngine()}: concurrent random movements keep the ledger's invariants and conserve money`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 24 }), async (ops) => {
      round++;
      // Accounts 0-2 are players' wallets (never below zero), 3 and 4 system accounts (may be).
      const players = [await insertPlayer(t.db), await insertPlayer(t.db), await insertPlayer(t.db)];
      for (const p of players) await depositTo(t.db, p, 1_000);
      const refs: AccountRef[] = [...players.map((p) => walletAccount(p)), systemAccount('bonus_budget'), systemAccount('refund_budget')];
      const codes = [...players.map((p) => `wallet:${p}`), 'bonus_budget:THB', 'refund_budget:THB'];
      const balancesOf = async () =>
        new Map((await t.db.selectFrom('ledger_accounts').select(['code', 'balance']).where('code', 'in', codes).execute()).map((a) => [a.code, Number(a.balance)]));
      const before = await balancesOf();
      const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

      const outcomes = await Promise.allSettled(
        ops.map((o, i) => {
          const from = o.from;
          const to = o.to === o.from ? (o.from + 1) % 5 : o.to;
          const reference = o.reuse && i > 0 ? `mp-${round}-0` : `mp-${round}-${i}`;
          const refId = `mp-${round}-${i}`;
          const owner = players[from] ?? players[to] ?? players[0];
          return moveMoney(t.db, async () => ({
            parts: [
              statementLine({ playerId: owner, type: 'transfer', status: 'SUCCESS', from: codes[from], to: codes[to], amount: o.amount, currency: 'THB', refType: 'transfer', refId }),
              ...(o.blocked
                ? [{ write: (q: typeof t.db) => q.updateTable('statements').set({ status: 'FAILED' }).where('ref_id', '=', `never-${refId}`).returning('id'), mustChange: 'BLOCKED' }]
                : []),
            ],
            entries: [
              {
                kind: 'test_move',
                reference,
                playerId: owner,
                currency: 'THB',
                postings: [
                  { account: refs[from], amount: -o.amount },
                  { account: refs[to], amount: o.amount },
                ],
              },
            ],
          })).then(() => refId);
        }),
      );

      for (const [i, r] of outcomes.entries()) {
        const refId = `mp-${round}-${i}`;
        const line = await t.db.selectFrom('statements').select('id').where('ref_type', '=', 'transfer').where('ref_id', '=', refId).execute();
        if (r.status === 'fulfilled') {
          expect(line).toHaveLength(1);
        } else {
          expect(line).toHaveLength(0);
          const e = r.reason as Error;
          const known = e instanceof InsufficientFundsError || e instanceof DuplicateEntryError || (e instanceof MovementRefused && e.reason === 'BLOCKED');
          if (!known) throw e;
        }
        if (ops[i].blocked) expect(r.status).toBe('rejected');
      }

      const after = await balancesOf();
      expect(total(after)).toBe(total(before));
      for (const p of players) expect(after.get(`wallet:${p}`)!).toBeGreaterThanOrEqual(0);
      // Each account: balance = sum of postings, version = their count, and the chain of before/after holds.
      const chain = await sql<{ code: string; broken: number; sum: number; n: number; balance: number; version: number }>`
        select a.code, a.balance, a.version, count(p.id) as n, coalesce(sum(p.amount), 0) as sum,
          sum(case when p.balance_after <> p.balance_before + p.amount then 1 else 0 end) as broken
        from ledger_accounts a left join ledger_postings p on p.account_id = a.id
        where a.code in (${sql.join(codes)}) group by a.code, a.balance, a.version`.execute(t.db);
      for (const c of chain.rows) {
        expect([c.code, Number(c.balance), Number(c.version), Number(c.broken)]).toEqual([c.code, Number(c.sum), Number(c.n), 0]);
      }
      const versions = await sql<{ code: string; ok: number }>`
        select a.code, min(case when p.account_version = prev.account_version + 1 and p.balance_before = prev.balance_after then 1 else 0 end) as ok
        from ledger_accounts a join ledger_postings p on p.account_id = a.id
        join ledger_postings prev on prev.account_id = a.id and prev.account_version = p.account_version - 1
        where a.code in (${sql.join(codes)}) group by a.code`.execute(t.db);
      for (const v of versions.rows) expect([v.code, Number(v.ok)]).toEqual([v.code, 1]);
      const audit = await runAudit(t.db);
      if (!audit.ok) throw new Error(audit.violations.join('\n'));
    }),
    { numRuns: 30 },
  );
}, 240_000);
