import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { PlayLimitKind } from '../../db/schema-play';
import { nowIso } from '../../db';
import { seedBase } from '../../db/seed';
import { freshDb, type TestDb } from '../../test/support/helper';
import { insertPlayer } from '../../ledger';
import { AppError } from '../../errors';
import { assertMayPlay, checkDepositAllowed, checkLossAllowed, depositWithinLimits, holdDeposit } from './enforce';
import { depositUsage, loadLimits, lossUsage, netResult, resolveLimit, windowStart } from './windows';

/**
 * Issue 15: the usage sums and checks of enforce.ts on rows the test writes (the routes that call them have their
 * own suites: enforcement.test.ts). Windows end at `now`: day 24 h, week 7 x 24 h, month 30 x 24 h.
 */
let d: TestDb;
let db: Kysely<DB>;
beforeAll(async () => {
  d = await freshDb();
  await seedBase(d.db);
  db = d.db;
});
afterAll(() => d.dispose());

const H = 3600_000;
const NOW = new Date('2026-11-26T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
let seq = 0;

async function player(): Promise<number> {
  seq += 1;
  const n = String(seq).padStart(6, '0');
  return insertPlayer(db, {
    phone: `05${String(process.pid % 100).padStart(2, '0')}${n}`, name: 'P', password_hash: 'x', bank_code: 'KBANK', bank_account_name: 'A B',
    bank_account_no: `55${String(process.pid % 100).padStart(2, '0')}${n}`, currency: 'THB', source_code: null, inviter_id: null, now: nowIso(),
  });
}

async function statement(playerId: number, amount: number, at: string, over: { type?: 'deposit' | 'withdraw' | 'bonus'; status?: 'SUCCESS' | 'IN_PROGRESS' | 'FAILED' } = {}) {
  seq += 1;
  await db
    .insertInto('statements')
    .values({
      player_id: playerId, statement_type: over.type ?? 'deposit', status: over.status ?? 'SUCCESS', from_account: 'KBANK', to_account: 'WALLET', amount,
      currency: 'THB', ref_type: 'deposit', ref_id: `s${seq}`, linked_type: null, linked_description: null, created_at: at, updated_at: at,
    })
    .execute();
}

async function gift(playerId: number, amount: number, at: string, status: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' = 'IN_PROGRESS', reason: string | null = null) {
  seq += 1;
  await db.insertInto('gift_redemptions').values({ id: `g${seq}`, player_id: playerId, voucher_id: `v${seq}`, status, amount, currency: 'THB', reason, created_at: at, updated_at: at }).execute();
}

async function round(playerId: number | null, bet: number, win: number, at: string) {
  seq += 1;
  await db
    .insertInto('bet_rounds')
    .values({ game_code: 'pg', round_id: `r${seq}`, username: 'u', player_id: playerId, bet, win, played_at: at, user_bonus_id: null, refund_id: null, created_at: at })
    .execute();
}

async function limit(playerId: number, kind: PlayLimitKind, value: number | null, pending?: { value: number | null; at: string }) {
  await db
    .insertInto('play_limits')
    .values({ player_id: playerId, kind, value, pending_set: pending ? 1 : 0, pending_value: pending?.value ?? null, pending_at: pending?.at ?? null, updated_at: nowIso() })
    .execute();
}

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof AppError) return `${e.statusCode} ${e.code}`;
    throw e;
  }
};

