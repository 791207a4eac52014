import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SeamlessKind, SeamlessStatus } from '../../db/schema-seamless';
import { badRequest, notFound } from '../../errors';
import { toBaht } from '../../ledger';
import { TRANSIT_BUCKETS } from '../../ledger/accounts';
import { recordStaffAction } from '../staff';
import { roundKey, seamlessUserId } from '../seamless';
import * as repo from './seamless-repository';
import { errors } from './schemas';
import { idOf } from './service';

/**
 * Back office of the seamless wallet (issue 42, docs/seamless-wallet.md "Back office"): a player's seamless rounds
 * for the player view, and the reconciliation report of rounds per game and UTC day against the ledger's
 * seamless_house accounts. Reads only; amounts in baht (kip) on the wire like every staff route.
 */

/** Rounds per page of the player view. */
export const ROUNDS_PAGE = 20;
/** The longest report: a quarter (92 days: July to September), enough for a quarterly reconciliation. */
export const REPORT_MAX_DAYS = 92;

export type RoundStatus = 'open' | 'closed' | 'rolled_back' | 'refused';

export interface RoundTransaction {
  uuid: string;
  kind: SeamlessKind;
  amount: number;
  status: SeamlessStatus;
  /** A rollback's target transaction_uuid; null for bets and wins. */
  reference: string | null;
  createdAt: string;
}

export interface RoundView {
  gameCode: string;
  gameName: string;
  aggregator: string;
  roundId: string;
  currency: string;
  status: RoundStatus;
  /** Every bet taken (a bet later rolled back included), baht. */
  bets: number;
  wins: number;
  /** What rollbacks gave back (the rolled-back bets), baht. */
  rollbacks: number;
  /** The player's result of the round: wins + rollbacks - bets (positive: the player won). */
  net: number;
  firstAt: string;
  lastAt: string;
  transactions: RoundTransaction[];
}

// Input.

/** The rounds page's cursor: absent or empty for the first page, else the `next` of the page before. */
export function cursorOf(value: unknown): number | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^[1-9]\d{0,14}$/.test(value)) throw badRequest('INVALID_CURSOR');
  return Number(value);
}

const DAY_MS = 86_400_000;

/** A UTC calendar day written YYYY-MM-DD (a real date: 2026-02-30 is refused), as its midnight in ms. */
function dayOfInput(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw badRequest('INVALID_DATE');
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw badRequest('INVALID_DATE');
  return ms;
}

/**
 * The report's days, `from` to `to` inclusive: 400 INVALID_DATE (missing, malformed or not a date), INVALID_RANGE
 * (`to` before `from`), RANGE_TOO_LONG (more than REPORT_MAX_DAYS days).
 */
export function rangeOf(query: { from?: unknown; to?: unknown }): { fromIso: string; toIso: string; from: string; to: string } {
  const from = dayOfInput(query.from);
  const to = dayOfInput(query.to);
  if (to < from) throw badRequest('INVALID_RANGE');
  if ((to - from) / DAY_MS + 1 > REPORT_MAX_DAYS) throw badRequest('RANGE_TOO_LONG');
  const iso = (ms: number) => new Date(ms).toISOString();
  return { from: iso(from).slice(0, 10), to: iso(to).slice(0, 10), fromIso: iso(from), toIso: iso(to + DAY_MS) };
}

// The player's rounds.

const num = (v: number | string | null | undefined) => (v === null || v === undefined ? 0 : Number(v));

/** bet_rounds' key of a seamless round: per player (a live table's round is shared by every player at it), as the Wallet API writes it. */
export const betRoundKey = (playerId: number, round: string) => roundKey(seamlessUserId(playerId), round);
const key = (game: string, round: string) => `${game}\u0000${round}`;

/**
 * The round's state from its transactions: rolled back when no bet stands and something was rolled back (the
 * statement's FAILED line), refused when nothing was taken at all, open while bet_rounds says it awaits its closing
 * win, else closed.
 */
