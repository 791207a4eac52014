import { CompiledQuery, type Kysely, type QueryResult, type Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { nowIso } from '../db';
import { isPostgres } from '../db/portable';
import { nameOnPostgres, type Prepared } from '../db/prepared';
import { accountCode, LedgerError, type AccountRef } from './accounts';
import { AccountMovedError, DuplicateEntryError, InsufficientFundsError, postEntry, tellObservers, checkEntry, type EntryInput, type PostedEntry } from './journal';

/**
 * A movement of money as one unit (issue 43): the feature's own rows (a transfer, a statement line, an
 * Idempotency-Key) and the journal entries that move the money, all written or none.
 *
 * - SQLite: one transaction, as before: the plan's reads, then each part, then postEntry for each entry.
 * - PostgreSQL: ONE statement, so one round trip. The parts are data-modifying CTEs and each entry a call of the SQL
 *   function ledger_post (migration 202612021900_ledger_post): it locks, checks and posts as postEntry does. Any
 *   refusal raises, so the statement, an implicit transaction of its own, rolls back as a whole. The plan's reads run
 *   before it on the pool: under READ COMMITTED a read inside a transaction without a lock guarantees nothing that
 *   the same read just before it does not, and the locks that matter (the accounts') are taken by ledger_post.
 *
 * The rules stay in TypeScript: the plan decides what is written, postEntry's checks (amounts, the sum, the
 * currency) run on the entries before anything is sent, and the accounts' kinds and floors come from accounts.ts.
 * ledger_post checks them again; ledger.property.test.ts and movement.test.ts hold both engines to the same
 * invariants.
 */

/** Kysely's write builders (insert, update, delete), built from the handle the part is given. */
export interface WriteBuilder {
  execute(): Promise<unknown[]>;
  compile(): { sql: string; parameters: readonly unknown[] };
  toOperationNode(): unknown;
}

export interface MovementPart {
  /**
   * The write as a prepared query (server/db/prepared.ts) and its arguments: SQLite's transaction runs it, and
   * PostgreSQL's statement takes its compiled SQL as a CTE. Nothing is built at run time: Kysely building a
   * transfer's parts cost ~0.3 ms of the app's CPU a transfer on PostgreSQL and ~0.7 ms on SQLite (issue 43).
   */
  prepared?: Prepared<never, unknown>;
  args?: Record<string, unknown>;
  /** Or the write built at run time from `q` (a transaction on SQLite, the pool's handle on PostgreSQL): rare writes, tests. */
  write?: (q: Kysely<DB>) => WriteBuilder;
  /**
   * When set, the write must change a row (give it a RETURNING): if it changes none, the whole movement is refused
   * with MovementRefused(reason) and nothing is written. E.g. closing a transfer that is still pending.
   */
  mustChange?: string;
}

/** A part of a prepared query: `prepared(...)`'s result with its arguments, typed at the call. */
export function preparedPart<A extends object>(query: Prepared<A & Record<string, unknown>, unknown>, args: A, mustChange?: string): MovementPart {
  return { prepared: query as unknown as Prepared<never, unknown>, args: args as Record<string, unknown>, mustChange };
}

export interface Movement {
  parts: MovementPart[];
  /** Each with its currency (a movement reads nothing for it). */
  entries: (EntryInput & { currency: string })[];
}

/** A part's condition did not hold (MovementPart.mustChange): nothing of the movement was written. */
export class MovementRefused extends Error {
  constructor(public readonly reason: string) {
    super(`movement refused: ${reason}`);
    this.name = 'MovementRefused';
  }
}

/**
 * Runs `plan` (its reads and checks; a throw refuses before anything is written), then writes what it returns as
 * one movement. Returns the posted entries in the plan's order, and what the plan returned beside the movement.
 */
export async function moveMoney<T = undefined>(
  db: Kysely<DB>,
  plan: (q: Kysely<DB>) => Promise<Movement & { result?: T }> | (Movement & { result?: T }),
): Promise<{ entries: PostedEntry[]; result: T }> {
  if (!isPostgres(db)) {
    return db.transaction().execute(async (trx) => {
      const m = await plan(trx);
      return { entries: await applyInTransaction(trx, m), result: m.result as T };
    });
  }
  const m = await plan(db);
  return { entries: await oneStatement(db, m), result: m.result as T };
}

/**
 * A movement inside a transaction the caller holds (a webhook's credit beside the deposit's own rows): on PostgreSQL
 * its one statement runs in that transaction, on SQLite its parts and postEntry do. A refusal throws; the caller's
 * transaction then rolls back with it.
 */
export async function moveInTransaction(trx: Transaction<DB>, m: Movement): Promise<PostedEntry[]> {
  return isPostgres(trx) ? oneStatement(trx, m) : applyInTransaction(trx, m);
}

async function applyInTransaction(trx: Transaction<DB>, m: Movement): Promise<PostedEntry[]> {
  for (const part of m.parts) {
    const changed = part.prepared ? changedResult(await part.prepared.run(trx, part.args as never)) : changedRows(await writeOf(part)(trx).execute());
    if (part.mustChange && !changed) throw new MovementRefused(part.mustChange);
  }
  const entries: PostedEntry[] = [];
  for (const e of m.entries) entries.push(await postEntry(trx, e));
  return entries;
}

/** PostgreSQL: the movement as one statement (data-modifying CTEs, ledger_require and ledger_post calls). */
async function oneStatement(db: Kysely<DB>, m: Movement): Promise<PostedEntry[]> {
  for (const e of m.entries) checkEntry(e);
  const at = nowIso();
  // The statement's text, composed from compiled pieces (each part's SQL with its placeholders moved past the ones
  // before it), and its parameters.
  const parameters: unknown[] = [];
  const ctes: string[] = [];
  const selections: string[] = [];
  m.parts.forEach((p, i) => {
    const c = p.prepared ? p.prepared.bound(db, p.args as never) : writeOf(p)(db).compile();
    ctes.push(`w${i} as (${renumbered(c.sql, parameters.length)})`);
    parameters.push(...c.parameters);
  });
  m.parts.forEach((p, i) => {
    if (!p.mustChange) return;
    parameters.push(p.mustChange);
    selections.push(`ledger_require(exists (select 1 from w${i}), $${parameters.length})`);
  });
  for (const e of m.entries) {
    selections.push(renumbered(LEDGER_POST, parameters.length));
    parameters.push(...ledgerPostArgs(e, at));
  }
  // A plan that found nothing to do (a game balance already right): nothing is sent.
  if (!selections.length && !ctes.length) return [];
  if (!selections.length) selections.push('true');
  const text = `${ctes.length ? `with ${ctes.join(', ')} ` : ''}select ${selections.map((x, i) => `${x} as r${i}`).join(', ')}`;
  let row: Record<string, unknown>;
  try {
    nameOnPostgres(text);
    row = (await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, parameters))).rows[0];
  } catch (e) {
    throw ledgerErrorOf(e);
  }
  const conditions = m.parts.filter((p) => p.mustChange).length;
  const entries = m.entries.map((e, i) => postedOf(e, row[`r${conditions + i}`]));
  for (const e of m.entries) tellObservers(db, e.kind);
  return entries;
}

