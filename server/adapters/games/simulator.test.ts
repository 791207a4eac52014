import { Kysely } from 'kysely';
import { freshDb, type TestDb } from '../../test/support/helper';
import { GameSimulator, type GameSimulatorOptions } from './simulator';
import { ProviderTimeoutError } from './types';
import { ensureTestGames, TEST_SECRET } from '../../test/support/games-sim';

let db: TestDb;
let sim: GameSimulator;
let nextPlayer = 1;
const make = (o: Partial<GameSimulatorOptions> = {}) => new GameSimulator(db.db, { secret: TEST_SECRET, seed: 42, ...o });
const newPlayer = async (game = 'pg') => (await sim.createPlayer(game, nextPlayer++)).username;

beforeAll(async () => {
  db = await freshDb();
  await ensureTestGames(db.db);
});
afterAll(() => db.dispose());
beforeEach(() => {
  sim = make();
});

describe('createPlayer', () => {
  test('gives a prefixed username and a random password, the same ones again for the same game and player', async () => {
    const a = await sim.createPlayer('pg', 9001);
    expect(a.username).toBe('pw9001');
    expect(a.password).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(await sim.createPlayer('pg', 9001)).toEqual(a);
    const other = await sim.createPlayer('joker2', 9001);
    expect(other.password).not.toBe(a.password);
  });

  test('carries the event object only for the provider that has one', async () => {
    expect((await sim.createPlayer('pg', 9002)).event).toBeUndefined();
    const h = await sim.createPlayer('huayhd', 9002);
    expect(h.event).toEqual({ formState: { username: h.username, password: h.password } });
  });

  test('refuses a game the provider does not have', async () => {
    await expect(sim.createPlayer('nope', 1)).rejects.toMatchObject({ code: 'NO_GAME' });
  });
});

describe('transfers', () => {
  test('build no query: every statement of a deposit or withdrawal is compiled once (issue 13)', async () => {
    const u = await newPlayer();
    await sim.deposit('pg', u, 'warm-d', 1_000);
    await sim.withdraw('pg', u, 'warm-w', 10_000); // refused: the player lookup too
    await sim.deposit('pg', u, 'warm-d', 1_000); // again: the recorded outcome
    const builders = (['selectFrom', 'insertInto', 'updateTable'] as const).map((m) => jest.spyOn(Kysely.prototype, m));
    try {
      expect(await sim.deposit('pg', u, 'once-d', 1_000)).toEqual({ status: 'settled' });
      expect(await sim.withdraw('pg', u, 'once-w', 500)).toEqual({ status: 'settled' });
      expect(await sim.withdraw('pg', u, 'once-w2', 10_000)).toEqual({ status: 'failed', reason: 'INSUFFICIENT' });
      expect(await sim.deposit('pg', u, 'once-d', 1_000)).toEqual({ status: 'settled' }); // the recorded outcome
      for (const b of builders) expect(b).not.toHaveBeenCalled();
    } finally {
      for (const b of builders) b.mockRestore();
    }
    expect(await sim.balance('pg', u)).toBe(1_500); // 1,000 + 1,000 - 500
  });

  test('a deposit then a withdrawal move the game balance', async () => {
    const u = await newPlayer();
    expect(await sim.deposit('pg', u, 'd-1', 10_000)).toEqual({ status: 'settled' });
    expect(await sim.withdraw('pg', u, 'w-1', 2_500)).toEqual({ status: 'settled' });
    expect(await sim.balance('pg', u)).toBe(7_500);
    expect(await sim.transferStatus('pg', 'd-1')).toBe('settled');
  });

  test('the same transferId again returns the first outcome and applies nothing', async () => {
    const u = await newPlayer();
    expect(await sim.deposit('pg', u, 'idem-d', 5_000)).toEqual({ status: 'settled' });
    expect(await sim.deposit('pg', u, 'idem-d', 5_000)).toEqual({ status: 'settled' });
    expect(await sim.deposit('pg', u, 'idem-d', 9_999)).toEqual({ status: 'settled' });
    expect(await sim.balance('pg', u)).toBe(5_000);
    expect(await sim.withdraw('pg', u, 'idem-w', 6_000)).toEqual({ status: 'failed', reason: 'INSUFFICIENT' });
    await sim.deposit('pg', u, 'idem-d2', 5_000);
    // Enough money now, but that id was answered "failed": it stays failed.
    expect(await sim.withdraw('pg', u, 'idem-w', 6_000)).toEqual({ status: 'failed', reason: 'INSUFFICIENT' });
    expect(await sim.balance('pg', u)).toBe(10_000);
  });

  test('concurrent calls with one transferId apply it once', async () => {
    const u = await newPlayer();
    const results = await Promise.all(Array.from({ length: 10 }, () => sim.deposit('pg', u, 'race-1', 1_000)));
    expect(results.every((r) => r.status === 'settled')).toBe(true);
    expect(await sim.balance('pg', u)).toBe(1_000);
  });

  test('a withdrawal beyond the game balance fails with INSUFFICIENT and changes nothing', async () => {
    const u = await newPlayer();
    await sim.deposit('pg', u, 'ins-d', 1_000);
    expect(await sim.withdraw('pg', u, 'ins-w', 1_001)).toEqual({ status: 'failed', reason: 'INSUFFICIENT' });
    expect(await sim.transferStatus('pg', 'ins-w')).toBe('failed');
    expect(await sim.withdraw('pg', u, 'ins-w2', 1_000)).toEqual({ status: 'settled' });
    expect(await sim.balance('pg', u)).toBe(0);
  });

  test('amounts that are not positive whole satang are refused', async () => {
    const u = await newPlayer();
    for (const amount of [0, -100, 1.5, Number.NaN]) {
      expect(await sim.deposit('pg', u, `bad-${amount}`, amount)).toEqual({ status: 'failed', reason: 'INVALID_AMOUNT' });
      expect(await sim.withdraw('pg', u, `badw-${amount}`, amount)).toEqual({ status: 'failed', reason: 'INVALID_AMOUNT' });
    }
    expect(await sim.balance('pg', u)).toBe(0);
  });

  test('a transfer to an unknown account fails definitely', async () => {
    expect(await sim.deposit('pg', 'ghost', 'ghost-1', 100)).toEqual({ status: 'failed', reason: 'NO_PLAYER' });
    expect(await sim.transferStatus('pg', 'ghost-1')).toBe('failed');
  });

  test('transferStatus of an id never seen is unknown; ids are per game', async () => {
    const u = await newPlayer();
    await sim.deposit('pg', u, 'per-game', 100);
    expect(await sim.transferStatus('pg', 'never-seen')).toBe('unknown');
    expect(await sim.transferStatus('joker2', 'per-game')).toBe('unknown');
  });
});

