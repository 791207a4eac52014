import { freshDb, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { insertPlayer } from '../test/support/ledger';
import * as accounts from './accounts';
import {
  DuplicateEntryError,
  InsufficientFundsError,
  LedgerError,
  creditWallet,
  debitWallet,
  postEntry,
  reverseEntry,
  runAudit,
  systemAccount,
  walletAccount,
  walletBalance,
} from './index';
import { Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
  await seedBase(t.db);
});
afterAll(() => t.dispose());

const tx = <T>(f: (trx: Transaction<DB>) => Promise<T>) => t.db.transaction().execute(f);

test('a deposit credits the wallet from deposits in transit, with balance_after and versions', async () => {
  const p = await insertPlayer(t.db);
  const e = await tx((trx) => creditWallet(trx, { playerId: p, amount: 12345, from: 'deposits_in_transit', kind: 'deposit', reference: `d-${p}-1` }));
  expect(await walletBalance(t.db, p)).toBe(12345);
  const wallet = e.postings.find((x) => x.code === `wallet:${p}`)!;
  expect(wallet).toMatchObject({ amount: 12345, balanceBefore: 0, balanceAfter: 12345, version: 1 });
  await tx((trx) => debitWallet(trx, { playerId: p, amount: 345, to: 'bonus_budget', kind: 'bonus_clear', reference: `w-${p}-1` }));
  expect(await walletBalance(t.db, p)).toBe(12000);
  const acct = await t.db.selectFrom('ledger_accounts').selectAll().where('code', '=', `wallet:${p}`).executeTakeFirstOrThrow();
  expect(Number(acct.version)).toBe(2);
  expect((await runAudit(t.db)).violations).toEqual([]);
});

test('postings that do not sum to zero are refused before anything is written', async () => {
  const p = await insertPlayer(t.db);
  const before = await t.db.selectFrom('journal_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  await expect(
    tx((trx) =>
      postEntry(trx, {
        kind: 'bad',
        reference: `bad-${p}`,
        playerId: p,
        postings: [
          { account: walletAccount(p), amount: 100 },
          { account: systemAccount('deposits_in_transit'), amount: -99 },
        ],
      }),
    ),
  ).rejects.toThrow(LedgerError);
  await expect(tx((trx) => postEntry(trx, { kind: 'bad', reference: `bad2-${p}`, playerId: p, postings: [{ account: walletAccount(p), amount: 1.5 }, { account: systemAccount('deposits_in_transit'), amount: -1.5 }] }))).rejects.toThrow(/integer/);
  await expect(tx((trx) => postEntry(trx, { kind: 'bad', reference: `bad3-${p}`, playerId: p, postings: [{ account: walletAccount(p), amount: 0 }, { account: systemAccount('deposits_in_transit'), amount: 0 }] }))).rejects.toThrow(LedgerError);
  await expect(tx((trx) => postEntry(trx, { kind: 'bad', reference: `bad4-${p}`, playerId: p, postings: [{ account: walletAccount(p), amount: 5 }] }))).rejects.toThrow(LedgerError);
  const after = await t.db.selectFrom('journal_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));
  expect(await walletBalance(t.db, p)).toBe(0);
});

test('a wallet never goes below zero: the whole transaction rolls back with MONEY_NOT_ENOUGH', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 500, from: 'deposits_in_transit', kind: 'deposit', reference: `d-${p}` }));
  const err = await tx((trx) => debitWallet(trx, { playerId: p, amount: 501, to: 'bonus_budget', kind: 'bonus_clear', reference: `w-${p}` })).catch((e) => e);
  expect(err).toBeInstanceOf(InsufficientFundsError);
  expect(err.code).toBe('MONEY_NOT_ENOUGH');
  expect(await walletBalance(t.db, p)).toBe(500);
  expect(await t.db.selectFrom('journal_entries').select('id').where('reference', '=', `w-${p}`).executeTakeFirst()).toBeUndefined();
});

test('the database itself refuses a negative player balance written around the ledger', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 100, from: 'deposits_in_transit', kind: 'deposit', reference: `d-neg-${p}` }));
  const r = await sql`update ledger_accounts set balance = -1 where code = ${`wallet:${p}`}`.execute(t.db).then((x) => ({ ok: x.numAffectedRows }), (e) => ({ err: String(e) }));
  const row = await t.db.selectFrom('ledger_accounts').selectAll().where('code', '=', `wallet:${p}`).executeTakeFirst();
  expect([r, row]).toEqual([{ err: expect.stringMatching(/CHECK|check/) }, expect.anything()]);
});

