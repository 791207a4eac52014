import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { nowIso } from '../db';
import { prepared } from '../db/prepared';
import { AppError } from '../errors';
import {
  ensureAccounts,
  currencyOf,
  walletAccount,
  systemAccount,
  LedgerError,
  type AccountRef,
  type SystemAccountName,
} from './accounts';

/** A player account would go below zero. Answered as 422 MONEY_NOT_ENOUGH; the transaction rolls back. */
export class InsufficientFundsError extends AppError {
  constructor(public readonly accountCode: string) {
    super(422, 'MONEY_NOT_ENOUGH');
    this.name = 'InsufficientFundsError';
  }
}

/** A posting was computed from a balance that has moved since it was read (PostingInput.expectVersion). */
export class AccountMovedError extends Error {
  constructor(public readonly accountCode: string) {
    super(`account ${accountCode} moved since it was read`);
    this.name = 'AccountMovedError';
  }
}

/** An entry with this reference exists already: the movement it names was applied before. */
export class DuplicateEntryError extends Error {
  constructor(public readonly reference: string) {
    super(`journal entry ${reference} exists already`);
    this.name = 'DuplicateEntryError';
  }
}

export interface PostingInput {
  account: AccountRef;
  /** Signed satang: positive raises the account's balance, negative lowers it. */
  amount: number;
  /**
   * The account's version when the caller read the balance this amount was computed from (a game's win or loss):
   * the entry is refused (AccountMovedError) if the account has moved since.
   */
  expectVersion?: number;
}

export interface EntryInput {
  /** What kind of movement: deposit, transfer_to_game, game_result, withdrawal, bonus, ... */
  kind: string;
  /** Unique forever: the same reference is never applied twice (DuplicateEntryError). */
  reference: string;
  /** The player the entry concerns; its currency is the entry's currency unless `currency` is given. */
  playerId?: number | null;
  currency?: string;
  postings: PostingInput[];
  memo?: string;
  /** Set by reverseEntry. */
  reversesEntryId?: number;
  /** The entry this one undoes, by reference (a movement's reversal: moveMoney, issue 43); its id is looked up. */
  reversesReference?: string;
}

export interface PostedEntry {
  id: number;
  reference: string;
  currency: string;
  postings: { accountId: number; code: string; amount: number; balanceBefore: number; balanceAfter: number; version: number }[];
}

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(err?.message ?? '');
}

/**
 * A Kysely plugin with this method, installed on a handle (`db.withPlugin`), hears of every entry postEntry writes
 * through that handle or its transactions: the app's /metrics counter (server/lib/metrics.ts). The entry's insert is a
 * prepared statement, which plugins do not see being built, so postEntry tells them itself once the insert succeeded.
 */
export interface JournalObserver {
  journalEntryPosted(kind: string): void;
}

export function tellObservers(trx: Kysely<DB>, kind: string): void {
  for (const p of trx.getExecutor().plugins) (p as Partial<JournalObserver>).journalEntryPosted?.(kind);
}