describe('faults', () => {
  test('timeout after apply: the call throws, the money moved, transferStatus says settled, a retry does not move it again', async () => {
    const u = await newPlayer();
    sim.failNext('deposit', 'timeout-after-apply');
    await expect(sim.deposit('pg', u, 'tap-1', 3_000)).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await sim.transferStatus('pg', 'tap-1')).toBe('settled');
    expect(await sim.balance('pg', u)).toBe(3_000);
    expect(await sim.deposit('pg', u, 'tap-1', 3_000)).toEqual({ status: 'settled' });
    expect(await sim.balance('pg', u)).toBe(3_000);
  });

  test('timeout before apply: the call throws, nothing moved, transferStatus says unknown, a retry applies it once', async () => {
    const u = await newPlayer();
    await sim.deposit('pg', u, 'tbp-d', 3_000);
    sim.failNext('withdraw', 'timeout-before-apply');
    await expect(sim.withdraw('pg', u, 'tbp-1', 1_000)).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await sim.transferStatus('pg', 'tbp-1')).toBe('unknown');
    expect(await sim.balance('pg', u)).toBe(3_000);
    expect(await sim.withdraw('pg', u, 'tbp-1', 1_000)).toEqual({ status: 'settled' });
    expect(await sim.balance('pg', u)).toBe(2_000);
  });

  test('a forced rejection is definite and recorded, and never overrides an outcome already given', async () => {
    const u = await newPlayer();
    sim.failNext('deposit', 'reject');
    expect(await sim.deposit('pg', u, 'rej-1', 1_000)).toEqual({ status: 'failed', reason: 'REJECTED' });
    expect(await sim.transferStatus('pg', 'rej-1')).toBe('failed');
    expect(await sim.balance('pg', u)).toBe(0);
    await sim.deposit('pg', u, 'rej-2', 1_000);
    sim.failNext('deposit', 'reject');
    expect(await sim.deposit('pg', u, 'rej-2', 1_000)).toEqual({ status: 'settled' });
  });

  test('forced faults queue per operation and read calls can time out too', async () => {
    const u = await newPlayer();
    sim.failNext('balance', 'timeout-before-apply');
    await expect(sim.balance('pg', u)).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await sim.balance('pg', u)).toBe(0);
    expect(() => sim.failNext('balance' as 'deposit', 'reject')).toThrow(RangeError);
  });

  test('random rates are reproducible from the seed and respect the mode', async () => {
    const run = async (seed: number, playerId: number) => {
      const s = make({ seed, failureRate: 0.3, timeoutRate: 0.3, timeoutMode: 'before-apply' });
      const u = (await s.createPlayer('pg', playerId)).username;
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        try {
          seen.push((await s.deposit('pg', u, `rate-${playerId}-${i}`, 100)).status);
        } catch (e) {
          expect(e).toBeInstanceOf(ProviderTimeoutError);
          seen.push('timeout');
        }
      }
      const settled = seen.filter((x) => x === 'settled').length;
      expect(await s.balance('pg', u)).toBe(settled * 100); // before-apply timeouts never move money
      return seen;
    };
    const a = await run(7, 5001);
    expect(a).toContain('failed');
    expect(a).toContain('timeout');
    expect(a).toContain('settled');
    expect(await run(7, 5002)).toEqual(a); // same seed, same faults
  });

  test('latency delays each call', async () => {
    const s = make({ latencyMs: 80 });
    const t0 = Date.now();
    await s.transferStatus('pg', 'x');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(35);
  });

  test('bad knobs are refused', () => {
    expect(() => make({ failureRate: 1.5 })).toThrow(RangeError);
    expect(() => make({ failureRate: 0.6, timeoutRate: 0.6 })).toThrow(RangeError);
    expect(() => make({ houseEdge: 0.9 })).toThrow(RangeError);
    expect(() => sim.configure({ latencyMs: -1 })).toThrow(RangeError);
  });
});

