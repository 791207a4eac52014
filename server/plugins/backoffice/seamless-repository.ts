import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SeamlessKind, SeamlessStatus } from '../../db/schema-seamless';

/**
 * SQL of the seamless wallet's back office (docs/seamless-wallet.md "Back office"): a player's rounds and the
 * reconciliation report. Reads only; the same statements on SQLite and PostgreSQL (timestamps are ISO-8601 UTC text,
 * so `substr(created_at, 1, 10)` is the UTC day on both).
 */
type Db = Kysely<DB>;

/** The day part of an ISO-8601 UTC timestamp column. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/**
 * One page of a player's rounds, newest first by their first transaction: a round's first id never changes as
 * later bets and wins arrive, so paging by it (`before`) never shifts or repeats a round between pages.
 */
export function roundPage(db: Db, playerId: number, before: number | null, limit: number) {
  let q = db
    .selectFrom('seamless_transactions')
    .select(['game_code', 'round_id', (eb) => eb.fn.min<number | string>('id').as('first_id')])
    .where('player_id', '=', playerId)
    .groupBy(['game_code', 'round_id']);
  if (before !== null) q = q.having((eb) => eb.fn.min('id'), '<', before);
  return q.orderBy('first_id', 'desc').limit(limit).execute();
}

export interface TransactionRow {
  id: number | string;
  aggregator: string;
  transaction_uuid: string;
  kind: SeamlessKind;
  game_code: string;
  round_id: string;
  reference_transaction_uuid: string | null;
  amount: number | string;
  currency: string;
  status: SeamlessStatus;
  created_at: string;
}

/** Every transaction of the player in these rounds (ids of the same round id at another game are filtered by the caller). */
export function roundTransactions(db: Db, playerId: number, roundIds: string[]): Promise<TransactionRow[]> {
  if (roundIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('seamless_transactions')
    .select(['id', 'aggregator', 'transaction_uuid', 'kind', 'game_code', 'round_id', 'reference_transaction_uuid', 'amount', 'currency', 'status', 'created_at'])
    .where('player_id', '=', playerId)
    .where('round_id', 'in', roundIds)
    .orderBy('id')
    .execute();
}

/** The bet_rounds rows of these rounds, by bet_rounds' own round keys (`open` while a seamless round awaits its closing win). */
export function betRounds(db: Db, gameCodes: string[], roundIds: string[]) {
  if (roundIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('bet_rounds').select(['game_code', 'round_id', 'open']).where('game_code', 'in', gameCodes).where('round_id', 'in', roundIds).execute();
}

export function gameNames(db: Db, codes: string[]) {
  if (codes.length === 0) return Promise.resolve([]);
  return db.selectFrom('games').select(['code', 'name']).where('code', 'in', codes).execute();
}

export function playerExists(db: Db, playerId: number) {
  return db.selectFrom('players').select('id').where('id', '=', playerId).executeTakeFirst();
}

export interface DayRow {
  game_code: string;
  currency: string;
  day: string;
  rounds: number | string;
  bet_count: number | string;
  bet_sum: number | string | null;
  win_count: number | string;
  win_sum: number | string | null;
  rollback_count: number | string;
  rollback_sum: number | string | null;
}

/**
 * Per game, currency and UTC day of [fromIso, toIso): what the aggregator's transactions moved. REFUSED rows moved
 * no money and are left out; a bet a rollback reversed (ROLLED_BACK) was taken and counts as a bet, its rollback row
 * (dated the day it gave the money back) as a rollback. Rounds: those with a bet that day.
 */
export function transactionDays(db: Db, fromIso: string, toIso: string): Promise<DayRow[]> {
  const day = dayOf('created_at');
  const when = (kind: SeamlessKind, value: ReturnType<typeof sql>) => sql`case when kind = ${kind} then ${value} else 0 end`;
  return db
    .selectFrom('seamless_transactions')
    .select([
      'game_code',
      'currency',
      day.as('day'),
      sql<number | string>`count(distinct case when kind = 'bet' then round_id end)`.as('rounds'),
      sql<number | string>`sum(${when('bet', sql`1`)})`.as('bet_count'),
      sql<number | string | null>`sum(${when('bet', sql`amount`)})`.as('bet_sum'),
      sql<number | string>`sum(${when('win', sql`1`)})`.as('win_count'),
      sql<number | string | null>`sum(${when('win', sql`amount`)})`.as('win_sum'),
      sql<number | string>`sum(${when('rollback', sql`1`)})`.as('rollback_count'),
      sql<number | string | null>`sum(${when('rollback', sql`amount`)})`.as('rollback_sum'),
    ])
    .where('created_at', '>=', fromIso)
    .where('created_at', '<', toIso)
    .where('status', '<>', 'REFUSED')
    .groupBy(['game_code', 'currency', day])
    .execute() as Promise<DayRow[]>;
}

/** The seamless_house accounts (every game, bucket and currency): few, one per game and player bucket. */
export function houseAccounts(db: Db) {
  return db
    .selectFrom('ledger_accounts')
    .select(['id', 'game_code', 'currency'])
    .where('kind', '=', 'system')
    .where(sql<string>`substr(code, 1, 15)`, '=', 'seamless_house:')
    .execute();
}

/** The movement (sum of postings, satang) of each of these accounts per UTC day of [fromIso, toIso). */
export function accountDays(db: Db, accountIds: number[], fromIso: string, toIso: string) {
  if (accountIds.length === 0) return Promise.resolve([]);
  const day = dayOf('created_at');
  return db
    .selectFrom('ledger_postings')
    .select(['account_id', day.as('day'), (eb) => eb.fn.sum<number | string>('amount').as('moved')])
    .where('account_id', 'in', accountIds)
    .where('created_at', '>=', fromIso)
    .where('created_at', '<', toIso)
    .groupBy(['account_id', day])
    .execute();
}

/**
 * The movement of these accounts by entries of a Wallet API transaction created in [fromIso, toIso), per account, the
 * transaction's UTC day and the posting's. The entry's reference is the transaction's (`seamless:{aggregator}:{uuid}`,
 * the Wallet API's journal reference): a posting stamped a moment after midnight for a transaction of the day before
 * is its transaction's day's, not a mismatch of two days.
 */
export function transactionEntryDays(db: Db, accountIds: number[], fromIso: string, toIso: string) {
  if (accountIds.length === 0) return Promise.resolve([]);
  const tday = sql<string>`substr(t.created_at, 1, 10)`;
  const pday = sql<string>`substr(p.created_at, 1, 10)`;
  return db
    .selectFrom('seamless_transactions as t')
    .innerJoin('journal_entries as e', (j) => j.on(sql<boolean>`e.reference = 'seamless:' || t.aggregator || ':' || t.transaction_uuid`))
    .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
    .select(['p.account_id', tday.as('tday'), pday.as('pday'), (eb) => eb.fn.sum<number | string>('p.amount').as('moved')])
    .where('t.created_at', '>=', fromIso)
    .where('t.created_at', '<', toIso)
    .where('p.account_id', 'in', accountIds)
    .groupBy(['p.account_id', tday, pday])
    .execute();
}