/** Rows or a count, from a prepared query's result. */
function changedResult(r: QueryResult<unknown>): boolean {
  return r.rows.length > 0 || Number(r.numAffectedRows ?? 0) > 0;
}

/** Rows or a count, from Kysely's execute() of a write builder. */
function changedRows(rows: unknown[]): boolean {
  const first = rows[0] as { numInsertedOrUpdatedRows?: bigint; numUpdatedRows?: bigint; numDeletedRows?: bigint; numChangedRows?: bigint } | undefined;
  if (!first) return false;
  const n = first.numUpdatedRows ?? first.numDeletedRows ?? first.numInsertedOrUpdatedRows;
  return n === undefined ? true : n > 0n;
}

/** ledger_post's call, its 14 parameters numbered from $1 (renumbered into the statement). */
const LEDGER_POST =
  'ledger_post($1, $2, $3::bigint, $4, $5::text, $6::text, $7::text[], $8::text[], $9::bigint[], $10::text[], $11::integer[], $12::bigint[], $13::integer[], $14)';

/** The placeholders of a compiled piece moved past the `offset` parameters before it, cached per piece and offset. */
const renumberedTexts = new Map<string, string>();
function renumbered(text: string, offset: number): string {
  if (offset === 0) return text;
  const key = `${offset}:${text}`;
  let out = renumberedTexts.get(key);
  if (out === undefined) {
    out = text.replace(/\$(\d+)/g, (_, d: string) => `$${Number(d) + offset}`);
    if (renumberedTexts.size < 2_000) renumberedTexts.set(key, out);
  }
  return out;
}

