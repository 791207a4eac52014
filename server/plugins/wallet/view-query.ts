import { sql, type Expression, type ExpressionBuilder, type Kysely, type Nullable } from 'kysely';
import { jsonArrayFrom as pgJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import type { DB } from '../../db/schema';
import { isPostgres } from '../../db/portable';
import { prepared } from '../../db/prepared';
import { byAsk, readBatchPerDatabase } from '../../db/read-batch';
import { inviteFigureColumns, inviteSummaryOf, type InviteSummary } from '../invite';
import type { SessionState } from '../../lib/session';

/**
 * What GET /api/wallet shows of one player, in one statement (issue 13): the request's session, the profile and bank,
 * every ledger balance, the game accounts and the invite figures. It was five statements; on PostgreSQL each is a
 * round trip and a socket write, on SQLite a read transaction with its lock calls, and the screen asks on every view.
 * The lists come as JSON arrays (json_agg on PostgreSQL, json_group_array on SQLite). Never cached: it is money.
 */
const walletRow = prepared((db, a: { id: number; session: string }) =>
  db
    .selectFrom('players as me')
    .leftJoin('banks', 'banks.code', 'me.bank_code')
    .leftJoin('sessions', (j) => j.onRef('sessions.player_id', '=', 'me.id').on('sessions.id', '=', a.session))
    .where('me.id', '=', a.id)
    .select((eb) => walletColumns(db, eb, a.id)),
);

/**
 * The same row for several requests at once (`readBatch`, db/read-batch.ts), one per (player, session) pair in the
 * order asked (`n`); a pair whose player is not there has no row. The lists and figures are read for each row's
 * player (`me.id`) instead of a parameter. PostgreSQL `unnest`s the players and the sessions as two arrays; SQLite
 * reads the pairs from one JSON text, `[[player, session], ...]`, with `json_each`.
 */
const walletRows = prepared((db, a: { ids?: number[]; sessions?: string[]; pairs?: string }) =>
  db
    .selectFrom(
      (isPostgres(db)
        ? sql<{ player_id: number; session_id: string; n: number }>`(select * from unnest(${a.ids}::bigint[], ${a.sessions}::text[]) with ordinality as t(player_id, session_id, n))`
        : sql<{ player_id: number; session_id: string; n: number }>`(select key + 1 as n, value ->> 0 as player_id, value ->> 1 as session_id from json_each(${a.pairs}))`
      ).as('req'),
    )
    .innerJoin('players as me', 'me.id', 'req.player_id')
    .leftJoin('banks', 'banks.code', 'me.bank_code')
    .leftJoin('sessions', (j) => j.onRef('sessions.player_id', '=', 'me.id').onRef('sessions.id', '=', 'req.session_id'))
    .select((eb) => [...walletColumns(db, eb, eb.ref('me.id')), 'req.n']),
);

/** What the wallet row's columns may refer to: the player, and the bank and session when they are there. */
type WalletEb = ExpressionBuilder<Omit<DB, 'banks' | 'sessions'> & { me: DB['players']; banks: Nullable<DB['banks']>; sessions: Nullable<DB['sessions']> }, 'me' | 'banks' | 'sessions'>;

/** The columns of the wallet row for the player `id` (a value, or the query's own `me.id`). */
function walletColumns(db: Kysely<DB>, eb: WalletEb, id: number | Expression<number>) {
  const jsonArray = isPostgres(db) ? pgJsonArray : sqliteJsonArray;
  return [
    'me.id',
    'me.status',
    'sessions.id as session_id',
    'sessions.revoked_at',
    'sessions.expires_at',
    'me.name',
    'me.phone',
    'me.coin',
    'me.currency',
    'me.bank_code',
    'me.bank_account_name',
    'me.bank_account_no',
    'banks.name_th',
    'banks.name_en',
    // [kind, game_code, balance] per account: arrays are smaller JSON to build and to parse than objects.
    eb.selectFrom('ledger_accounts as la').select(balanceTriples(db).as('b')).where('la.player_id', '=', id).as('balances'),
    jsonArray(eb.selectFrom('game_accounts').select(['game_code', 'username', 'password']).where('game_accounts.player_id', '=', id)).as('accounts'),
    ...inviteFigureColumns(db, eb, id),
  ] as const;
}

const balanceTriples = (db: Kysely<DB>) =>
  isPostgres(db)
    ? sql<unknown>`coalesce(json_agg(json_build_array(la.kind, la.game_code, la.balance)), '[]')`
    : sql<unknown>`json_group_array(json_array(la.kind, la.game_code, la.balance))`;

type Row = NonNullable<Awaited<ReturnType<typeof walletRow.first>>>;

type NotShown = 'id' | 'coin' | 'balances' | 'accounts' | 'invite_earnings' | 'invitees' | 'status' | 'session_id' | 'revoked_at' | 'expires_at';

export interface WalletRow {
  /** The request's session with the player's status; undefined when the session is not this player's. */
  session: SessionState | undefined;
  player: Omit<Row, NotShown> & { id: number; coin: number };
  /** Satang in the wallet. */
  wallet: number;
  /** Satang mirrored per game code. */
  games: Map<string, number>;
  /** The player's accounts at the providers (password sealed). */
  accounts: { game_code: string; username: string; password: string }[];
  invite: InviteSummary;
}

/** SQLite hands the JSON arrays over as text, PostgreSQL as values. */
const list = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v as T[] | null) ?? []));

/**
 * The wallet rows asked in one turn of the event loop, in one statement. On PostgreSQL that is one round trip instead
 * of one each; on SQLite one read transaction (its lock calls) and one statement step for the lot.
 */
const batchedWalletRow = readBatchPerDatabase(async (db: Kysely<DB>, asks: { id: number; session: string }[]) => {
  const rows = await walletRows.all(
    db,
    isPostgres(db) ? { ids: asks.map((x) => x.id), sessions: asks.map((x) => x.session) } : { pairs: JSON.stringify(asks.map((x) => [x.id, x.session])) },
  );
  return byAsk(rows, asks.length);
});

/** The player's wallet figures and the state of their session `sessionId`, or undefined for a player who is not there. */
export async function readWalletRow(db: Kysely<DB>, playerId: number, sessionId: string): Promise<WalletRow | undefined> {
  const ask = { id: playerId, session: sessionId };
  const row = db.isTransaction ? await walletRow.first(db, ask) : await batchedWalletRow(db, ask);
  if (!row) return undefined;
  let wallet = 0;
  const games = new Map<string, number>();
  // A player's accounts are their wallet (one, `wallet:{id}`) and their game mirrors (ledger/accounts.ts).
  for (const [kind, gameCode, balance] of list<[string, string | null, number | string]>(row.balances)) {
    if (kind === 'wallet') wallet = Number(balance);
    else if (kind === 'game' && gameCode) games.set(gameCode, Number(balance));
  }
  return {
    session: row.session_id == null ? undefined : { revoked_at: row.revoked_at, expires_at: row.expires_at!, status: row.status },
    player: {
      id: Number(row.id),
      name: row.name,
      phone: row.phone,
      coin: Number(row.coin),
      currency: row.currency,
      bank_code: row.bank_code,
      bank_account_name: row.bank_account_name,
      bank_account_no: row.bank_account_no,
      name_th: row.name_th,
      name_en: row.name_en,
    },
    wallet,
    games,
    accounts: list(row.accounts),
    invite: inviteSummaryOf(row),
  };
}
