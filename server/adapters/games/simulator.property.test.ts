import fc from 'fast-check';
import { freshDb, type TestDb } from '../../test/support/helper';
import { GameSimulator, type SimFault } from './simulator';
import { ProviderTimeoutError } from './types';
import { ensureTestGames, TEST_SECRET } from '../../test/support/games-sim';

let db: TestDb;
beforeAll(async () => {
  db = await freshDb();
  await ensureTestGames(db.db);
});
afterAll(() => db.dispose());

type Command =
  | { op: 'deposit' | 'withdraw'; amount: number; fault: SimFault | null }
  | { op: 'retry' }
  | { op: 'round'; bet: number; draw: number };

const fault = fc.constantFrom<SimFault | null>(null, null, null, 'reject', 'timeout-before-apply', 'timeout-after-apply');
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant('deposit' as const), amount: fc.integer({ min: 1, max: 50_000 }), fault }),
  fc.record({ op: fc.constant('withdraw' as const), amount: fc.integer({ min: 1, max: 60_000 }), fault }),
  fc.record({ op: fc.constant('retry' as const) }),
  fc.record({ op: fc.constant('round' as const), bet: fc.integer({ min: 1, max: 20_000 }), draw: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) }),
);

let nextPlayer = 1;

test('any sequence of transfers (with faults and retries) and rounds keeps balance = deposits - withdrawals - bets + wins, never negative', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
      const draws: number[] = [];
      const sim = new GameSimulator(db.db, { secret: TEST_SECRET, seed: 1, roundRandom: () => draws.shift() ?? 0.5 });
      const playerId = nextPlayer++;
      const { username } = await sim.createPlayer('pg', playerId);
      const session = { gameCode: 'pg', username, passwordVersion: 1 };
      let expected = 0;
      let last: { id: string; op: 'deposit' | 'withdraw'; amount: number } | null = null;
      // What the provider has answered for each id: settled, failed, or nothing yet (a timeout before applying).
      const known = new Map<string, 'settled' | 'failed'>();
      const apply = (op: 'deposit' | 'withdraw', amount: number) => (expected += op === 'deposit' ? amount : -amount);

      for (const [i, c] of commands.entries()) {
        if (c.op === 'round') {
          draws.push(c.draw, c.draw, c.draw, c.draw);
          if (c.bet > expected) {
            await expect(sim.playRound(session, c.bet)).rejects.toMatchObject({ code: 'MONEY_NOT_ENOUGH' });
          } else {
            const r = await sim.playRound(session, c.bet);
            expected += r.win - c.bet;
            expect(r.balance).toBe(expected);
          }
          draws.length = 0;
        } else if (c.op === 'retry') {
          if (!last) continue;
          const out = await sim[last.op]('pg', username, last.id, last.amount);
          const first = known.get(last.id);
          if (first) {
            // A replay never moves money; its answer is the first one.
            expect(out.status).toBe(first);
          } else {
            // Never applied: the retry is the first real attempt.
            known.set(last.id, out.status);
            if (out.status === 'settled') apply(last.op, last.amount);
          }
        } else {
          const id = `p${playerId}-${i}`;
          last = { id, op: c.op, amount: c.amount };
          if (c.fault) sim.failNext(c.op, c.fault);
          try {
            const out = await sim[c.op]('pg', username, id, c.amount);
            known.set(id, out.status);
            if (out.status === 'settled') {
              apply(c.op, c.amount);
            } else {
              expect(out.reason).toBe(c.fault === 'reject' ? 'REJECTED' : 'INSUFFICIENT');
            }
          } catch (e) {
            expect(e).toBeInstanceOf(ProviderTimeoutError);
            // What reconciliation does: ask by transferId and believe the answer.
            const status = await sim.transferStatus('pg', id);
            if (c.fault === 'timeout-before-apply') expect(status).toBe('unknown');
            else expect(status).not.toBe('unknown');
            if (status !== 'unknown') known.set(id, status);
            if (status === 'settled') apply(c.op, c.amount);
          }
        }
        const balance = await sim.balance('pg', username);
        expect(balance).toBe(expected);
        expect(balance).toBeGreaterThanOrEqual(0);
      }

      // The provider's own records tell the same story as its balance.
      const transfers = await db.db.selectFrom('sim_transfers').select(['kind', 'amount', 'status']).where('game_code', '=', 'pg').where('username', '=', username).execute();
      const rounds = await db.db.selectFrom('sim_rounds').select(['bet', 'win']).where('game_code', '=', 'pg').where('username', '=', username).execute();
      const fromRecords =
        transfers.filter((t) => t.status === 'settled').reduce((s, t) => s + (t.kind === 'deposit' ? 1 : -1) * Number(t.amount), 0) +
        rounds.reduce((s, r) => s + Number(r.win) - Number(r.bet), 0);
      expect(fromRecords).toBe(expected);
    }),
    { numRuns: 40 },
  );
});
