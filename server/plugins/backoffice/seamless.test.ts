import { buildWalletTestApp, depositTo, insertPlayer, type WalletTestApp } from '../../test/support/ledger';
import { lockPlayer, postEntry, reverseEntry, runAudit, systemAccount, walletAccount } from '../../ledger';
import { TRANSIT_BUCKETS } from '../../ledger/accounts';
import type { SeamlessKind, SeamlessStatus } from '../../db/schema-seamless';
import { bearer, playerWithToken } from '../../test/support/accounts';
import { betBody, rollbackBody, SEAMLESS_GAME, seamlessPlayer, signedCall, winBody } from '../../test/support/seamless';
import { createStaff } from '../../test/support/staff';
import { roundKey } from '../seamless/service';
import { seamlessUserId } from '../seamless/users';
import { betRoundKey, REPORT_MAX_DAYS, ROUNDS_PAGE } from './seamless';

/**
 * Back office of the seamless wallet (docs/seamless-wallet.md "Back office"): a player's rounds and the reconciliation
 * report, through app.inject on the engine under test. The rows are written as the Wallet API writes them
 * (DESIGN-42.md "Money"): one ledger entry per bet (wallet -> seamless_house:{game}-{bucket}), win (back) and
 * rollback (reverseEntry of the bet), each with its seamless_transactions row and the bet_rounds row, in one
 * transaction under the player lock.
 */
jest.setTimeout(120_000);

let t: WalletTestApp;
let support: { token: string };
let payments: { token: string };
let admin: { token: string };
beforeAll(async () => {
  t = await buildWalletTestApp();
  [support, payments, admin] = [await createStaff(t.app, { role: 'support' }), await createStaff(t.app, { role: 'payments' }), await createStaff(t.app, { role: 'admin' })];
  for (const [code, name] of [
    ['sl-dragon', 'Dragon Rising'],
    ['sl-lotus', 'Lotus Reels'],
  ]) {
    await t.db.db
      .insertInto('games')
      .values({
        code, name, category: 'slot', ft_wallet_slot: 1, logo: `/games/${code}-logo.png`, background: `/games/${code}-bg.svg`, has_web: 1, android: null, ios: null,
        login_with_password: 0, active: 1, sort: 900, wallet_mode: 'seamless', aggregator: 'hub88', aggregator_game_code: `clt_${code}`,
      })
      .execute();
  }
});
afterAll(() => t.close());
afterEach(async () => {
  // Every row these tests write is a real, balanced entry: the ledger audit stays clean.
  expect((await runAudit(t.db.db)).violations).toEqual([]);
});

type Res = { statusCode: number; json(): unknown };
const answer = (res: Res) => (res.statusCode < 400 ? `${res.statusCode} ok` : `${res.statusCode} ${(res.json() as { message?: string }).message}`);

let uuidSeq = 0;
const uuid = () => `tx-${process.pid}-${++uuidSeq}`;

/** A funded player (baht) of the engine under test. */
async function player(baht = 1000): Promise<number> {
  const id = await insertPlayer(t.db.db);
  await depositTo(t.db.db, id, baht * 100);
  return id;
}

const house = (playerId: number, game: string) => systemAccount('seamless_house', `${game}-${playerId % TRANSIT_BUCKETS}`);

/**
 * One Wallet API transaction as H1's service writes it: the entry, the seamless_transactions row and the bet_rounds
 * row in one transaction. `at` backdates the rows and the entry's postings to another day (the ledger stamps its
 * postings with the wall clock), so a report of a past day can be written in a test.
 */
