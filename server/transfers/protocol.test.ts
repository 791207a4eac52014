import type { GameProvider, TransferOutcome, TransferStatus } from '../adapters/games/types';
import { ProviderTimeoutError } from '../adapters/games/types';
import { freshDb, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { nowIso } from '../db';
import { depositTo, insertPlayer } from '../test/support/ledger';
import { runAudit, walletBalance, gameBalances } from '../ledger';
import { closeTransfer, transferFromGame, transferToGame, type TransferDeps } from './protocol';
import { newTransferId } from './ids';
import { reconcileTransfers } from '../jobs/reconcile';

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

// Issue 13: closing is one UPDATE ... RETURNING of the pending row (no read first).
test('closing a transfer twice changes it once and answers its final status; a note replaces last_error, none keeps it', async () => {
  const p = await playerWithGame(1_000);
  fake.next = ['timeout'];
  const r = await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 300 });
  expect(r.status).toBe('pending');
  const row = () => t.db.selectFrom('game_transfers').select(['status', 'last_error', 'claimed_until']).where('id', '=', r.transferId).executeTakeFirstOrThrow();
  expect((await row()).last_error).toMatch(/ProviderTimeoutError/);
  expect(await closeTransfer(deps, r.transferId, true)).toBe('settled');
  expect(await row()).toEqual({ status: 'settled', last_error: expect.stringMatching(/ProviderTimeoutError/), claimed_until: null });
  // A second close, even the other way, changes nothing and answers what the row is.
  expect(await closeTransfer(deps, r.transferId, false, 'late')).toBe('settled');
  expect((await row()).last_error).toMatch(/ProviderTimeoutError/);
  expect(await walletBalance(t.db, p)).toBe(700);
  expect((await gameBalances(t.db, p)).get('pg')).toBe(300);

  fake.next = ['timeout'];
  const f = await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 200 });
  expect(await closeTransfer(deps, f.transferId, false, 'refused by provider')).toBe('failed');
  const failed = await t.db.selectFrom('game_transfers').select(['status', 'last_error']).where('id', '=', f.transferId).executeTakeFirstOrThrow();
  expect(failed).toEqual({ status: 'failed', last_error: 'refused by provider' });
  expect(await walletBalance(t.db, p)).toBe(700);
  await expect(closeTransfer(deps, 'no-such-transfer', true)).rejects.toThrow(/no transfer/);
});

test('transfer ids are UUIDs version 7, in the order they were made', async () => {
  const p = await playerWithGame(1_000);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 100 })).transferId);
  const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  for (const id of ids) expect(id).toMatch(v7);
  expect(new Set(ids).size).toBe(3);
  // Made at later milliseconds, they sort later (the indexes holding them append instead of splitting random pages).
  const a = newTransferId(1_700_000_000_000);
  const b = newTransferId(1_700_000_000_001);
  expect(a < b).toBe(true);
  expect(a.slice(0, 13)).toBe('018bcfe5-6800');
  const many = Array.from({ length: 1000 }, () => newTransferId(1_700_000_000_000));
  expect(new Set(many).size).toBe(1000);
});

test('a game -> wallet transfer asked in the millisecond the last transfer closed books the win first (the provider is asked again)', async () => {
  const p = await playerWithGame(1_000);
  expect((await transferToGame(deps, { playerId: p, gameCode: 'pg', amount: 100 })).status).toBe('settled');
  const closed = await t.db.selectFrom('game_transfers').select('updated_at').where('player_id', '=', p).executeTakeFirstOrThrow();
  fake.balances.set(`pg:u${p}`, 150); // the player won 50 at the game
  // The refresh asks the provider at the very millisecond the transfer closed; every later reading of the clock is
  // the real one, past it.
  let first = true;
  const sameMillisecond: TransferDeps = { ...deps, now: () => (first ? ((first = false), new Date(closed.updated_at)) : new Date()) };
  expect((await transferFromGame(sameMillisecond, { playerId: p, gameCode: 'pg', amount: 150 })).status).toBe('settled');
  expect(await walletBalance(t.db, p)).toBe(1_050);
  expect((await gameBalances(t.db, p)).get('pg')).toBe(0);
});