describe('deposit usage', () => {
  test('counts SUCCESS deposit lines and reserved gift links inside the window only', async () => {
    const p = await player();
    const other = await player();
    await statement(p, 10_000, ago(1000));
    await statement(p, 20_000, ago(23 * H)); // in the day
    await statement(p, 40_000, ago(25 * H)); // week, not day
    await statement(p, 80_000, ago(8 * 24 * H)); // month, not week
    await statement(p, 160_000, ago(31 * 24 * H)); // none
    await statement(p, 1_000, ago(1000), { status: 'IN_PROGRESS' }); // a held deposit is not credited
    await statement(p, 1_000, ago(1000), { status: 'FAILED' });
    await statement(p, 1_000, ago(1000), { type: 'withdraw' });
    await statement(p, 1_000, ago(1000), { type: 'bonus' });
    await statement(other, 999_999, ago(1000));
    await gift(p, 5_000, ago(1000)); // reserved: counts
    await gift(p, 0, ago(1000)); // not yet reserved
    await gift(p, 9_000, ago(1000), 'IN_PROGRESS', 'DEPOSIT_LIMIT'); // held beyond a limit: not a deposit yet
    await gift(p, 7_000, ago(1000), 'FAILED');
    await gift(p, 7_000, ago(1000), 'SUCCESS'); // its SUCCESS statement line counts, not the gift row
    await gift(p, 3_000, ago(2 * 24 * H)); // week
    expect(await depositUsage(db, p, windowStart(NOW, 'day'))).toBe(35_000);
    expect(await depositUsage(db, p, windowStart(NOW, 'week'))).toBe(35_000 + 40_000 + 3_000);
    expect(await depositUsage(db, p, windowStart(NOW, 'month'))).toBe(35_000 + 40_000 + 3_000 + 80_000);
  });

  test('checkDepositAllowed and depositWithinLimits: usage + amount may reach a limit, not pass it; every window counts', async () => {
    const p = await player();
    await statement(p, 60_000, ago(2 * H));
    await statement(p, 30_000, ago(3 * 24 * H));
    await limit(p, 'deposit_day', 100_000);
    await limit(p, 'deposit_week', 120_000);
    expect(await code(db.transaction().execute((trx) => checkDepositAllowed(trx, p, 30_000, NOW)))).toBe('ok');
    expect(await code(db.transaction().execute((trx) => checkDepositAllowed(trx, p, 30_001, NOW)))).toBe('422 DEPOSIT_LIMIT'); // the week
    expect(await depositWithinLimits(db, p, 30_000, NOW)).toBe(true);
    expect(await depositWithinLimits(db, p, 30_001, NOW)).toBe(false);
    // A day later the 60,000 left the day window but not the week.
    const later = new Date(NOW.getTime() + 24 * H);
    expect(await depositWithinLimits(db, p, 30_001, later)).toBe(false);
    expect(await depositWithinLimits(db, p, 30_000, later)).toBe(true);
  });

  test('no limit: anything passes without reading usage', async () => {
    const p = await player();
    await statement(p, 1e9, ago(1000));
    expect(await depositWithinLimits(db, p, 1e9, NOW)).toBe(true);
    expect(await code(checkDepositAllowed(db, p, 1e9, NOW))).toBe('ok');
  });

  test('a pending raise counts from its time; before it, the lower value holds', async () => {
    const p = await player();
    await limit(p, 'deposit_month', 10_000, { value: 50_000, at: new Date(NOW.getTime() + H).toISOString() });
    expect(await depositWithinLimits(db, p, 20_000, NOW)).toBe(false);
    expect(await depositWithinLimits(db, p, 20_000, new Date(NOW.getTime() + H))).toBe(true);
  });

  test('a pending removal: from its time, no limit', async () => {
    const p = await player();
    await limit(p, 'deposit_day', 10_000, { value: null, at: new Date(NOW.getTime() + H).toISOString() });
    expect(await depositWithinLimits(db, p, 20_000, NOW)).toBe(false);
    expect(await depositWithinLimits(db, p, 20_000, new Date(NOW.getTime() + 2 * H))).toBe(true);
  });
});