function statusOf(rows: repo.TransactionRow[], open: boolean): RoundStatus {
  const standing = rows.some((r) => r.kind === 'bet' && r.status === 'OK');
  const rolledBack = rows.some((r) => (r.kind === 'bet' && r.status === 'ROLLED_BACK') || (r.kind === 'rollback' && r.status === 'OK'));
  if (!standing && rolledBack) return 'rolled_back';
  if (rows.every((r) => r.status === 'REFUSED')) return 'refused';
  return open ? 'open' : 'closed';
}

function roundView(rows: repo.TransactionRow[], game: string, name: string, open: boolean): RoundView {
  // REFUSED rows moved no money: listed, never summed.
  const sum = (kind: SeamlessKind) => rows.filter((r) => r.kind === kind && r.status !== 'REFUSED').reduce((s, r) => s + num(r.amount), 0);
  const bets = sum('bet');
  const wins = sum('win');
  const rollbacks = sum('rollback');
  return {
    gameCode: game,
    gameName: name,
    aggregator: rows[0].aggregator,
    roundId: rows[0].round_id,
    currency: rows[0].currency,
    status: statusOf(rows, open),
    bets: toBaht(bets),
    wins: toBaht(wins),
    rollbacks: toBaht(rollbacks),
    net: toBaht(wins + rollbacks - bets),
    firstAt: rows[0].created_at,
    lastAt: rows[rows.length - 1].created_at,
    transactions: rows.map((r) => ({
      uuid: r.transaction_uuid,
      kind: r.kind,
      amount: toBaht(num(r.amount)),
      status: r.status,
      reference: r.reference_transaction_uuid,
      createdAt: r.created_at,
    })),
  };
}

/** One page of the player's rounds, newest first; `next` continues below it (null: no older round). */
export async function playerRounds(db: Kysely<DB>, playerId: number, before: number | null): Promise<{ rounds: RoundView[]; next: string | null }> {
  // One more than a page tells whether an older page exists.
  const page = await repo.roundPage(db, playerId, before, ROUNDS_PAGE + 1);
  const shown = page.slice(0, ROUNDS_PAGE);
  if (shown.length === 0) return { rounds: [], next: null };
  const roundIds = [...new Set(shown.map((r) => r.round_id))];
  const games = [...new Set(shown.map((r) => r.game_code))];
  const betRoundOf = (round: string) => betRoundKey(playerId, round);
  const [rows, open, names] = await Promise.all([
    repo.roundTransactions(db, playerId, roundIds),
    repo.betRounds(db, games, roundIds.map(betRoundOf)),
    repo.gameNames(db, games),
  ]);
  const byRound = new Map<string, repo.TransactionRow[]>();
  for (const r of rows) {
    const k = key(r.game_code, r.round_id);
    const list = byRound.get(k);
    if (list) list.push(r);
    else byRound.set(k, [r]);
  }
  const openRounds = new Set(open.filter((b) => Number(b.open) === 1).map((b) => key(b.game_code, b.round_id)));
  const isOpen = (game: string, round: string) => openRounds.has(key(game, betRoundOf(round)));
  const nameOf = new Map(names.map((g) => [g.code, g.name]));
  const rounds = shown
    .map((r) => ({ r, list: byRound.get(key(r.game_code, r.round_id)) }))
    // A round found by the page query has rows; the guard only keeps a row written between the two reads out.
    .filter((x): x is { r: (typeof shown)[number]; list: repo.TransactionRow[] } => !!x.list && x.list.length > 0)
    .map(({ r, list }) => roundView(list, r.game_code, nameOf.get(r.game_code) ?? r.game_code, isOpen(r.game_code, r.round_id)));
  return { rounds, next: page.length > ROUNDS_PAGE ? String(num(shown[shown.length - 1].first_id)) : null };
}

// The reconciliation report.

export interface ReportRow {
  day: string;
  gameCode: string;
  gameName: string;
  currency: string;
  rounds: number;
  bets: { count: number; amount: number };
  wins: { count: number; amount: number };
  rollbacks: { count: number; amount: number };
  /** The house result: bets - wins - rollbacks. */
  net: number;
  /** The same day's movement of the game's seamless_house accounts in the ledger. */
  ledger: number;
  /** ledger - net: 0 when the books agree with the transactions. */
  difference: number;
  mismatch: boolean;
}