// The hot statements of postEntry, compiled once (server/db/prepared.ts).
const insertEntry = prepared(
  (db, a: { reference: string; kind: string; player_id: number | null; currency: string; reverses_entry_id: number | null; memo: string | null; created_at: string }) =>
    db
      .insertInto('journal_entries')
      .values({
        reference: a.reference,
        kind: a.kind,
        player_id: a.player_id,
        currency: a.currency,
        reverses_entry_id: a.reverses_entry_id,
        memo: a.memo,
        created_at: a.created_at,
      })
      // The unique index on reference decides (no read first); DO NOTHING keeps a PostgreSQL transaction usable
      // after a duplicate, as the read before it did.
      .onConflict((oc) => oc.column('reference').doNothing())
      .returning('id'),
);
const updateBalance = prepared((db, a: { balance: number; version: number; updated_at: string; id: number; old: number }) =>
  db.updateTable('ledger_accounts').set({ balance: a.balance, version: a.version, updated_at: a.updated_at }).where('id', '=', a.id).where('version', '=', a.old),
);
const insertPosting = prepared(
  (db, a: { entry_id: number; account_id: number; amount: number; balance_before: number; balance_after: number; account_version: number; created_at: string }) =>
    db
      .insertInto('ledger_postings')
      .values({ entry_id: a.entry_id, account_id: a.account_id, amount: a.amount, balance_before: a.balance_before, balance_after: a.balance_after, account_version: a.account_version, created_at: a.created_at }),
);
// The two balances of a two-account entry in one statement, each row still at the version read under its lock. The
// casts give PostgreSQL the CASE branches' type (parameters alone would make them text).
const updateBalancePair = prepared(
  (db, a: { i1: number; b1: number; v1: number; o1: number; i2: number; b2: number; v2: number; o2: number; updated_at: string }) =>
    db
      .updateTable('ledger_accounts')
      .set((eb) => ({
        balance: eb.case().when('id', '=', a.i1).then(sql<number>`cast(${a.b1} as bigint)`).else(sql<number>`cast(${a.b2} as bigint)`).end(),
        version: eb.case().when('id', '=', a.i1).then(sql<number>`cast(${a.v1} as integer)`).else(sql<number>`cast(${a.v2} as integer)`).end(),
        updated_at: a.updated_at,
      }))
      .where((eb) => eb.or([eb.and([eb('id', '=', a.i1), eb('version', '=', a.o1)]), eb.and([eb('id', '=', a.i2), eb('version', '=', a.o2)])])),
);
type PostingRow = { entry_id: number; account_id: number; amount: number; balance_before: number; balance_after: number; account_version: number; created_at: string };
// The two postings of a two-account entry (nearly every entry) in one statement.
const insertPostingPair = prepared(
  (db, a: { e1: number; a1: number; m1: number; b1: number; f1: number; v1: number; e2: number; a2: number; m2: number; b2: number; f2: number; v2: number; at: string }) =>
    db.insertInto('ledger_postings').values([
      { entry_id: a.e1, account_id: a.a1, amount: a.m1, balance_before: a.b1, balance_after: a.f1, account_version: a.v1, created_at: a.at },
      { entry_id: a.e2, account_id: a.a2, amount: a.m2, balance_before: a.b2, balance_after: a.f2, account_version: a.v2, created_at: a.at },
    ]),
);

async function insertPostings(trx: Transaction<DB>, rows: PostingRow[]): Promise<void> {
  if (rows.length === 2) {
    const [x, y] = rows;
    await insertPostingPair.run(trx, {
      e1: x.entry_id, a1: x.account_id, m1: x.amount, b1: x.balance_before, f1: x.balance_after, v1: x.account_version,
      e2: y.entry_id, a2: y.account_id, m2: y.amount, b2: y.balance_before, f2: y.balance_after, v2: y.account_version,
      at: x.created_at,
    });
    return;
  }
  for (const r of rows) await insertPosting.run(trx, r);
}

/**
 * Writes the new balances, each only over the version read under the lock (LedgerError otherwise: the transaction
 * rolls back). Two accounts (nearly every entry) in one statement: issue 13, a round trip less per entry on
 * PostgreSQL and a statement less on SQLite.
 */
async function updateBalances(trx: Transaction<DB>, updates: { id: number; code: string; balance: number; version: number; old: number }[], now: string): Promise<void> {
  if (updates.length === 2) {
    const [x, y] = updates;
    const res = await updateBalancePair.run(trx, { i1: x.id, b1: x.balance, v1: x.version, o1: x.old, i2: y.id, b2: y.balance, v2: y.version, o2: y.old, updated_at: now });
    if (Number(res.numAffectedRows) !== 2) throw new LedgerError(`account ${x.code} or ${y.code} changed under its lock`);
    return;
  }
  for (const u of updates) {
    const res = await updateBalance.run(trx, { balance: u.balance, version: u.version, updated_at: now, id: u.id, old: u.old });
    if (Number(res.numAffectedRows) !== 1) throw new LedgerError(`account ${u.code} changed under its lock`);
  }
}

/** The checks of an entry that need no database: a reference, a kind, two or more non-zero postings summing to zero. */
export function checkEntry(input: EntryInput): void {
  if (!input.reference || input.reference.length > 128) throw new LedgerError('an entry needs a reference of 1-128 characters');
  if (!input.kind || input.kind.length > 32) throw new LedgerError('an entry needs a kind of 1-32 characters');
  if (input.postings.length < 2) throw new LedgerError('an entry needs at least two postings');
  let sum = 0n;
  for (const p of input.postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new LedgerError(`posting amount must be a non-zero integer of satang, got ${p.amount}`);
    sum += BigInt(p.amount);
  }
  if (sum !== 0n) throw new LedgerError(`entry ${input.reference} does not balance: postings sum to ${sum}`);
}