describe('loss usage', () => {
  test('sum(bet - win) of the player\'s rounds in the window, floored at 0', async () => {
    const p = await player();
    await round(p, 10_000, 2_000, ago(H)); // -8,000
    await round(p, 5_000, 0, ago(2 * 24 * H)); // week: -5,000
    await round(p, 1_000, 50_000, ago(20 * 24 * H)); // month: +49,000
    await round(null, 99_999, 0, ago(H)); // nobody's
    expect(await lossUsage(db, p, windowStart(NOW, 'day'))).toBe(8_000);
    expect(await lossUsage(db, p, windowStart(NOW, 'week'))).toBe(13_000);
    expect(await lossUsage(db, p, windowStart(NOW, 'month'))).toBe(0); // a net win is no loss
    expect(await netResult(db, p, windowStart(NOW, 'month'))).toBe(36_000);
  });

  test('checkLossAllowed: the loss so far plus everything moved in must stay within each loss limit', async () => {
    const p = await player();
    await round(p, 30_000, 10_000, ago(H));
    await limit(p, 'loss_day', 50_000);
    expect(await code(checkLossAllowed(db, p, 30_000, NOW))).toBe('ok');
    expect(await code(checkLossAllowed(db, p, 30_001, NOW))).toBe('422 LOSS_LIMIT');
    // A win brings the day's loss down, so more may be moved in.
    await round(p, 0, 20_000, ago(H / 2));
    expect(await code(checkLossAllowed(db, p, 50_000, NOW))).toBe('ok');
    expect(await code(checkLossAllowed(db, p, 50_001, NOW))).toBe('422 LOSS_LIMIT');
  });

  test('deposit limits do not limit losses and loss limits do not limit deposits', async () => {
    const p = await player();
    await limit(p, 'deposit_day', 1);
    await limit(p, 'loss_day', 1);
    expect(await code(checkLossAllowed(db, p, 1, NOW))).toBe('ok');
    expect(await depositWithinLimits(db, p, 1, NOW)).toBe(true);
    expect(await code(checkLossAllowed(db, p, 2, NOW))).toBe('422 LOSS_LIMIT');
    expect(await depositWithinLimits(db, p, 2, NOW)).toBe(false);
  });
});

describe('assertMayPlay', () => {
  async function session(playerId: number, createdAt: string) {
    seq += 1;
    const id = `sess-${process.pid}-${seq}`;
    await db.insertInto('sessions').values({ id, player_id: playerId, created_at: createdAt, expires_at: ago(-100 * H), revoked_at: null }).execute();
    return id;
  }

  test('the session limit counts from sessions.created_at in PLAY_MINUTE_MS minutes', async () => {
    const p = await player();
    const s = await session(p, ago(10 * 60_000));
    await limit(p, 'session', 10);
    expect(await code(assertMayPlay(db, p, s, new Date(NOW.getTime() - 1), 60_000))).toBe('ok');
    expect(await code(assertMayPlay(db, p, s, NOW, 60_000))).toBe('403 SESSION_LIMIT');
    // With a 1-second "minute" the same session is far past 10 minutes.
    const young = await session(p, ago(11_000));
    expect(await code(assertMayPlay(db, p, young, NOW, 1000))).toBe('403 SESSION_LIMIT');
    expect(await code(assertMayPlay(db, p, young, NOW, 60_000))).toBe('ok');
  });

  test('a restriction wins over the session; an exclusion over a time-out', async () => {
    const p = await player();
    const s = await session(p, ago(1000));
    expect(await code(assertMayPlay(db, p, s, NOW, 60_000))).toBe('ok');
    await db.insertInto('play_restrictions').values({ player_id: p, kind: 'TIMEOUT', period: '30d', starts_at: ago(H), ends_at: ago(-30 * 24 * H), created_at: ago(H) }).execute();
    expect(await code(assertMayPlay(db, p, s, NOW, 60_000))).toBe('403 PLAY_TIMEOUT');
    await db.insertInto('play_restrictions').values({ player_id: p, kind: 'EXCLUSION', period: '6m', starts_at: ago(H), ends_at: ago(-24 * H), created_at: ago(H) }).execute();
    expect(await code(assertMayPlay(db, p, s, NOW, 60_000))).toBe('403 SELF_EXCLUDED');
    expect(await code(assertMayPlay(db, p, s, new Date(NOW.getTime() + 24 * H), 60_000))).toBe('403 PLAY_TIMEOUT');
    expect(await code(assertMayPlay(db, p, s, new Date(NOW.getTime() + 30 * 24 * H), 60_000))).toBe('ok');
  });
});

