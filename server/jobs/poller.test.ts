import { pollBetFeeds, startPoller } from './poller';
import type { GameProvider } from '../adapters/games/types';
import { ensureSeamlessGame } from '../test/support/seamless';
import { storePage, readCursor } from '../wagering/rounds';
import { freshDb, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { insertPlayer } from '../test/support/ledger';
import { nowIso } from '../db';

/** A promise with its resolve, to hold a job mid-pass. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('startPoller', () => {
  test('never runs two passes at once; calls during a pass share exactly one more pass after it', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    const gates: ReturnType<typeof deferred>[] = [];
    const poller = startPoller(
      async () => {
        running++;
        most = Math.max(most, running);
        const n = ++passes;
        const gate = deferred();
        gates.push(gate);
        await gate.promise;
        running--;
        return n;
      },
      { intervalMs: 0 },
    );
    const first = poller.runNow();
    const second = poller.runNow();
    const third = poller.runNow();
    expect(second).toBe(third); // one queued pass for both
    expect(gates).toHaveLength(1);
    gates[0].resolve();
    expect(await first).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(gates).toHaveLength(2); // the queued pass started after the first ended
    const fourth = poller.runNow(); // asked during pass 2: gets pass 3
    gates[1].resolve();
    expect(await second).toBe(2);
    await new Promise((r) => setImmediate(r));
    gates[2].resolve();
    expect(await fourth).toBe(3);
    expect(most).toBe(1);
    await poller.stop();
    await expect(poller.runNow()).rejects.toThrow(/stopped/);
  });

  test('a failed pass does not stop the next one', async () => {
    let n = 0;
    const poller = startPoller(
      async () => {
        n++;
        if (n === 1) throw new Error('boom');
        return n;
      },
      { intervalMs: 0 },
    );
    await expect(poller.runNow()).rejects.toThrow('boom');
    expect(await poller.runNow()).toBe(2);
    await poller.stop();
  });

  test('the timer runs passes on its own and stop() waits for the one in flight', async () => {
    let n = 0;
    const gate = deferred();
    const poller = startPoller(
      async () => {
        n++;
        await gate.promise;
        return n;
      },
      { intervalMs: 5 },
    );
    while (n === 0) await new Promise((r) => setTimeout(r, 5));
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    expect(n).toBe(1); // no tick started a second pass while the first was held
    gate.resolve();
    await stopping;
    expect(stopped).toBe(true);
  });
});

describe('storePage', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshDb();
    await seedBase(db.db);
  });
  afterAll(() => db.dispose());

  test('stores rounds once per (game, round id) with the cursor; a stale cursor writes nothing; unknown usernames are kept unmapped', async () => {
    const player = await insertPlayer(db.db);
    const now = new Date();
    await db.db.insertInto('game_accounts').values({ player_id: player, game_code: 'pg', username: 'u-store', password: 'v1:x', event: null, created_at: nowIso(now), updated_at: nowIso(now) }).execute();
    const rows = [
      { roundId: 'r1', username: 'u-store', bet: 100, win: 0, at: now.toISOString() },
      { roundId: 'r2', username: 'stranger', bet: 50, win: 100, at: 'not a date' },
    ];
    expect(await storePage(db.db, 'pg', null, '2', rows, now)).toEqual({ stored: 2, applied: true });
    expect(await readCursor(db.db, 'pg')).toBe('2');
    // The same page again from the old cursor (another worker got there first): nothing written.
    expect(await storePage(db.db, 'pg', null, '2', rows, now)).toEqual({ stored: 0, applied: false });
    // The same rounds delivered again after the cursor: skipped, the cursor still moves.
    expect(await storePage(db.db, 'pg', '2', '3', rows, now)).toEqual({ stored: 0, applied: true });
    const stored = await db.db.selectFrom('bet_rounds').selectAll().where('game_code', '=', 'pg').orderBy('id').execute();
    expect(stored.map((r) => [r.round_id, r.player_id === null ? null : Number(r.player_id), Number(r.bet), Number(r.win), r.played_at])).toEqual([
      ['r1', player, 100, 0, now.toISOString()],
      ['r2', null, 50, 100, now.toISOString()],
    ]);
  });
});

describe('pollBetFeeds', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshDb();
    await seedBase(db.db);
  });
  afterAll(() => db.dispose());

  test('reads the feed of transfer games only: a seamless game has none at the transfer provider (its rounds come from its Wallet API)', async () => {
    const seamless = await ensureSeamlessGame(db.db);
    const asked: string[] = [];
    const provider = { betFeed: async (game: string) => (asked.push(game), { rows: [], cursor: null }) } as unknown as GameProvider;
    const report = await pollBetFeeds({ db: db.db, provider, now: () => new Date() });
    expect(report.failedGames).toEqual([]);
    expect(asked).toContain('pg');
    expect(asked).not.toContain(seamless);
    const transferGames = await db.db.selectFrom('games').select('code').where('wallet_mode', '=', 'transfer').execute();
    expect(asked.sort()).toEqual(transferGames.map((g) => g.code).sort());
  });
});