async function write(
  tx: { playerId: number; game: string; round: string; kind: SeamlessKind; satang: number; uuid?: string; reference?: string; status?: SeamlessStatus; closes?: boolean; at?: string; postedAt?: string },
): Promise<string> {
  const id = tx.uuid ?? uuid();
  await t.db.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, tx.playerId);
    const now = tx.at ?? new Date().toISOString();
    const status = tx.status ?? 'OK';
    let entryId: number | null = null;
    if (status !== 'REFUSED') {
      const reference = `seamless:hub88:${id}`;
      if (tx.kind === 'bet') {
        entryId = (await postEntry(trx, { kind: 'seamless_bet', reference, playerId: tx.playerId, postings: [{ account: walletAccount(tx.playerId), amount: -tx.satang }, { account: house(tx.playerId, tx.game), amount: tx.satang }] })).id;
      } else if (tx.kind === 'win' && tx.satang > 0) {
        entryId = (await postEntry(trx, { kind: 'seamless_win', reference, playerId: tx.playerId, postings: [{ account: house(tx.playerId, tx.game), amount: -tx.satang }, { account: walletAccount(tx.playerId), amount: tx.satang }] })).id;
      } else if (tx.kind === 'rollback' && tx.reference) {
        entryId = (await reverseEntry(trx, { originalReference: `seamless:hub88:${tx.reference}`, reference, kind: 'seamless_rollback' })).id;
        await trx.updateTable('seamless_transactions').set({ status: 'ROLLED_BACK', updated_at: now }).where('aggregator', '=', 'hub88').where('transaction_uuid', '=', tx.reference).execute();
      }
    }
    const postedAt = tx.postedAt ?? tx.at;
    if (entryId !== null && postedAt) {
      await trx.updateTable('ledger_postings').set({ created_at: postedAt }).where('entry_id', '=', entryId).execute();
      await trx.updateTable('journal_entries').set({ created_at: postedAt }).where('id', '=', entryId).execute();
    }
    await trx
      .insertInto('seamless_transactions')
      .values({
        aggregator: 'hub88', transaction_uuid: id, kind: tx.kind, player_id: tx.playerId, game_code: tx.game, round_id: tx.round, reference_transaction_uuid: tx.reference ?? null,
        amount: tx.satang, currency: 'THB', status, answer: JSON.stringify({ status: status === 'REFUSED' ? 'RS_ERROR_NOT_ENOUGH_MONEY' : 'RS_OK' }), created_at: now, updated_at: now,
      })
      .execute();
    if (status === 'REFUSED' || tx.kind === 'rollback') return;
    // bet_rounds keys the round per player, as the Wallet API does.
    const roundId = roundKey(seamlessUserId(tx.playerId), tx.round);
    const round = await trx.selectFrom('bet_rounds').select(['id', 'bet', 'win']).where('game_code', '=', tx.game).where('round_id', '=', roundId).executeTakeFirst();
    const open = tx.kind === 'bet' ? 1 : tx.closes === false ? 1 : 0;
    if (!round) {
      await trx
        .insertInto('bet_rounds')
        .values({ game_code: tx.game, round_id: roundId, username: seamlessUserId(tx.playerId), player_id: tx.playerId, bet: tx.kind === 'bet' ? tx.satang : 0, win: tx.kind === 'win' ? tx.satang : 0, played_at: now, user_bonus_id: null, refund_id: null, created_at: now, open })
        .execute();
    } else {
      await trx
        .updateTable('bet_rounds')
        .set({ bet: Number(round.bet) + (tx.kind === 'bet' ? tx.satang : 0), win: Number(round.win) + (tx.kind === 'win' ? tx.satang : 0), open })
        .where('id', '=', round.id)
        .execute();
    }
  });
  return id;
}

const rounds = (playerId: number | string, token = support.token, cursor?: string) =>
  t.app.inject({ method: 'GET', url: `/api/staff/players/${playerId}/seamless-rounds${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`, headers: bearer(token) });
const report = (query: string, token = payments.token) => t.app.inject({ method: 'GET', url: `/api/staff/seamless/report${query}`, headers: bearer(token) });