test('state survives a new simulator instance over the same database (a restart)', async () => {
  const u = await newPlayer();
  sim.failNext('deposit', 'timeout-after-apply');
  await expect(sim.deposit('pg', u, 'restart-1', 4_200)).rejects.toBeInstanceOf(ProviderTimeoutError);
  const creds = await sim.createPlayer('pg', nextPlayer - 1);
  const after = make({ seed: 1 });
  expect(await after.transferStatus('pg', 'restart-1')).toBe('settled');
  expect(await after.balance('pg', u)).toBe(4_200);
  expect(await after.createPlayer('pg', nextPlayer - 1)).toEqual(creds);
  expect(await after.deposit('pg', u, 'restart-1', 4_200)).toEqual({ status: 'settled' });
  expect(await after.balance('pg', u)).toBe(4_200);
});

describe('passwords and launch URLs', () => {
  test('resetPassword gives a new random password', async () => {
    const p = await sim.createPlayer('joker2', 7001);
    const next = await sim.resetPassword('joker2', p.username);
    expect(next).not.toBe(p.password);
    expect((await sim.createPlayer('joker2', 7001)).password).toBe(next);
    await expect(sim.resetPassword('joker2', 'ghost')).rejects.toMatchObject({ code: 'SLOT_NO_ACCOUNT' });
  });

  test('launchUrl points at the game page on this server with a token for that account', async () => {
    const u = await newPlayer();
    const url = await make({ baseUrl: 'http://localhost:3000' }).launchUrl('pg', u);
    const m = /^http:\/\/localhost:3000\/sim\/games\/pg\/play\?t=([^&]+)$/.exec(url);
    expect(m).not.toBeNull();
    expect(await sim.authenticate('pg', decodeURIComponent(m![1]))).toEqual({ gameCode: 'pg', username: u, passwordVersion: 1 });
    expect(await sim.authenticate('joker2', decodeURIComponent(m![1]))).toBeNull();
  });

  test('a game that logs in with a password needs the current one', async () => {
    const p = await sim.createPlayer('joker2', 7002);
    await expect(sim.launchUrl('joker2', p.username)).rejects.toMatchObject({ code: 'WRONG_PASSWORD' });
    await expect(sim.launchUrl('joker2', p.username, 'wrong')).rejects.toMatchObject({ code: 'WRONG_PASSWORD' });
    const url = await sim.launchUrl('joker2', p.username, p.password);
    expect(url).toMatch(/^\/sim\/games\/joker2\/play\?t=/);
    await expect(sim.launchUrl('pg', 'ghost')).rejects.toMatchObject({ code: 'SLOT_NO_ACCOUNT' });
  });

  test('forged, tampered, expired and pre-reset tokens are refused', async () => {
    const p = await sim.createPlayer('pg', 7003);
    const token = (u: string) => decodeURIComponent(u.split('?t=')[1]);
    const good = token(await sim.launchUrl('pg', p.username));
    expect(await sim.authenticate('pg', good)).not.toBeNull();
    const [v, payload, mac] = good.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${v}.${Buffer.from(JSON.stringify({ ...claims, u: 'pw1' })).toString('base64url')}.${mac}`;
    expect(await sim.authenticate('pg', tampered)).toBeNull();
    const forged = token(await new GameSimulator(db.db, { secret: 'another-secret-another-secret-12' }).launchUrl('pg', p.username));
    expect(await sim.authenticate('pg', forged)).toBeNull();
    expect(await sim.authenticate('pg', 'garbage')).toBeNull();
    const later = make({ now: () => new Date(Date.now() + 5 * 3600 * 1000) });
    expect(await later.authenticate('pg', good)).toBeNull();
    await sim.resetPassword('pg', p.username);
    expect(await sim.authenticate('pg', good)).toBeNull();
    expect(await sim.authenticate('pg', token(await sim.launchUrl('pg', p.username)))).not.toBeNull();
  });
});

describe('rounds and the bet feed', () => {
  const session = (username: string) => ({ gameCode: 'pg', username, passwordVersion: 1 });

  test('a round takes the bet and pays the win; a losing round pays nothing', async () => {
    const u = await newPlayer();
    await sim.deposit('pg', u, `r-${u}`, 10_000);
    const winning = make({ roundRandom: () => 0 }); // lowest draw: the top line (x20)
    const r1 = await winning.playRound(session(u), 100);
    expect(r1).toMatchObject({ bet: 100, win: 2_000, balance: 11_900 });
    expect(new Set(r1.symbols).size).toBe(1);
    const losing = make({ roundRandom: () => 0.999 });
    const r2 = await losing.playRound(session(u), 900);
    expect(r2).toMatchObject({ bet: 900, win: 0, balance: 11_000 });
    expect(new Set(r2.symbols).size).toBeGreaterThan(1);
  });

  test('a bet above the balance, zero, negative, fractional or above the maximum is refused', async () => {
    const u = await newPlayer();
    await sim.deposit('pg', u, `rr-${u}`, 500);
    await expect(sim.playRound(session(u), 501)).rejects.toMatchObject({ code: 'MONEY_NOT_ENOUGH', statusCode: 422 });
    for (const bet of [0, -1, 0.5, sim.maxBet + 1]) await expect(sim.playRound(session(u), bet)).rejects.toMatchObject({ code: 'INVALID_BET' });
    expect(await sim.balance('pg', u)).toBe(500);
    await sim.playRound(session(u), 500);
  });

  test('the feed returns each round once, oldest first, across pages and concurrent rounds', async () => {
    const u1 = await newPlayer();
    const u2 = await newPlayer();
    await sim.deposit('pg', u1, `f-${u1}`, 100_000);
    await sim.deposit('pg', u2, `f-${u2}`, 100_000);
    const small = make({ feedPageSize: 7 });
    const start = await small.betFeed('pg', null);
    let cursor: string | null = null;
    const seen = new Map<string, { username: string; bet: number; win: number }>();
    const drain = async () => {
      for (;;) {
        const page: Awaited<ReturnType<GameSimulator['betFeed']>> = await small.betFeed('pg', cursor);
        for (const row of page.rows) {
          expect(seen.has(row.roundId)).toBe(false);
          seen.set(row.roundId, row);
        }
        cursor = page.cursor;
        if (page.rows.length === 0) return;
      }
    };
    await drain();
    seen.clear();
    const played = await Promise.all(
      Array.from({ length: 30 }, (_, i) => sim.playRound(session(i % 2 ? u1 : u2), 10 + i)),
    );
    await Promise.all([drain(), sim.playRound(session(u1), 5)]);
    await drain();
    expect(seen.size).toBe(31);
    for (const r of played) expect(seen.get(r.roundId)).toMatchObject({ bet: r.bet, win: r.win });
    expect(await small.betFeed('pg', cursor)).toEqual({ rows: [], cursor });
    expect(start.rows.length).toBeLessThanOrEqual(7);
    await expect(small.betFeed('pg', 'x1')).rejects.toMatchObject({ code: 'BAD_CURSOR' });
  });

  test('a round with a token from before a password reset is refused', async () => {
    const p = await sim.createPlayer('pg', 7100);
    await sim.deposit('pg', p.username, 'pv-1', 1_000);
    await sim.resetPassword('pg', p.username);
    await expect(sim.playRound(session(p.username), 100)).rejects.toMatchObject({ code: 'invalid-token', statusCode: 401 });
  });
});