test('the same reference is never applied twice', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 100, from: 'deposits_in_transit', kind: 'deposit', reference: `once-${p}` }));
  await expect(tx((trx) => creditWallet(trx, { playerId: p, amount: 100, from: 'deposits_in_transit', kind: 'deposit', reference: `once-${p}` }))).rejects.toBeInstanceOf(DuplicateEntryError);
  expect(await walletBalance(t.db, p)).toBe(100);
});

test('a reversal posts the negation and points at the original; an entry is reversed once', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 700, from: 'deposits_in_transit', kind: 'deposit', reference: `rev-${p}` }));
  const r = await tx((trx) => reverseEntry(trx, { originalReference: `rev-${p}`, reference: `rev-${p}:undo` }));
  expect(await walletBalance(t.db, p)).toBe(0);
  const orig = await t.db.selectFrom('journal_entries').selectAll().where('reference', '=', `rev-${p}`).executeTakeFirstOrThrow();
  const rev = await t.db.selectFrom('journal_entries').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
  expect(Number(rev.reverses_entry_id)).toBe(Number(orig.id));
  await expect(tx((trx) => reverseEntry(trx, { originalReference: `rev-${p}`, reference: `rev-${p}:undo2` }))).rejects.toBeInstanceOf(DuplicateEntryError);
  expect((await runAudit(t.db)).ok).toBe(true);
});

test('an entry is in one currency: a LAK player cannot be paid from THB accounts', async () => {
  const lak = await insertPlayer(t.db, { currency: 'LAK' });
  await tx((trx) => creditWallet(trx, { playerId: lak, amount: 100000, from: 'deposits_in_transit', kind: 'deposit', reference: `lak-${lak}` }));
  const acct = await t.db.selectFrom('ledger_accounts').select('currency').where('code', '=', 'deposits_in_transit:LAK').executeTakeFirstOrThrow();
  expect(acct.currency).toBe('LAK');
  await expect(
    tx((trx) =>
      postEntry(trx, { kind: 'x', reference: `mix-${lak}`, currency: 'THB', postings: [{ account: walletAccount(lak), amount: 1 }, { account: systemAccount('deposits_in_transit'), amount: -1 }] }),
    ),
  ).rejects.toThrow(/THB/);
  const audit = await runAudit(t.db);
  expect(audit.ok).toBe(true);
  expect(audit.stats.currencies).toEqual(['LAK', 'THB']);
});

test('the audit reports tampering: a balance that is not the sum of its postings, an unbalanced entry', async () => {
  const db2 = await freshDb();
  try {
    await seedBase(db2.db);
    const p = await insertPlayer(db2.db);
    await db2.db.transaction().execute((trx) => creditWallet(trx, { playerId: p, amount: 1000, from: 'deposits_in_transit', kind: 'deposit', reference: 'd1' }));
    expect((await runAudit(db2.db)).ok).toBe(true);
    await sql`update ledger_accounts set balance = balance + 1 where code = ${`wallet:${p}`}`.execute(db2.db);
    let r = await runAudit(db2.db);
    expect(r.ok).toBe(false);
    expect(r.violations.join('\n')).toMatch(/differ from the sum of their postings[\s\S]*wallet:/);
    await sql`update ledger_postings set amount = amount + 1 where account_id = (select id from ledger_accounts where code = ${`wallet:${p}`})`.execute(db2.db);
    r = await runAudit(db2.db);
    expect(r.violations.join('\n')).toMatch(/do not sum to 0/);
    expect(r.violations.join('\n')).toMatch(/entries that do not balance[\s\S]*d1/);
  } finally {
    await db2.dispose();
  }
});

test('an account whose version moved after it was read under its lock: the entry is refused and nothing of it is written', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 5000, from: 'deposits_in_transit', kind: 'deposit', reference: `v-${p}-1` }));
  const real = accounts.ensureAccounts;
  // Either account of the pair (both are written by one statement) and a three-account entry (one statement each).
  for (const [stale, postings] of [
    [0, 2],
    [1, 2],
    [2, 3],
  ] as const) {
    const spy = jest.spyOn(accounts, 'ensureAccounts').mockImplementationOnce(async (...args: Parameters<typeof real>) => {
      const rows = await real(...args);
      return rows.map((r, i) => (i === stale ? { ...r, version: r.version + 1 } : r));
    });
    const before = await t.db.selectFrom('ledger_accounts').select(['code', 'balance', 'version']).orderBy('id').execute();
    const legs =
      postings === 2
        ? [
            { account: walletAccount(p), amount: -100 },
            { account: systemAccount('bonus_budget'), amount: 100 },
          ]
        : [
            { account: walletAccount(p), amount: -100 },
            { account: systemAccount('bonus_budget'), amount: 60 },
            { account: systemAccount('deposits_in_transit'), amount: 40 },
          ];
    await expect(tx((trx) => postEntry(trx, { kind: 'bonus_clear', reference: `v-${p}-${stale}-${postings}`, playerId: p, postings: legs }))).rejects.toThrow(
      /changed under its lock/,
    );
    spy.mockRestore();
    expect(await t.db.selectFrom('ledger_accounts').select(['code', 'balance', 'version']).orderBy('id').execute()).toEqual(before);
    expect(await t.db.selectFrom('journal_entries').select('id').where('reference', '=', `v-${p}-${stale}-${postings}`).execute()).toEqual([]);
  }
  expect(await walletBalance(t.db, p)).toBe(5000);
});