/**
 * The game of a seamless_house account's scope `{game}-{bucket}` (server/ledger/accounts.ts). A scope of another
 * form (a game code too long for a bucket suffix) is shown as it is: its movement then stands as a mismatch of its
 * own row, never silently dropped.
 */
export function gameOfScope(scope: string | null): string {
  const m = /^(.+)-(\d{1,2})$/.exec(scope ?? '');
  return m && Number(m[2]) < TRANSIT_BUCKETS ? m[1] : (scope ?? '');
}

/**
 * Rows per game, currency and UTC day of the range, ordered by day then game; a day without activity has no row.
 * The ledger side of a day: the house accounts' movement by the entries of that day's transactions (dated by the
 * transaction, as the house result is), plus every other movement of the accounts that day (dated by the posting):
 * an entry without its transaction, or a transaction without its entry, is a mismatch of its day.
 */
export async function seamlessReport(db: Kysely<DB>, range: { from: string; to: string; fromIso: string; toIso: string }): Promise<ReportRow[]> {
  const [days, accounts] = await Promise.all([repo.transactionDays(db, range.fromIso, range.toIso), repo.houseAccounts(db)]);
  const ids = accounts.map((a) => Number(a.id));
  // A day either side: an entry posted just after midnight for a transaction of the day before `from` is known as
  // that transaction's, not as money without one on `from`.
  const wide = { fromIso: new Date(Date.parse(range.fromIso) - DAY_MS).toISOString(), toIso: new Date(Date.parse(range.toIso) + DAY_MS).toISOString() };
  const [moved, matched] = await Promise.all([repo.accountDays(db, ids, range.fromIso, range.toIso), repo.transactionEntryDays(db, ids, wide.fromIso, wide.toIso)]);
  const accountOf = new Map(accounts.map((a) => [Number(a.id), { game: gameOfScope(a.game_code), currency: a.currency }]));
  const inRange = (day: string) => day >= range.from && day <= range.to;

  type Acc = { day: string; game: string; currency: string; t?: repo.DayRow; ledger: number };
  const rows = new Map<string, Acc>();
  const at = (day: string, game: string, currency: string) => {
    const k = `${day}\u0000${game}\u0000${currency}`;
    let r = rows.get(k);
    if (!r) rows.set(k, (r = { day, game, currency, ledger: 0 }));
    return r;
  };
  for (const d of days) at(d.day, d.game_code, d.currency).t = d;
  for (const m of moved) {
    const a = accountOf.get(Number(m.account_id));
    if (a) at(m.day, a.game, a.currency).ledger += num(m.moved);
  }
  // Movement of a transaction's entry moves from its posting's day to its transaction's.
  for (const m of matched) {
    const a = accountOf.get(Number(m.account_id));
    if (!a || m.tday === m.pday) continue;
    if (inRange(m.pday)) at(m.pday, a.game, a.currency).ledger -= num(m.moved);
    if (inRange(m.tday)) at(m.tday, a.game, a.currency).ledger += num(m.moved);
  }
  const names = new Map((await repo.gameNames(db, [...new Set([...rows.values()].map((r) => r.game))])).map((g) => [g.code, g.name]));
  return [...rows.values()]
    // A day whose only movement belonged to a transaction of another day has nothing to report.
    .filter((r) => r.t !== undefined || r.ledger !== 0)
    .sort((a, b) => (a.day === b.day ? (a.game === b.game ? a.currency.localeCompare(b.currency) : a.game < b.game ? -1 : 1) : a.day < b.day ? -1 : 1))
    .map(({ day, game, currency, t, ledger }) => {
      const bets = num(t?.bet_sum);
      const wins = num(t?.win_sum);
      const rollbacks = num(t?.rollback_sum);
      const net = bets - wins - rollbacks;
      return {
        day,
        gameCode: game,
        gameName: names.get(game) ?? game,
        currency,
        rounds: num(t?.rounds),
        bets: { count: num(t?.bet_count), amount: toBaht(bets) },
        wins: { count: num(t?.win_count), amount: toBaht(wins) },
        rollbacks: { count: num(t?.rollback_count), amount: toBaht(rollbacks) },
        net: toBaht(net),
        ledger: toBaht(ledger),
        difference: toBaht(ledger - net),
        mismatch: ledger !== net,
      };
    });
}