describe('holdDeposit', () => {
  test('writes a HELD row and an IN_PROGRESS deposit line naming the hold; the held amount is not deposit usage', async () => {
    const p = await player();
    const id = await db.transaction().execute((trx) => holdDeposit(trx, { playerId: p, source: 'qr', refId: `qr-${p}`, amount: 12_300, currency: 'THB', now: NOW, from: 'KBANK' }));
    expect(id).toMatch(/^hld_[0-9a-f]{32}$/);
    const hold = await db.selectFrom('deposit_holds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect({ ...hold, amount: Number(hold.amount), player_id: Number(hold.player_id) }).toEqual({
      id, player_id: p, source: 'qr', ref_id: `qr-${p}`, amount: 12_300, currency: 'THB', reason: 'DEPOSIT_LIMIT', status: 'HELD', created_at: NOW.toISOString(), updated_at: NOW.toISOString(),
    });
    const line = await db.selectFrom('statements').selectAll().where('ref_type', '=', 'hold').where('ref_id', '=', id).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ statement_type: 'deposit', status: 'IN_PROGRESS', from_account: 'KBANK', to_account: 'WALLET', currency: 'THB' });
    expect(Number(line.amount)).toBe(12_300);
    expect(await depositUsage(db, p, windowStart(new Date(), 'day'))).toBe(0);
  });

  test('a deposit is held once: a second hold of the same reference fails and rolls its statement line back', async () => {
    const p = await player();
    const h = { playerId: p, source: 'slip' as const, refId: `slip-${p}`, amount: 100, currency: 'THB', now: NOW };
    await db.transaction().execute((trx) => holdDeposit(trx, h));
    // The unique reference refuses it (SQLite's or PostgreSQL's unique-violation code; not toThrow, which does not
    // take better-sqlite3's error object for an Error in every jest sandbox).
    const second = await db.transaction().execute((trx) => holdDeposit(trx, h)).then(
      () => 'held twice',
      (e: unknown) => String((e as { code?: unknown }).code),
    );
    expect(second).toMatch(/^(SQLITE_CONSTRAINT_UNIQUE|23505)$/);
    const lines = await db.selectFrom('statements').select('id').where('player_id', '=', p).execute();
    expect(lines).toHaveLength(1);
    const line = await db.selectFrom('statements').select('from_account').where('player_id', '=', p).executeTakeFirstOrThrow();
    expect(line.from_account).toBe('SLIP');
  });
});

test('resolveLimit: no row is no limit; a pending change wins from its time on', () => {
  expect(resolveLimit(undefined, NOW)).toEqual({ value: null, pending: null });
  const row = { value: 100, pending_set: 1, pending_value: 500, pending_at: NOW.toISOString() };
  expect(resolveLimit(row, new Date(NOW.getTime() - 1))).toEqual({ value: 100, pending: { value: 500, at: NOW.toISOString() } });
  expect(resolveLimit(row, NOW)).toEqual({ value: 500, pending: null });
  expect(resolveLimit({ ...row, pending_set: 0 }, NOW)).toEqual({ value: 100, pending: null });
});

// Issue 13: loadLimits reads all of the player's rows in one prepared statement and keeps the kinds asked for.
test('loadLimits answers the kinds asked for; the others are no limit', async () => {
  const p = await player();
  await limit(p, 'session', 30);
  await limit(p, 'loss_day', 5_000);
  const onlySession = await loadLimits(db, p, NOW, ['session']);
  expect(onlySession.session.value).toBe(30);
  expect(onlySession.loss_day.value).toBeNull();
  const loss = await loadLimits(db, p, NOW, ['loss_day', 'loss_week', 'loss_month']);
  expect(loss.loss_day.value).toBe(5_000);
  expect(loss.loss_week.value).toBeNull();
  expect(loss.session.value).toBeNull();
  const all = await loadLimits(db, p, NOW);
  expect([all.session.value, all.loss_day.value, all.deposit_day.value]).toEqual([30, 5_000, null]);
});
