import type { GameProvider, TransferOutcome, TransferStatus } from '../adapters/games/types';
import { ProviderTimeoutError } from '../adapters/games/types';
import { freshDb, type TestDb } from '../test/helper';
import { seedBase } from '../db/seed';
import { nowIso } from '../db';
import { depositTo, insertPlayer } from '../ledger/test-support';
import { runAudit, walletBalance, gameBalances } from '../ledger';
import { transferFromGame, transferToGame, type TransferDeps } from './protocol';
import { reconcileTransfers } from './reconcile';

/** A provider in memory whose answers the test scripts: enough to drive the protocol's branches. */
class FakeProvider implements GameProvider {
  balances = new Map<string, number>();
  applied = new Map<string, TransferStatus>();
  next: ('ok' | 'reject' | 'timeout' | 'timeout-applied')[] = [];
  statusCalls = 0;
  statusDelayMs = 0;
  async createPlayer(_g: string, id: number) {
    return { username: `u${id}`, password: 'p' };
  }
  private async move(sign: 1 | -1, g: string, u: string, id: string, amount: number): Promise<TransferOutcome> {
    const k = `${g}:${u}`;
    const prior = this.applied.get(id);
    if (prior && prior !== 'unknown') return prior === 'settled' ? { status: 'settled' } : { status: 'failed', reason: 'earlier' };
    const mode = this.next.shift() ?? 'ok';
    if (mode === 'timeout') throw new ProviderTimeoutError();
    if (mode === 'reject' || (sign < 0 && (this.balances.get(k) ?? 0) < amount)) {
      this.applied.set(id, 'failed');
      return { status: 'failed', reason: 'no' };
    }
    this.balances.set(k, (this.balances.get(k) ?? 0) + sign * amount);
    this.applied.set(id, 'settled');
    if (mode === 'timeout-applied') throw new ProviderTimeoutError();
    return { status: 'settled' };
  }
  deposit(g: string, u: string, id: string, a: number) {
    return this.move(1, g, u, id, a);
  }
  withdraw(g: string, u: string, id: string, a: number) {
    return this.move(-1, g, u, id, a);
  }
  async balance(g: string, u: string) {
    return this.balances.get(`${g}:${u}`) ?? 0;
  }
  async transferStatus(_g: string, id: string): Promise<TransferStatus> {
    this.statusCalls++;
    if (this.statusDelayMs) await new Promise((r) => setTimeout(r, this.statusDelayMs));
    return this.applied.get(id) ?? 'unknown';
  }
  async launchUrl() {
    return 'x';
  }
  async resetPassword() {
    return 'p2';
  }
  async betFeed() {
    return { rows: [], cursor: null };
  }
}

let t: TestDb;
let fake: FakeProvider;
let deps: TransferDeps;
beforeAll(async () => {
  t = await freshDb();
  await seedBase(t.db);
});
afterAll(() => t.dispose());
beforeEach(() => {
  fake = new FakeProvider();
  deps = { db: t.db, provider: fake, claimMs: 60_000 };
});
afterEach(async () => expect((await runAudit(t.db)).violations).toEqual([]));

async function playerWithGame(balance: number) {
  const id = await insertPlayer(t.db);
  const now = nowIso();
  await t.db.insertInto('game_accounts').values({ player_id: id, game_code: 'pg', username: `u${id}`, password: 'p', event: null, created_at: now, updated_at: now }).execute();
  if (balance) await depositTo(t.db, id, balance);
  return id;
}
const expireClaims = () => t.db.updateTable('game_transfers').set({ claimed_until: nowIso(new Date(Date.now() - 1)) }).where('status', '=', 'pending').execute();

test('reconciliation reverses what the provider reports failed and resends what it never saw', async () => {
  const p = await playerWithGame(1_000);
  fake.next = ['timeout'];
  expect((await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 300 })).status).toBe('pending');
  expect(await walletBalance(t.db, p)).toBe(700);
  // The provider still cannot be reached: the row stays pending.
  fake.next = ['timeout'];
  await expireClaims();
  expect(await reconcileTransfers(deps, { olderThanMs: 0 })).toMatchObject({ examined: 1, stillPending: 1 });
  // It never saw the id: resent with the same id, refused this time: reversed, money back.
  fake.next = ['reject'];
  await expireClaims();
  expect(await reconcileTransfers(deps, { olderThanMs: 0 })).toMatchObject({ examined: 1, reversed: 1 });
  expect(await walletBalance(t.db, p)).toBe(1_000);
});

test('a game -> wallet transfer whose payout timed out after applying is credited by reconciliation, once', async () => {
  const p = await playerWithGame(1_000);
  await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 1_000 });
  fake.next = ['timeout-applied'];
  expect((await transferFromGame(deps, { playerId: p, gameCode: 'pg', amount: 400 })).status).toBe('pending');
  expect(await walletBalance(t.db, p)).toBe(0);
  expect((await gameBalances(t.db, p)).get('pg')).toBe(600);
  await expireClaims();
  expect(await reconcileTransfers(deps, { olderThanMs: 0 })).toMatchObject({ settled: 1 });
  expect(await reconcileTransfers(deps, { olderThanMs: 0 })).toMatchObject({ examined: 0 });
  expect(await walletBalance(t.db, p)).toBe(400);
});

test('young transfers and claimed transfers are left alone', async () => {
  const p = await playerWithGame(1_000);
  fake.next = ['timeout'];
  await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 100 });
  expect(await reconcileTransfers(deps, { olderThanMs: 0 })).toMatchObject({ examined: 0 }); // the request's claim holds
  await expireClaims();
  expect(await reconcileTransfers(deps, { olderThanMs: 60_000 })).toMatchObject({ examined: 0 }); // too young
  expect(await reconcileTransfers(deps, { olderThanMs: 0 })).toMatchObject({ examined: 1, settled: 1 });
});

test('reconcilers running at the same time claim rows: each transfer is asked about and closed once', async () => {
  const players = await Promise.all(Array.from({ length: 6 }, () => playerWithGame(500)));
  for (const p of players) {
    fake.next = ['timeout-applied'];
    await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 500 });
  }
  await expireClaims();
  fake.statusDelayMs = 5;
  const reports = await Promise.all([1, 2, 3].map(() => reconcileTransfers(deps, { olderThanMs: 0 })));
  expect(reports.reduce((n, r) => n + r.settled, 0)).toBe(6);
  expect(reports.reduce((n, r) => n + r.examined, 0)).toBe(6);
  expect(fake.statusCalls).toBe(6);
  for (const p of players) {
    expect(await walletBalance(t.db, p)).toBe(0);
    expect((await gameBalances(t.db, p)).get('pg')).toBe(500);
  }
});