/** ledger_post's arguments for one entry: its postings as parallel arrays, the accounts' attributes from accounts.ts. */
function ledgerPostArgs(e: EntryInput & { currency: string }, at: string): unknown[] {
  const codes: string[] = [];
  const kinds: string[] = [];
  const players: (number | null)[] = [];
  const scopes: (string | null)[] = [];
  const floors: number[] = [];
  const amounts: number[] = [];
  const versions: (number | null)[] = [];
  for (const p of e.postings) {
    const a = accountAttributes(p.account, e.currency);
    codes.push(a.code);
    kinds.push(a.kind);
    players.push(a.playerId);
    scopes.push(a.scope);
    floors.push(a.allowNegative);
    amounts.push(p.amount);
    versions.push(p.expectVersion ?? null);
  }
  return [e.reference, e.kind, e.playerId ?? null, e.currency, e.memo ?? null, e.reversesReference ?? null, codes, kinds, players, scopes, floors, amounts, versions, at];
}

const writeOf = (p: MovementPart) => {
  if (!p.write) throw new LedgerError('a movement part needs a prepared query or a write');
  return p.write;
};

/** What an account is when it is created (ensureAccounts' rule: system accounts may go below zero). */
function accountAttributes(ref: AccountRef, currency: string) {
  return {
    code: accountCode(ref, currency),
    kind: ref.type,
    playerId: ref.type === 'system' ? null : ref.playerId,
    scope: ref.type === 'game' ? ref.gameCode : ref.type === 'system' ? (ref.scope ?? null) : null,
    allowNegative: ref.type === 'system' ? 1 : 0,
  };
}

function postedOf(e: EntryInput & { currency: string }, value: unknown): PostedEntry {
  const v = (value as (string | number)[]).map(Number);
  return {
    id: v[0],
    reference: e.reference,
    currency: e.currency,
    postings: e.postings.map((p, i) => ({
      accountId: v[1 + i * 4],
      code: accountCode(p.account, e.currency),
      amount: p.amount,
      balanceBefore: v[2 + i * 4],
      balanceAfter: v[3 + i * 4],
      version: v[4 + i * 4],
    })),
  };
}

/** ledger_post's and ledger_require's refusals (SQLSTATE class LD) as the errors postEntry throws. */
function ledgerErrorOf(e: unknown): unknown {
  const err = e as { code?: string; message?: string; constraint?: string };
  switch (err?.code) {
    case 'LD001':
      return new InsufficientFundsError(err.message ?? '');
    case 'LD002':
      return new DuplicateEntryError(err.message ?? '');
    case 'LD003':
      return new LedgerError(err.message ?? '');
    case 'LD005':
      return new AccountMovedError(err.message ?? '');
    case 'LD004':
      return new MovementRefused(err.message ?? '');
    case '23505':
      // An entry reversed twice: the unique reverses_entry_id (postEntry answers the same).
      if (err.constraint?.startsWith('journal_entries')) return new DuplicateEntryError(err.constraint);
      return e;
    default:
      return e;
  }
}