const entryIdByReference = prepared((db, a: { reference: string }) => db.selectFrom('journal_entries').select('id').where('reference', '=', a.reference));

/**
 * Posts one balanced journal entry inside the caller's transaction: checks that the postings sum to zero
 * (before anything is written), locks the accounts in id order, refuses a player account going below zero
 * (InsufficientFundsError), writes the entry, its postings with balance before/after and the account version,
 * and the new balances. Throw anything afterwards and the whole transaction rolls back with it.
 */
export async function postEntry(trx: Transaction<DB>, input: EntryInput): Promise<PostedEntry> {
  checkEntry(input);
  let reversesEntryId = input.reversesEntryId ?? null;
  if (reversesEntryId === null && input.reversesReference) {
    const original = await entryIdByReference.first(trx, { reference: input.reversesReference });
    if (!original) throw new LedgerError(`no entry ${input.reversesReference} to reverse`);
    reversesEntryId = Number(original.id);
  }

  const currency = input.currency ?? (input.playerId != null ? await currencyOf(trx, input.playerId) : null);
  if (!currency) throw new LedgerError('an entry needs a currency or a player');

  // One read gets (or creates) the accounts and, on PostgreSQL, locks them in id order (FOR UPDATE); SQLite's
  // single connection serializes transactions, so the rows read are current for the rest of it.
  const found = await ensureAccounts(trx, input.postings.map((p) => p.account), currency, { lock: true });
  const accounts = found;
  if (new Set(accounts.map((a) => a.id)).size !== accounts.length) throw new LedgerError(`entry ${input.reference} names an account twice`);
  const locked = new Map(found.map((a) => [a.id, { ...a }]));
  const now = nowIso();
  let entryId: number;
  try {
    const row = await insertEntry.first(trx, {
      reference: input.reference,
      kind: input.kind,
      player_id: input.playerId ?? null,
      currency,
      reverses_entry_id: reversesEntryId,
      memo: input.memo ?? null,
      created_at: now,
    });
    if (!row) throw new DuplicateEntryError(input.reference);
    entryId = Number(row.id);
    tellObservers(trx, input.kind);
  } catch (e) {
    if (isUniqueViolation(e)) throw new DuplicateEntryError(input.reference);
    throw e;
  }

  // Apply in account-id order (the lock order); the result lists postings in the caller's order.
  const order = input.postings.map((p, i) => ({ p, a: accounts[i] })).sort((x, y) => x.a.id - y.a.id);
  const applied = new Map<number, PostedEntry['postings'][number]>();
  const rows: PostingRow[] = [];
  const updates: { id: number; code: string; balance: number; version: number; old: number }[] = [];
  for (const { p, a } of order) {
    const acc = locked.get(a.id);
    if (!acc) throw new LedgerError(`account ${a.code} vanished`);
    const before = acc.balance;
    const after = before + p.amount;
    if (!Number.isSafeInteger(after)) throw new LedgerError(`balance of ${acc.code} out of range`);
    if (p.expectVersion !== undefined && acc.version !== p.expectVersion) throw new AccountMovedError(acc.code);
    if (after < 0 && !acc.allow_negative) throw new InsufficientFundsError(acc.code);
    const version = acc.version + 1;
    updates.push({ id: acc.id, code: acc.code, balance: after, version, old: acc.version });
    rows.push({ entry_id: entryId, account_id: acc.id, amount: p.amount, balance_before: before, balance_after: after, account_version: version, created_at: now });
    acc.balance = after;
    acc.version = version;
    applied.set(acc.id, { accountId: acc.id, code: acc.code, amount: p.amount, balanceBefore: before, balanceAfter: after, version });
  }
  await updateBalances(trx, updates, now);
  // Postings in account-id order (their ids in that order, as before), after the balances they record.
  await insertPostings(trx, rows);
  return { id: entryId, reference: input.reference, currency, postings: accounts.map((a) => applied.get(a.id)!) };
}