test('a two-account entry builds no query: every statement of it is compiled once (issue 13)', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 700, from: 'deposits_in_transit', kind: 'deposit', reference: `b-${p}-1` }));
  const builders = (['selectFrom', 'insertInto', 'updateTable'] as const).map((m) => jest.spyOn(Kysely.prototype, m));
  try {
    await tx((trx) => debitWallet(trx, { playerId: p, amount: 200, to: 'bonus_budget', kind: 'bonus_clear', reference: `b-${p}-2` }));
    await expect(tx((trx) => debitWallet(trx, { playerId: p, amount: 1, to: 'bonus_budget', kind: 'bonus_clear', reference: `b-${p}-2` }))).rejects.toThrow(
      DuplicateEntryError,
    );
    for (const b of builders) expect(b).not.toHaveBeenCalled();
  } finally {
    for (const b of builders) b.mockRestore();
  }
  expect(await walletBalance(t.db, p)).toBe(500);
});

test('a retried debit that was applied is reported as applied (a duplicate), even where the money is no longer there', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 100, from: 'deposits_in_transit', kind: 'deposit', reference: `r-${p}-1` }));
  await tx((trx) => debitWallet(trx, { playerId: p, amount: 80, to: 'bonus_budget', kind: 'bonus_clear', reference: `r-${p}-2` }));
  await expect(tx((trx) => debitWallet(trx, { playerId: p, amount: 80, to: 'bonus_budget', kind: 'bonus_clear', reference: `r-${p}-2` }))).rejects.toBeInstanceOf(
    DuplicateEntryError,
  );
  await expect(tx((trx) => debitWallet(trx, { playerId: p, amount: 80, to: 'bonus_budget', kind: 'bonus_clear', reference: `r-${p}-3` }))).rejects.toBeInstanceOf(
    InsufficientFundsError,
  );
  expect(await walletBalance(t.db, p)).toBe(20);
});

test('a two-account entry: one posting per account in account-id order, each with its balances and version', async () => {
  const p = await insertPlayer(t.db);
  await tx((trx) => creditWallet(trx, { playerId: p, amount: 900, from: 'deposits_in_transit', kind: 'deposit', reference: `o-${p}-1` }));
  // The wallet (created last, the larger id) first in the caller's order.
  const e = await tx((trx) =>
    postEntry(trx, { kind: 'bonus_clear', reference: `o-${p}-2`, playerId: p, postings: [{ account: walletAccount(p), amount: -300 }, { account: systemAccount('bonus_budget'), amount: 300 }] }),
  );
  expect(e.postings.map((x) => [x.code, x.amount, x.balanceAfter - x.balanceBefore])).toEqual([
    [`wallet:${p}`, -300, -300],
    ['bonus_budget:THB', 300, 300],
  ]);
  const rows = await t.db.selectFrom('ledger_postings').select(['account_id', 'amount', 'balance_before', 'balance_after', 'account_version']).where('entry_id', '=', e.id).orderBy('id').execute();
  const byAccount = [...e.postings].sort((x, y) => x.accountId - y.accountId);
  expect(rows.map((r) => [Number(r.account_id), Number(r.amount), Number(r.balance_before), Number(r.balance_after), Number(r.account_version)])).toEqual(
    byAccount.map((x) => [x.accountId, x.amount, x.balanceBefore, x.balanceAfter, x.version]),
  );
  const wallet = await t.db.selectFrom('ledger_accounts').select(['balance', 'version']).where('code', '=', `wallet:${p}`).executeTakeFirstOrThrow();
  expect([Number(wallet.balance), Number(wallet.version)]).toEqual([600, 2]);
  expect((await runAudit(t.db)).violations).toEqual([]);
});