interface Round {
  gameCode: string;
  gameName: string;
  roundId: string;
  status: string;
  bets: number;
  wins: number;
  rollbacks: number;
  net: number;
  firstAt: string;
  lastAt: string;
  transactions: { uuid: string; kind: string; amount: number; status: string; reference: string | null; createdAt: string }[];
}
interface RoundsPage {
  rounds: Round[];
  next: string | null;
}
interface Row {
  day: string;
  gameCode: string;
  gameName: string;
  currency: string;
  rounds: number;
  bets: { count: number; amount: number };
  wins: { count: number; amount: number };
  rollbacks: { count: number; amount: number };
  net: number;
  ledger: number;
  difference: number;
  mismatch: boolean;
}

describe('GET /api/staff/players/:id/seamless-rounds', () => {
  test("a player's rounds newest first: bets, wins, rollbacks, net, state and transactions; refused rows listed, never summed", async () => {
    const p = await player();
    // r1: bet 10, win 25 (closed). r2: two bets of 5, the second rolled back, win 0 closing it.
    // r3: a bet of 20 awaiting its win (open). r4: a bet refused (not enough money: nothing moved).
    // r5: a bet of 7 rolled back (rolled back).
    const b1 = await write({ playerId: p, game: 'sl-dragon', round: 'r1', kind: 'bet', satang: 1000 });
    const w1 = await write({ playerId: p, game: 'sl-dragon', round: 'r1', kind: 'win', satang: 2500 });
    await write({ playerId: p, game: 'sl-lotus', round: 'r2', kind: 'bet', satang: 500 });
    const b22 = await write({ playerId: p, game: 'sl-lotus', round: 'r2', kind: 'bet', satang: 500 });
    const rb2 = await write({ playerId: p, game: 'sl-lotus', round: 'r2', kind: 'rollback', satang: 500, reference: b22 });
    await write({ playerId: p, game: 'sl-lotus', round: 'r2', kind: 'win', satang: 0 });
    await write({ playerId: p, game: 'sl-dragon', round: 'r3', kind: 'bet', satang: 2000 });
    const refused = await write({ playerId: p, game: 'sl-dragon', round: 'r4', kind: 'bet', satang: 999_999_00, status: 'REFUSED' });
    const b5 = await write({ playerId: p, game: 'sl-dragon', round: 'r5', kind: 'bet', satang: 700 });
    await write({ playerId: p, game: 'sl-dragon', round: 'r5', kind: 'rollback', satang: 700, reference: b5 });
    // Another player's round is not theirs.
    const other = await player();
    await write({ playerId: other, game: 'sl-dragon', round: 'o1', kind: 'bet', satang: 100 });

    const res = await rounds(p);
    expect(answer(res)).toBe('200 ok');
    const body = res.json() as RoundsPage;
    expect(body.next).toBeNull();
    expect(body.rounds.map((r) => [r.roundId, r.gameCode, r.status, r.bets, r.wins, r.rollbacks, r.net])).toEqual([
      ['r5', 'sl-dragon', 'rolled_back', 7, 0, 7, 0],
      ['r4', 'sl-dragon', 'refused', 0, 0, 0, 0],
      ['r3', 'sl-dragon', 'open', 20, 0, 0, -20],
      ['r2', 'sl-lotus', 'closed', 10, 0, 5, -5],
      ['r1', 'sl-dragon', 'closed', 10, 25, 0, 15],
    ]);
    const r1 = body.rounds[4];
    expect(r1.gameName).toBe('Dragon Rising');
    expect(r1.transactions).toEqual([
      { uuid: b1, kind: 'bet', amount: 10, status: 'OK', reference: null, createdAt: expect.any(String) },
      { uuid: w1, kind: 'win', amount: 25, status: 'OK', reference: null, createdAt: expect.any(String) },
    ]);
    expect(r1.firstAt).toBe(r1.transactions[0].createdAt);
    expect(r1.lastAt).toBe(r1.transactions[1].createdAt);
    expect(body.rounds[3].transactions.map((x) => [x.kind, x.amount, x.status, x.reference])).toEqual([
      ['bet', 5, 'OK', null],
      ['bet', 5, 'ROLLED_BACK', null],
      ['rollback', 5, 'OK', b22],
      ['win', 0, 'OK', null],
    ]);
    expect(body.rounds[3].transactions[2].uuid).toBe(rb2);
    expect(body.rounds[1].transactions).toEqual([{ uuid: refused, kind: 'bet', amount: 999_999, status: 'REFUSED', reference: null, createdAt: expect.any(String) }]);

    // The numbers are the ledger's: the wallet moved by exactly the rounds' nets (1000 - 20 - 5 + 15 = 990).
    const wallet = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', `wallet:${p}`).executeTakeFirstOrThrow();
    expect(Number(wallet.balance)).toBe((1000 + body.rounds.reduce((s, r) => s + r.net, 0)) * 100);
    expect(Number(wallet.balance)).toBe(99_000);
  });

  test('pages of 20 by the first transaction: nothing repeats or goes missing while rounds grow and new ones start', async () => {
    const p = await player(10_000);
    const total = ROUNDS_PAGE * 2 + 5;
    for (let i = 1; i <= total; i++) await write({ playerId: p, game: 'sl-dragon', round: `pg-${i}`, kind: 'bet', satang: 100 * i });
    const first = (await rounds(p)).json() as RoundsPage;
    expect(first.rounds).toHaveLength(ROUNDS_PAGE);
    expect(first.rounds[0].roundId).toBe(`pg-${total}`);
    expect(first.next).toMatch(/^\d+$/);
    // Meanwhile: a win closes a round of the next page, and a new round starts (it belongs to a fresh first page).
    await write({ playerId: p, game: 'sl-dragon', round: 'pg-10', kind: 'win', satang: 300 });
    await write({ playerId: p, game: 'sl-dragon', round: 'pg-new', kind: 'bet', satang: 100 });
    const second = (await rounds(p, support.token, first.next!)).json() as RoundsPage;
    expect(second.rounds).toHaveLength(ROUNDS_PAGE);
    const third = (await rounds(p, support.token, second.next!)).json() as RoundsPage;
    expect(third.rounds).toHaveLength(5);
    expect(third.next).toBeNull();
    const seen = [...first.rounds, ...second.rounds, ...third.rounds].map((r) => r.roundId);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => `pg-${total - i}`));
    const r10 = second.rounds.find((r) => r.roundId === 'pg-10')!;
    expect([r10.status, r10.bets, r10.wins, r10.net]).toEqual(['closed', 10, 3, -7]);
    expect(((await rounds(p)).json() as RoundsPage).rounds[0].roundId).toBe('pg-new');
  });

  test('a player without rounds, unknown and malformed ids, bad cursors', async () => {
    const p = await player();
    expect((await rounds(p)).json()).toEqual({ rounds: [], next: null });
    expect(answer(await rounds(999_999_999))).toBe('404 NO_DATA');
    expect(answer(await rounds('abc'))).toBe('404 NO_DATA');
    expect(answer(await rounds(0))).toBe('404 NO_DATA');
    for (const bad of ['abc', '-1', '0', '1.5', '9'.repeat(20)]) expect(answer(await rounds(p, support.token, bad))).toBe('400 INVALID_CURSOR');
    const twice = await t.app.inject({ method: 'GET', url: `/api/staff/players/${p}/seamless-rounds?cursor=5&cursor=6`, headers: bearer(support.token) });
    expect(answer(twice)).toBe('400 INVALID_CURSOR');
    // An empty cursor is the first page (the console's first call may send it so).
    expect(answer(await rounds(p, support.token, ''))).toBe('200 ok');
  });

  test('every staff role may read it, each page audited; a player token or none is refused', async () => {
    const p = await player();
    await write({ playerId: p, game: 'sl-dragon', round: 'aud-1', kind: 'bet', satang: 100 });
    for (const s of [support, payments, admin]) expect(answer(await rounds(p, s.token))).toBe('200 ok');
    expect(answer(await rounds(p, support.token, '12345'))).toBe('200 ok');
    const audit = await t.db.db
      .selectFrom('staff_audit')
      .select(['action', 'subject_type', 'subject_id', 'detail'])
      .where('action', '=', 'player.seamless_rounds')
      .where('subject_id', '=', String(p))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.detail)).toEqual([null, null, null, '{"cursor":"12345"}']);
    expect(audit.every((a) => a.subject_type === 'player')).toBe(true);
    // Refusals write no audit row.
    const before = await t.db.db.selectFrom('staff_audit').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const own = await playerWithToken(t.app);
    expect(answer(await rounds(p, own.token))).toBe('401 invalid-token');
    expect(answer(await t.app.inject({ method: 'GET', url: `/api/staff/players/${p}/seamless-rounds` }))).toBe('401 UNAUTHORIZED');
    expect(answer(await rounds(999_999_998))).toBe('404 NO_DATA');
    expect(answer(await rounds(p, support.token, 'x'))).toBe('400 INVALID_CURSOR');
    const after = await t.db.db.selectFrom('staff_audit').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('GET /api/staff/seamless/report', () => {
  test('per game and UTC day: rounds, bets, wins, rollbacks, the house result and the ledger check; refused rows do not count', async () => {
    const [a, b] = [await player(), await player()];
    const d1 = '2020-03-01';
    const d2 = '2020-03-02';
    const at = (day: string, hms: string) => `${day}T${hms}.000Z`;
    // Day 1, sl-dragon: player a: bet 10 + win 4 (r1), bet 6 rolled back (r2); player b: bet 20 (r3, open).
    await write({ playerId: a, game: 'sl-dragon', round: 'rep-r1', kind: 'bet', satang: 1000, at: at(d1, '00:00:00') });
    await write({ playerId: a, game: 'sl-dragon', round: 'rep-r1', kind: 'win', satang: 400, at: at(d1, '00:00:05') });
    const b2 = await write({ playerId: a, game: 'sl-dragon', round: 'rep-r2', kind: 'bet', satang: 600, at: at(d1, '12:00:00') });
    await write({ playerId: a, game: 'sl-dragon', round: 'rep-r2', kind: 'rollback', satang: 600, reference: b2, at: at(d1, '12:00:01') });
    await write({ playerId: b, game: 'sl-dragon', round: 'rep-r3', kind: 'bet', satang: 2000, at: at(d1, '23:59:59') });
    // A refused bet moved nothing and counts nowhere.
    await write({ playerId: b, game: 'sl-dragon', round: 'rep-r4', kind: 'bet', satang: 5_000_00, status: 'REFUSED', at: at(d1, '13:00:00') });
    // Day 1, sl-lotus: player b: bet 5, win 12.50.
    await write({ playerId: b, game: 'sl-lotus', round: 'rep-l1', kind: 'bet', satang: 500, at: at(d1, '08:00:00') });
    await write({ playerId: b, game: 'sl-lotus', round: 'rep-l1', kind: 'win', satang: 1250, at: at(d1, '08:00:02') });
    // Day 2, sl-dragon: r3's win of 30 comes after midnight.
    await write({ playerId: b, game: 'sl-dragon', round: 'rep-r3', kind: 'win', satang: 3000, at: at(d2, '00:00:01') });

    const res = await report(`?from=${d1}&to=${d2}`);
    expect(answer(res)).toBe('200 ok');
    const body = res.json() as { from: string; to: string; rows: Row[]; mismatches: number };
    expect([body.from, body.to, body.mismatches]).toEqual([d1, d2, 0]);
    expect(body.rows).toEqual([
      {
        day: d1, gameCode: 'sl-dragon', gameName: 'Dragon Rising', currency: 'THB', rounds: 3,
        bets: { count: 3, amount: 36 }, wins: { count: 1, amount: 4 }, rollbacks: { count: 1, amount: 6 }, net: 26, ledger: 26, difference: 0, mismatch: false,
      },
      {
        day: d1, gameCode: 'sl-lotus', gameName: 'Lotus Reels', currency: 'THB', rounds: 1,
        bets: { count: 1, amount: 5 }, wins: { count: 1, amount: 12.5 }, rollbacks: { count: 0, amount: 0 }, net: -7.5, ledger: -7.5, difference: 0, mismatch: false,
      },
      {
        day: d2, gameCode: 'sl-dragon', gameName: 'Dragon Rising', currency: 'THB', rounds: 0,
        bets: { count: 0, amount: 0 }, wins: { count: 1, amount: 30 }, rollbacks: { count: 0, amount: 0 }, net: -30, ledger: -30, difference: 0, mismatch: false,
      },
    ]);
    // One day alone, and a range around it with nothing else.
    expect(((await report(`?from=${d2}&to=${d2}`)).json() as { rows: Row[] }).rows.map((r) => [r.day, r.gameCode, r.net])).toEqual([[d2, 'sl-dragon', -30]]);
    expect(((await report('?from=2020-02-01&to=2020-02-29')).json() as { rows: Row[] }).rows).toEqual([]);
  });

  test('a ledger movement without its transaction, or a transaction without its entry, is flagged on its row', async () => {
    const p = await player();
    const day = '2020-04-10';
    await write({ playerId: p, game: 'sl-dragon', round: 'mm-1', kind: 'bet', satang: 1000, at: `${day}T10:00:00.000Z` });
    await write({ playerId: p, game: 'sl-lotus', round: 'mm-2', kind: 'bet', satang: 800, at: `${day}T10:00:00.000Z` });
    expect(((await report(`?from=${day}&to=${day}`)).json() as { mismatches: number }).mismatches).toBe(0);

    // Money taken into sl-dragon's house account with no Wallet API transaction (a hand-made entry).
    const adjust = async (satang: number, at: string) =>
      t.db.db.transaction().execute(async (trx) => {
        const e = await postEntry(trx, { kind: 'adjustment', reference: `test-adjust:${uuid()}`, currency: 'THB', postings: [{ account: systemAccount('refund_budget'), amount: -satang }, { account: house(p, 'sl-dragon'), amount: satang }] });
        await trx.updateTable('ledger_postings').set({ created_at: at }).where('entry_id', '=', e.id).execute();
      });
    await adjust(250, `${day}T11:00:00.000Z`);
    // A win recorded as applied whose entry is missing (a row written outside the service).
    const orphan = uuid();
    await t.db.db
      .insertInto('seamless_transactions')
      .values({ aggregator: 'hub88', transaction_uuid: orphan, kind: 'win', player_id: p, game_code: 'sl-lotus', round_id: 'mm-2', reference_transaction_uuid: null, amount: 300, currency: 'THB', status: 'OK', answer: '{}', created_at: `${day}T10:00:09.000Z`, updated_at: `${day}T10:00:09.000Z` })
      .execute();

    const body = (await report(`?from=${day}&to=${day}`, admin.token)).json() as { rows: Row[]; mismatches: number };
    expect(body.mismatches).toBe(2);
    expect(body.rows.map((r) => [r.gameCode, r.net, r.ledger, r.difference, r.mismatch])).toEqual([
      ['sl-dragon', 10, 12.5, 2.5, true],
      ['sl-lotus', 5, 8, 3, true],
    ]);
    // The ledger audit (afterEach) sees the same two faults: they are undone on another day (the house money goes
    // back, the orphan row goes) so the tests after this one start from sound books.
    await adjust(-250, '2020-04-11T11:00:00.000Z');
    await t.db.db.deleteFrom('seamless_transactions').where('aggregator', '=', 'hub88').where('transaction_uuid', '=', orphan).execute();
    // The hand-made entry stays on its day; the orphan row is gone with its mismatch.
    expect(((await report(`?from=${day}&to=${day}`)).json() as { mismatches: number }).mismatches).toBe(1);
    expect(((await report('?from=2020-04-11&to=2020-04-11')).json() as { rows: Row[] }).rows.map((r) => [r.gameCode, r.net, r.ledger, r.mismatch])).toEqual([['sl-dragon', 0, -2.5, true]]);
  });

  test("an entry posted just after midnight for a transaction of the day before counts on its transaction's day", async () => {
    const p = await player();
    // The Wallet API stamps the row when its transaction starts and the ledger its postings a moment later.
    await write({ playerId: p, game: 'sl-dragon', round: 'mid-1', kind: 'bet', satang: 1000, at: '2020-06-01T23:59:59.990Z', postedAt: '2020-06-02T00:00:00.010Z' });
    await write({ playerId: p, game: 'sl-dragon', round: 'mid-1', kind: 'win', satang: 300, at: '2020-06-02T00:00:03.000Z' });
    // A bet of 31 May posted on 1 June, at the report's first day.
    await write({ playerId: p, game: 'sl-lotus', round: 'mid-2', kind: 'bet', satang: 400, at: '2020-05-31T23:59:59.999Z', postedAt: '2020-06-01T00:00:00.001Z' });
    const both = (await report('?from=2020-06-01&to=2020-06-02')).json() as { rows: Row[]; mismatches: number };
    expect(both.rows.map((r) => [r.day, r.gameCode, r.net, r.ledger, r.mismatch])).toEqual([
      ['2020-06-01', 'sl-dragon', 10, 10, false],
      ['2020-06-02', 'sl-dragon', -3, -3, false],
    ]);
    expect(((await report('?from=2020-06-01&to=2020-06-01')).json() as { rows: Row[] }).rows.map((r) => [r.gameCode, r.net, r.ledger, r.mismatch])).toEqual([['sl-dragon', 10, 10, false]]);
    expect(((await report('?from=2020-05-31&to=2020-05-31')).json() as { rows: Row[] }).rows.map((r) => [r.gameCode, r.net, r.ledger, r.mismatch])).toEqual([['sl-lotus', 4, 4, false]]);
  });

  test('dates: missing, malformed or impossible days, a reversed range and one over 92 days are refused with their codes', async () => {
    for (const q of ['', '?from=2020-01-01', '?to=2020-01-01', '?from=2020-1-01&to=2020-01-02', '?from=2020-02-30&to=2020-03-01', '?from=2020-01-01&to=2020-13-01', '?from=20200101&to=20200102', '?from=2020-01-01T00:00&to=2020-01-02', '?from=2020-01-01&from=2020-01-02&to=2020-01-03']) {
      expect([q, answer(await report(q))]).toEqual([q, '400 INVALID_DATE']);
    }
    expect(answer(await report('?from=2020-03-02&to=2020-03-01'))).toBe('400 INVALID_RANGE');
    // 92 days inclusive is the longest: 2020-01-01 .. 2020-04-01 (31 + 29 + 31 + 1 days).
    expect(REPORT_MAX_DAYS).toBe(92);
    expect(answer(await report('?from=2020-01-01&to=2020-04-01'))).toBe('200 ok');
    expect(answer(await report('?from=2020-01-01&to=2020-04-02'))).toBe('400 RANGE_TOO_LONG');
    expect(answer(await report('?from=2020-02-29&to=2020-02-29'))).toBe('200 ok');
  });

  test('payments and admin may read it; support is refused with 403, a player token and none with 401', async () => {
    const q = '?from=2020-05-01&to=2020-05-01';
    expect(answer(await report(q, payments.token))).toBe('200 ok');
    expect(answer(await report(q, admin.token))).toBe('200 ok');
    expect(answer(await report(q, support.token))).toBe('403 UNAUTHORIZED');
    const own = await playerWithToken(t.app);
    expect(answer(await report(q, own.token))).toBe('401 invalid-token');
    expect(answer(await t.app.inject({ method: 'GET', url: `/api/staff/seamless/report${q}` }))).toBe('401 UNAUTHORIZED');
  });
});

