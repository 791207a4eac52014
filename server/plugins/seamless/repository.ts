import { sql, type CompiledQuery, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { MovementStatus } from '../../db/schema-ledger';
import type { SeamlessKind, SeamlessStatus } from '../../db/schema-seamless';
import { prepared } from '../../db/prepared';
import { isPostgres } from '../../db/portable';

/**
 * The Wallet API's SQL (docs/seamless-wallet.md "Cost of a call"). Every statement is prepared (compiled once, a
 * named statement on PostgreSQL), and a call reads everything it decides on in ONE statement (`callContext`): the
 * player, their wallet balance, the transaction_uuid's stored first answer, the referenced transaction, the game
 * session token, the game, the active bonus, a running time-out or exclusion, whether any limit is set, the login
 * session's start, whether the transaction was rolled back before it arrived, and whether deposits wait for
 * turnover. The caller runs it right after lockPlayer, in the transaction that writes, so on PostgreSQL it reads
 * what the previous holder of the lock committed (a read in the locking statement itself would see the snapshot
 * taken before the wait).
 */

export interface CallContext {
  player_status: string | null;
  player_currency: string | null;
  player_created: string | null;
  wallet_balance: number | string | null;
  t_id: number | string | null;
  t_kind: SeamlessKind | null;
  t_player: number | string | null;
  t_game: string | null;
  t_round: string | null;
  t_reference: string | null;
  t_amount: number | string | null;
  t_currency: string | null;
  t_status: SeamlessStatus | null;
  t_answer: string | null;
  r_id: number | string | null;
  r_kind: SeamlessKind | null;
  r_player: number | string | null;
  r_game: string | null;
  r_round: string | null;
  r_amount: number | string | null;
  r_currency: string | null;
  r_status: SeamlessStatus | null;
  s_player: number | string | null;
  s_aggregator: string | null;
  s_currency: string | null;
  s_expires: string | null;
  s_session: string | null;
  g_code: string | null;
  g_active: number | string | null;
  bonus_id: number | string | null;
  restriction: string | null;
  limit_rows: number | string | null;
  session_started: string | null;
  rolled_back_by: number | string | null;
  open_turnover: number | string | null;
}

export interface ContextArgs extends Record<string, unknown> {
  player_id: number;
  wallet_code: string;
  aggregator: string;
  /** The call's transaction_uuid ('' for none). */
  uuid: string;
  /** The transaction it references ('' for none). */
  reference: string;
  /** The game session token ('' for none). */
  token: string;
  /** The aggregator's game_code ('' for none). */
  game_code: string;
  /** ISO now (running restrictions). */
  now: string;
}

/** What a call reads of the transaction_uuid's row and of the referenced one. */
const TX_COLUMNS = ['id', 'kind', 'player_id', 'game_code', 'round_id', 'reference_transaction_uuid', 'amount', 'currency', 'status', 'answer'] as const;

/** The joins of the two transactions as plain joins (SQLite); PostgreSQL's (below) answer the same columns. */
const plainJoins = (db: Kysely<DB>, a: ContextArgs) =>
  db
    .selectFrom('players as p')
    .leftJoin('ledger_accounts as w', (j) => j.on('w.code', '=', a.wallet_code))
    .leftJoin('seamless_transactions as t', (j) => j.on('t.aggregator', '=', a.aggregator).on('t.transaction_uuid', '=', a.uuid))
    .leftJoin('seamless_transactions as r', (j) => j.on('r.aggregator', '=', a.aggregator).on('r.transaction_uuid', '=', a.reference));

/*
 * On PostgreSQL a plan made while seamless_transactions has no statistics yet (a new install, the bench's fresh
 * database) found the reference index (aggregator, reference_transaction_uuid), used on the aggregator alone, as
 * cheap as the unique one for these two lookups, took it and read every row of the aggregator (~880-4,400 rows a
 * callback in the bench); the named statement kept that plan until an ANALYZE. So there each lookup is a LATERAL
 * subquery that bounds transaction_uuid from both sides (the same row as `=`) and is ordered by it: only the unique
 * index gives that order, any other path needs a sort, and the unique index wins whatever the statistics say.
 * SQLite plans the plain join on the unique index as it is (and has no LATERAL).
 */
function transactionJoins(db: Kysely<DB>, a: ContextArgs) {
  if (!isPostgres(db)) return plainJoins(db, a);
  const byUuid = (eb: ExpressionBuilder<DB, 'players'>, uuid: string) =>
    eb
      .selectFrom('seamless_transactions')
      .select(TX_COLUMNS)
      .where('aggregator', '=', a.aggregator)
      .where('transaction_uuid', '>=', uuid)
      .where('transaction_uuid', '<=', uuid)
      .orderBy('transaction_uuid')
      .limit(1);
  return db
    .selectFrom('players as p')
    .leftJoin('ledger_accounts as w', (j) => j.on('w.code', '=', a.wallet_code))
    .leftJoinLateral((eb) => byUuid(eb as unknown as ExpressionBuilder<DB, 'players'>, a.uuid).as('t'), (j) => j.onTrue())
    .leftJoinLateral((eb) => byUuid(eb as unknown as ExpressionBuilder<DB, 'players'>, a.reference).as('r'), (j) => j.onTrue()) as unknown as ReturnType<typeof plainJoins>;
}

const context = prepared((db, a: ContextArgs) =>
  transactionJoins(db, a)
    .leftJoin('seamless_sessions as s', (j) => j.on('s.token', '=', a.token))
    .leftJoin('games as g', (j) => j.on('g.aggregator', '=', a.aggregator).on('g.aggregator_game_code', '=', a.game_code).on('g.wallet_mode', '=', 'seamless'))
    .leftJoin('user_bonuses as b', 'b.active_player_id', 'p.id')
    .select([
      'p.status as player_status',
      'p.currency as player_currency',
      'p.created_at as player_created',
      'w.balance as wallet_balance',
      't.id as t_id',
      't.kind as t_kind',
      't.player_id as t_player',
      't.game_code as t_game',
      't.round_id as t_round',
      't.reference_transaction_uuid as t_reference',
      't.amount as t_amount',
      't.currency as t_currency',
      't.status as t_status',
      't.answer as t_answer',
      'r.id as r_id',
      'r.kind as r_kind',
      'r.player_id as r_player',
      'r.game_code as r_game',
      'r.round_id as r_round',
      'r.amount as r_amount',
      'r.currency as r_currency',
      'r.status as r_status',
      's.player_id as s_player',
      's.aggregator as s_aggregator',
      's.currency as s_currency',
      's.expires_at as s_expires',
      's.session_id as s_session',
      'g.code as g_code',
      'g.active as g_active',
      'b.id as bonus_id',
    ])
    .select((eb) => [
      eb.selectFrom('play_restrictions as pr').select('pr.kind').whereRef('pr.player_id', '=', 'p.id').where('pr.ends_at', '>', a.now).limit(1).as('restriction'),
      eb.selectFrom('play_limits as pl').select((e) => e.fn.countAll<number>().as('n')).whereRef('pl.player_id', '=', 'p.id').as('limit_rows'),
      eb.selectFrom('sessions as ss').select('ss.created_at').whereRef('ss.id', '=', 's.session_id').as('session_started'),
      eb
        .selectFrom('seamless_transactions as k')
        .select('k.id')
        .where('k.aggregator', '=', a.aggregator)
        .where('k.reference_transaction_uuid', '=', a.uuid)
        .where('k.kind', '=', 'rollback')
        .limit(1)
        .as('rolled_back_by'),
      eb
        .selectFrom('deposit_turnover as dt')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('dt.player_id', '=', 'p.id')
        .where('dt.met_at', 'is', null)
        .as('open_turnover'),
    ])
    .where('p.id', '=', a.player_id)
    .limit(1),
);

/** The context read's SQL on an engine (tests look at its plan). */
export const callContextSql = (db: Kysely<DB>) => context.sqlFor(db);

/** Everything a call decides on (see above); undefined when there is no such player. */
export async function callContext(trx: Kysely<DB>, a: ContextArgs): Promise<CallContext | undefined> {
  return (await context.first(trx, a)) as CallContext | undefined;
}

export interface TransactionRow extends Record<string, unknown> {
  aggregator: string;
  transaction_uuid: string;
  kind: SeamlessKind;
  player_id: number;
  game_code: string;
  round_id: string;
  reference_transaction_uuid: string | null;
  amount: number;
  currency: string;
  status: SeamlessStatus;
  answer: string;
  at: string;
}

const insertTx = prepared((db, a: TransactionRow) =>
  db
    .insertInto('seamless_transactions')
    .values({
      aggregator: a.aggregator,
      transaction_uuid: a.transaction_uuid,
      kind: a.kind,
      player_id: a.player_id,
      game_code: a.game_code,
      round_id: a.round_id,
      reference_transaction_uuid: a.reference_transaction_uuid,
      amount: a.amount,
      currency: a.currency,
      status: a.status,
      answer: a.answer,
      created_at: a.at,
      updated_at: a.at,
    })
    // The unique (aggregator, transaction_uuid) decides; no row back: a concurrent call stored it first.
    .onConflict((oc) => oc.columns(['aggregator', 'transaction_uuid']).doNothing())
    .returning('id'),
);

/** Stores a transaction_uuid with its first answer; false when it was stored already (by a concurrent call). */
export async function insertTransaction(trx: Kysely<DB>, row: TransactionRow): Promise<boolean> {
  return !!(await insertTx.first(trx, row));
}

const setRolledBack = prepared((db, a: { id: number; at: string }) =>
  db.updateTable('seamless_transactions').set({ status: 'ROLLED_BACK', updated_at: a.at }).where('id', '=', a.id).where('status', '=', 'OK'),
);

/** A bet a rollback reversed. False when it was no longer OK (cannot happen under the player lock). */
export async function markRolledBack(trx: Kysely<DB>, id: number, at: string): Promise<boolean> {
  return Number((await setRolledBack.run(trx, { id, at })).numAffectedRows ?? 0) === 1;
}

export interface RoundTotals {
  id: number | string;
  bet: number | string;
  win: number | string;
  open: number | string;
  user_bonus_id: number | string | null;
}

const roundBet = prepared(
  (db, a: { game_code: string; round_id: string; username: string; player_id: number; bet: number; open: number; user_bonus_id: number | null; at: string }) =>
    db
      .insertInto('bet_rounds')
      .values({
        game_code: a.game_code,
        round_id: a.round_id,
        username: a.username,
        player_id: a.player_id,
        bet: a.bet,
        win: 0,
        played_at: a.at,
        user_bonus_id: a.user_bonus_id,
        refund_id: null,
        created_at: a.at,
        open: a.open,
      })
      // A round of several bets: each adds its stake; the round keeps the bonus of its first bet.
      .onConflict((oc) =>
        oc.columns(['game_code', 'round_id']).doUpdateSet((eb) => ({ bet: eb('bet_rounds.bet', '+', eb.ref('excluded.bet')), open: eb.ref('excluded.open') })),
      )
      .returning(['id', 'bet', 'win', 'open', 'user_bonus_id']),
);

/** Adds a bet's stake to its round (made on the round's first bet) and sets whether the round stays open. */
export async function addBetToRound(trx: Kysely<DB>, a: { game_code: string; round_id: string; username: string; player_id: number; bet: number; open: boolean; user_bonus_id: number | null; at: string }): Promise<RoundTotals> {
  const row = await roundBet.first(trx, { ...a, open: a.open ? 1 : 0 });
  if (!row) throw new Error(`round ${a.round_id} was not written`);
  return row;
}

const roundWin = prepared((db, a: { game_code: string; round_id: string; win: number; open: number }) =>
  db
    .updateTable('bet_rounds')
    .set((eb) => ({ win: eb('win', '+', a.win), open: a.open }))
    .where('game_code', '=', a.game_code)
    .where('round_id', '=', a.round_id)
    .returning(['id', 'bet', 'win', 'open', 'user_bonus_id']),
);

/** Adds a win to its round and sets whether the round stays open; undefined when the round has no row. */
export function addWinToRound(trx: Kysely<DB>, a: { game_code: string; round_id: string; win: number; open: boolean }): Promise<RoundTotals | undefined> {
  return roundWin.first(trx, { ...a, open: a.open ? 1 : 0 });
}

const roundRollback = prepared((db, a: { game_code: string; round_id: string; bet: number }) =>
  db
    .updateTable('bet_rounds')
    .set((eb) => ({ bet: eb('bet', '-', a.bet) }))
    .where('game_code', '=', a.game_code)
    .where('round_id', '=', a.round_id)
    .returning(['id', 'bet', 'win', 'open', 'user_bonus_id']),
);

const closeRound = prepared((db, a: { id: number }) => db.updateTable('bet_rounds').set({ open: 0 }).where('id', '=', a.id));

/**
 * Takes a rolled-back bet's stake out of its round; a round left with no stake and no win is closed (no win can come
 * for it: a win needs a bet that stands), so refunds need not wait for it.
 */
export async function removeBetFromRound(trx: Kysely<DB>, a: { game_code: string; round_id: string; bet: number }): Promise<RoundTotals | undefined> {
  const row = await roundRollback.first(trx, a);
  if (row && Number(row.bet) === 0 && Number(row.win) === 0 && Number(row.open) === 1) {
    await closeRound.run(trx, { id: Number(row.id) });
    return { ...row, open: 0 };
  }
  return row;
}

const statementLine = prepared(
  (db, a: { player_id: number; status: MovementStatus; from_account: string; to_account: string; amount: number; currency: string; ref_id: string; at: string }) =>
    db
      .insertInto('statements')
      .values({
        player_id: a.player_id,
        statement_type: 'transfer',
        status: a.status,
        from_account: a.from_account,
        to_account: a.to_account,
        amount: a.amount,
        currency: a.currency,
        ref_type: 'seamless_round',
        ref_id: a.ref_id,
        linked_type: null,
        linked_description: null,
        note: null,
        created_at: a.at,
        updated_at: a.at,
      })
      // One line per round, rewritten by each of its transactions (docs/seamless-wallet.md "The statement").
      .onConflict((oc) =>
        oc.columns(['ref_type', 'ref_id']).doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          from_account: eb.ref('excluded.from_account'),
          to_account: eb.ref('excluded.to_account'),
          amount: eb.ref('excluded.amount'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      ),
);

export interface RoundLine {
  playerId: number;
  status: MovementStatus;
  from: string;
  to: string;
  amount: number;
  currency: string;
  refId: string;
  at: string;
}

/** Writes or rewrites the round's statement line, in the transaction of the round's money. */
export async function writeRoundLine(trx: Kysely<DB>, l: RoundLine): Promise<void> {
  await statementLine.run(trx, { player_id: l.playerId, status: l.status, from_account: l.from, to_account: l.to, amount: l.amount, currency: l.currency, ref_id: l.refId, at: l.at });
}

const bonusMark = prepared((db, a: { id: number }) =>
  db
    .updateTable('user_bonuses')
    .set((eb) => ({ needs_check: eb('needs_check', '+', 1) }))
    .where('id', '=', a.id)
    .where('status', '=', 'ACTIVE'),
);

/** Tells the bonus engine the bonus has rounds to evaluate (as the bet feed does for the transfer games). */
export async function markBonusForCheck(trx: Kysely<DB>, userBonusId: number): Promise<void> {
  await bonusMark.run(trx, { id: userBonusId });
}

const info = prepared((db, a: { id: number }) => db.selectFrom('players').select(['status', 'currency', 'created_at']).where('id', '=', a.id));

/** What /user/info answers of a player. */
export function playerInfo(db: Kysely<DB>, playerId: number) {
  return info.first(db, { id: playerId });
}

const balance = prepared((db, a: { id: number; wallet_code: string; token: string }) =>
  db
    .selectFrom('players as p')
    .leftJoin('ledger_accounts as w', (j) => j.on('w.code', '=', a.wallet_code))
    .leftJoin('seamless_sessions as s', (j) => j.on('s.token', '=', a.token))
    .select(['p.currency', 'w.balance', 's.player_id as s_player', 's.aggregator as s_aggregator', 's.expires_at as s_expires'])
    .where('p.id', '=', a.id),
);

/** /user/balance in one read (outside any transaction: the read connection on SQLite). */
export function balanceContext(db: Kysely<DB>, playerId: number, token: string) {
  return balance.first(db, { id: playerId, wallet_code: `wallet:${playerId}`, token });
}

/*
 * PostgreSQL: the last three writes of a bet or a win (its round, its statement line, its transaction row with the
 * answer) in one statement, data-modifying CTEs, one round trip instead of three (docs/seamless-wallet.md "Cost of a
 * call"). SQLite runs them one by one (no data-modifying CTEs; a statement there is a function call, not a round
 * trip). The statement line's rule is the one writeLine (service.ts) applies: open -> WALLET to the game, the stakes,
 * IN_PROGRESS; closed -> the net, SUCCESS. Both engines' suites check the lines.
 */
export interface TailArgs extends Record<string, unknown> {
  game_code: string;
  round_id: string;
  player_id: number;
  currency: string;
  at: string;
  /** The transaction row (TransactionRow's fields). */
  tx_aggregator: string;
  tx_uuid: string;
  tx_kind: SeamlessKind;
  tx_game: string;
  tx_round: string;
  tx_reference: string | null;
  tx_amount: number;
  tx_currency: string;
  tx_answer: string;
}

const lineAndTx = (round: ReturnType<typeof sql>, a: TailArgs) => sql`with r as (${round}),
  x as (
    insert into seamless_transactions (aggregator, transaction_uuid, kind, player_id, game_code, round_id, reference_transaction_uuid, amount, currency, status, answer, created_at, updated_at)
    values (${a.tx_aggregator}, ${a.tx_uuid}, ${a.tx_kind}, ${a.player_id}, ${a.tx_game}, ${a.tx_round}, ${a.tx_reference}, ${a.tx_amount}, ${a.tx_currency}, 'OK', ${a.tx_answer}, ${a.at}, ${a.at})
    on conflict (aggregator, transaction_uuid) do nothing
    returning id
  ),
  l as (
    insert into statements (player_id, statement_type, status, from_account, to_account, amount, currency, ref_type, ref_id, linked_type, linked_description, note, created_at, updated_at)
    select cast(${a.player_id} as bigint), 'transfer',
      case when r."open" = 1 then 'IN_PROGRESS' else 'SUCCESS' end,
      case when r."open" = 0 and r.win > r.bet then cast(${a.game_code} as varchar) else 'WALLET' end,
      case when r."open" = 0 and r.win > r.bet then 'WALLET' else cast(${a.game_code} as varchar) end,
      case when r."open" = 1 then r.bet when r.win > r.bet then r.win - r.bet else r.bet - r.win end,
      cast(${a.currency} as varchar), 'seamless_round', cast(${a.game_code} as varchar) || ':' || r.id, null, null, null, cast(${a.at} as varchar), cast(${a.at} as varchar)
    from r
    on conflict (ref_type, ref_id) do update set status = excluded.status, from_account = excluded.from_account, to_account = excluded.to_account, amount = excluded.amount, updated_at = excluded.updated_at
  )
  select r.id, r.bet, r.win, r."open", r.user_bonus_id, (select id from x) as tx_id from r`;

type TailRow = RoundTotals & { tx_id: number | string | null };

const betTail = prepared((db, a: TailArgs & { username: string; bet: number; open: number; user_bonus_id: number | null }) => ({
  compile: () =>
    lineAndTx(
      sql`insert into bet_rounds (game_code, round_id, username, player_id, bet, win, played_at, user_bonus_id, refund_id, created_at, "open")
        values (${a.game_code}, ${a.round_id}, ${a.username}, ${a.player_id}, ${a.bet}, 0, ${a.at}, ${a.user_bonus_id}, null, ${a.at}, ${a.open})
        on conflict (game_code, round_id) do update set bet = bet_rounds.bet + excluded.bet, "open" = excluded."open"
        returning id, bet, win, "open", user_bonus_id`,
      a,
    ).compile(db) as CompiledQuery<TailRow>,
}));

const winTail = prepared((db, a: TailArgs & { win: number; open: number }) => ({
  compile: () =>
    lineAndTx(
      sql`update bet_rounds set win = win + ${a.win}, "open" = ${a.open} where game_code = ${a.game_code} and round_id = ${a.round_id} returning id, bet, win, "open", user_bonus_id`,
      a,
    ).compile(db) as CompiledQuery<TailRow>,
}));

/** PostgreSQL: a bet's round, line and row at once; `stored` false when a concurrent call stored the uuid first. */
export async function betTailPostgres(trx: Kysely<DB>, a: TailArgs & { username: string; bet: number; open: boolean; user_bonus_id: number | null }): Promise<{ round: RoundTotals; stored: boolean }> {
  const row = await betTail.first(trx, { ...a, open: a.open ? 1 : 0 });
  if (!row) throw new Error(`round ${a.round_id} was not written`);
  return { round: row, stored: row.tx_id !== null };
}

/** PostgreSQL: a win's round, line and row at once; undefined when the round has no row (nothing written). */
export async function winTailPostgres(trx: Kysely<DB>, a: TailArgs & { win: number; open: boolean }): Promise<{ round: RoundTotals; stored: boolean } | undefined> {
  const row = await winTail.first(trx, { ...a, open: a.open ? 1 : 0 });
  return row ? { round: row, stored: row.tx_id !== null } : undefined;
}