/**
 * Undoes an entry by posting its negation (a new entry pointing at the original): entries are never deleted
 * or edited. An entry can be reversed once (unique reverses_entry_id).
 */
export async function reverseEntry(
  trx: Transaction<DB>,
  input: { originalReference: string; reference: string; kind?: string; memo?: string },
): Promise<PostedEntry> {
  const original = await trx.selectFrom('journal_entries').selectAll().where('reference', '=', input.originalReference).executeTakeFirst();
  if (!original) throw new LedgerError(`no entry ${input.originalReference} to reverse`);
  const already = await trx.selectFrom('journal_entries').select('reference').where('reverses_entry_id', '=', original.id).executeTakeFirst();
  if (already) throw new DuplicateEntryError(already.reference);
  const postings = await trx
    .selectFrom('ledger_postings')
    .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_postings.account_id')
    .select(['ledger_postings.amount', 'ledger_accounts.kind', 'ledger_accounts.player_id', 'ledger_accounts.game_code', 'ledger_accounts.code'])
    .where('ledger_postings.entry_id', '=', original.id)
    .orderBy('ledger_postings.id')
    .execute();
  return postEntry(trx, {
    kind: input.kind ?? `${original.kind}_reversal`.slice(0, 32),
    reference: input.reference,
    playerId: original.player_id == null ? null : Number(original.player_id),
    currency: original.currency,
    memo: input.memo,
    reversesEntryId: Number(original.id),
    postings: postings.map((p) => ({ account: refOf(p), amount: -Number(p.amount) })),
  });
}

function refOf(a: { kind: string; player_id: number | null; game_code: string | null; code: string }): AccountRef {
  if (a.kind === 'wallet') return walletAccount(Number(a.player_id));
  if (a.kind === 'game') return { type: 'game', playerId: Number(a.player_id), gameCode: a.game_code! };
  const name = a.code.split(':')[0] as SystemAccountName;
  return systemAccount(name, a.game_code ?? undefined);
}

export interface WalletMovement {
  playerId: number;
  /** Satang, > 0. */
  amount: number;
  kind: string;
  reference: string;
  memo?: string;
}

/** Credits the player's wallet from a system account (deposits_in_transit for a deposit, bonus_budget for a bonus...). */
export function creditWallet(trx: Transaction<DB>, m: WalletMovement & { from: SystemAccountName; fromScope?: string }): Promise<PostedEntry> {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new LedgerError('a credit needs a positive amount');
  return postEntry(trx, {
    kind: m.kind,
    reference: m.reference,
    playerId: m.playerId,
    memo: m.memo,
    postings: [
      { account: systemAccount(m.from, m.fromScope), amount: -m.amount },
      { account: walletAccount(m.playerId), amount: m.amount },
    ],
  });
}

/** Debits the player's wallet into a system account; InsufficientFundsError if the wallet does not cover it. */
export function debitWallet(trx: Transaction<DB>, m: WalletMovement & { to: SystemAccountName; toScope?: string }): Promise<PostedEntry> {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new LedgerError('a debit needs a positive amount');
  return postEntry(trx, {
    kind: m.kind,
    reference: m.reference,
    playerId: m.playerId,
    memo: m.memo,
    postings: [
      { account: walletAccount(m.playerId), amount: -m.amount },
      { account: systemAccount(m.to, m.toScope), amount: m.amount },
    ],
  });
}

/** The player's wallet balance in satang (0 before the first movement). */
export async function walletBalance(db: Kysely<DB>, playerId: number): Promise<number> {
  const row = await db.selectFrom('ledger_accounts').select('balance').where('code', '=', `wallet:${playerId}`).executeTakeFirst();
  return row ? Number(row.balance) : 0;
}

/** The player's mirrored balance at each game, satang, by game code. */
export async function gameBalances(db: Kysely<DB>, playerId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['game_code', 'balance'])
    .where('player_id', '=', playerId)
    .where('kind', '=', 'game')
    .execute();
  return new Map(rows.map((r) => [r.game_code!, Number(r.balance)]));
}

/** The journal entry with this reference, or undefined. */
export function findEntry(db: Kysely<DB>, reference: string) {
  return db.selectFrom('journal_entries').selectAll().where('reference', '=', reference).executeTakeFirst();
}