describe('rounds played through the signed Wallet API', () => {
  test("the player view shows them as played and the report's ledger check agrees", async () => {
    const p = await seamlessPlayer(t.app, { balance: 100_000 });
    const call = async (path: string, body: Record<string, unknown>) => (await signedCall(t.app, path, body)).body.status;
    // r1: bet 25, win 40 (closed); the win's retry is answered again and writes nothing.
    const b1 = betBody(p, 2_500);
    expect(await call('/transaction/bet', b1)).toBe('RS_OK');
    const w1 = winBody(p, b1, 4_000);
    expect(await call('/transaction/win', w1)).toBe('RS_OK');
    expect(await call('/transaction/win', { ...w1, request_uuid: 'retry-1' })).toBe('RS_OK');
    // r2: bet 10, rolled back.
    const b2 = betBody(p, 1_000);
    expect(await call('/transaction/bet', b2)).toBe('RS_OK');
    expect(await call('/transaction/rollback', rollbackBody(p, b2))).toBe('RS_OK');
    // r3: bet 5 awaiting its win.
    const b3 = betBody(p, 500);
    expect(await call('/transaction/bet', b3)).toBe('RS_OK');
    // r4: a bet over the balance, refused.
    const b4 = betBody(p, 10_000_000);
    expect(await call('/transaction/bet', b4)).toBe('RS_ERROR_NOT_ENOUGH_MONEY');
    // r5: the rollback of a bet that never arrived, then the late bet, refused.
    const b5 = betBody(p, 700);
    expect(await call('/transaction/rollback', rollbackBody(p, b5))).toBe('RS_OK');
    expect(await call('/transaction/bet', b5)).toBe('RS_ERROR_TRANSACTION_ROLLED_BACK');

    // The back office's copy of the Wallet API's round key is the one the Wallet API wrote.
    expect(betRoundKey(p.id, String(b3.round))).toBe(roundKey(p.user, String(b3.round)));
    const open = await t.db.db.selectFrom('bet_rounds').select('open').where('game_code', '=', SEAMLESS_GAME).where('round_id', '=', betRoundKey(p.id, String(b3.round))).executeTakeFirstOrThrow();
    expect(Number(open.open)).toBe(1);
    const body = (await rounds(p.id)).json() as RoundsPage;
    expect(body.rounds.map((r) => [r.roundId, r.gameCode, r.status, r.bets, r.wins, r.rollbacks, r.net])).toEqual([
      [b5.round, SEAMLESS_GAME, 'rolled_back', 0, 0, 0, 0],
      [b4.round, SEAMLESS_GAME, 'refused', 0, 0, 0, 0],
      [b3.round, SEAMLESS_GAME, 'open', 5, 0, 0, -5],
      [b2.round, SEAMLESS_GAME, 'rolled_back', 10, 0, 10, 0],
      [b1.round, SEAMLESS_GAME, 'closed', 25, 40, 0, 15],
    ]);
    expect(body.rounds[4].transactions.map((x) => [x.uuid, x.kind, x.amount, x.status])).toEqual([
      [b1.transaction_uuid, 'bet', 25, 'OK'],
      [w1.transaction_uuid, 'win', 40, 'OK'],
    ]);
    expect(body.rounds[3].transactions.map((x) => [x.kind, x.status, x.reference])).toEqual([
      ['bet', 'ROLLED_BACK', null],
      ['rollback', 'OK', b2.transaction_uuid],
    ]);
    // The wallet moved by the sum of the rounds' results.
    const wallet = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', `wallet:${p.id}`).executeTakeFirstOrThrow();
    expect(Number(wallet.balance)).toBe(100_000 + body.rounds.reduce((sum, r) => sum + r.net * 100, 0));

    // The report around today (a day either side, so a run across midnight UTC still finds every row).
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const rows = ((await report(`?from=${day(-1)}&to=${day(1)}`)).json() as { rows: Row[] }).rows.filter((r) => r.gameCode === SEAMLESS_GAME);
    const total = (f: (r: Row) => number) => rows.reduce((sum, r) => sum + f(r), 0);
    expect(rows.every((r) => !r.mismatch)).toBe(true);
    expect([total((r) => r.rounds), total((r) => r.bets.count), total((r) => r.bets.amount), total((r) => r.wins.amount), total((r) => r.rollbacks.amount), total((r) => r.net), total((r) => r.ledger)]).toEqual([
      3, 3, 40, 40, 10, -10, -10,
    ]);
  });
});