// Wire shapes.

const money = { type: 'number' } as const;
const counted = { type: 'object', properties: { count: { type: 'integer' }, amount: money }, required: ['count', 'amount'] } as const;

const roundsReply = {
  type: 'object',
  properties: {
    rounds: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          gameCode: { type: 'string' },
          gameName: { type: 'string' },
          aggregator: { type: 'string' },
          roundId: { type: 'string' },
          currency: { type: 'string' },
          status: { type: 'string', enum: ['open', 'closed', 'rolled_back', 'refused'] },
          bets: money,
          wins: money,
          rollbacks: money,
          net: money,
          firstAt: { type: 'string' },
          lastAt: { type: 'string' },
          transactions: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                uuid: { type: 'string' },
                kind: { type: 'string', enum: ['bet', 'win', 'rollback'] },
                amount: money,
                status: { type: 'string', enum: ['OK', 'ROLLED_BACK', 'REFUSED'] },
                reference: { type: ['string', 'null'] },
                createdAt: { type: 'string' },
              },
              required: ['uuid', 'kind', 'amount', 'status', 'reference', 'createdAt'],
            },
          },
        },
        required: ['gameCode', 'gameName', 'aggregator', 'roundId', 'currency', 'status', 'bets', 'wins', 'rollbacks', 'net', 'firstAt', 'lastAt', 'transactions'],
      },
    },
    next: { type: ['string', 'null'] },
  },
  required: ['rounds', 'next'],
} as const;

const reportReply = {
  type: 'object',
  properties: {
    from: { type: 'string' },
    to: { type: 'string' },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          day: { type: 'string' },
          gameCode: { type: 'string' },
          gameName: { type: 'string' },
          currency: { type: 'string' },
          rounds: { type: 'integer' },
          bets: counted,
          wins: counted,
          rollbacks: counted,
          net: money,
          ledger: money,
          difference: money,
          mismatch: { type: 'boolean' },
        },
        required: ['day', 'gameCode', 'gameName', 'currency', 'rounds', 'bets', 'wins', 'rollbacks', 'net', 'ledger', 'difference', 'mismatch'],
      },
    },
    mismatches: { type: 'integer' },
  },
  required: ['from', 'to', 'rows', 'mismatches'],
} as const;

/**
 * The routes. A player's rounds: every staff role, as the player view they belong to (each page audited as
 * `player.seamless_rounds`, like the lookup: player data never leaves unaudited). The report: payments and admin,
 * the roles that reconcile money (the payments and payouts pages').
 */
export async function seamlessRoutes(app: FastifyInstance): Promise<void> {
  const anyRole = { onRequest: [app.authenticateStaff, app.staffRole('support', 'payments', 'admin')] };
  const moneyRoles = { onRequest: [app.authenticateStaff, app.staffRole('payments', 'admin')] };

  app.get<{ Params: { id: string }; Querystring: { cursor?: unknown } }>(
    '/api/staff/players/:id/seamless-rounds',
    { ...anyRole, schema: { response: { 200: roundsReply, ...errors } } },
    async (req) => {
      const id = idOf(req.params.id);
      const before = cursorOf(req.query?.cursor);
      if (!(await repo.playerExists(app.db, id))) throw notFound('NO_DATA');
      await recordStaffAction(
        app.db,
        { staffId: req.staffId, action: 'player.seamless_rounds', subjectType: 'player', subjectId: String(id), detail: before === null ? undefined : { cursor: String(before) }, requestId: req.id },
        app.clock.now(),
      );
      return playerRounds(app.db, id, before);
    },
  );

  app.get<{ Querystring: { from?: unknown; to?: unknown } }>(
    '/api/staff/seamless/report',
    { ...moneyRoles, schema: { response: { 200: reportReply, ...errors } } },
    async (req) => {
      const range = rangeOf(req.query ?? {});
      const rows = await seamlessReport(app.db, range);
      return { from: range.from, to: range.to, rows, mismatches: rows.filter((r) => r.mismatch).length };
    },
  );
}
