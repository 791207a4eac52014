import { freshDb, testEngine, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { depositTo, insertPlayer } from '../test/support/ledger';
import { DuplicateEntryError, InsufficientFundsError, LedgerError, gameAccount, runAudit, systemAccount, walletAccount, walletBalance } from './index';
import { moveMoney, MovementRefused, type Movement } from './movement';
import { statementLine } from './statement';

/**
 * moveMoney (issue 43): one movement, all of it or nothing, on both engines. On PostgreSQL it is one statement
 * (ledger_post in data-modifying CTEs), on SQLite one transaction of postEntry: the same answers and the same rows.
 */
let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
  await seedBase(t.db);
});
afterAll(() => t.dispose());

const count = async (table: 'journal_entries' | 'ledger_postings' | 'statements' | 'game_transfers') =>
  Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

function line(playerId: number, refId: string, amount: number) {
  return statementLine({ playerId, type: 'transfer', status: 'IN_PROGRESS', from: 'WALLET', to: 'pg', amount, currency: 'THB', refType: 'transfer', refId });
}

const toTransit = (p: number, amount: number, reference: string): Movement['entries'][number] => ({
  kind: 'transfer_to_game',
  reference,
  playerId: p,
  currency: 'THB',
  postings: [
    { account: walletAccount(p), amount: -amount },
    { account: systemAccount('spin_budget'), amount },
  ],
});

test('an entry and its rows are written together, with balances before and after in the caller order', async () => {
  const p = await insertPlayer(t.db);
  await depositTo(t.db, p, 1_000);
  const { entries, result } = await moveMoney(t.db, async () => ({ parts: [line(p, `m-${p}-1`, 300)], entries: [toTransit(p, 300, `m-${p}-1`)], result: 'planned' }));
  expect(result).toBe('planned');
  expect(entries).toHaveLength(1);
  const [wallet, transit] = entries[0].postings;
  expect(wallet).toMatchObject({ code: `wallet:${p}`, amount: -300, balanceBefore: 1_000, balanceAfter: 700, version: 2 });
  expect(transit).toMatchObject({ code: 'spin_budget:THB', amount: 300 });
  expect(transit.balanceAfter - transit.balanceBefore).toBe(300);
  expect(await walletBalance(t.db, p)).toBe(700);
  const stored = await t.db.selectFrom('statements').selectAll().where('ref_id', '=', `m-${p}-1`).execute();
  expect(stored).toHaveLength(1);
  const postings = await t.db.selectFrom('ledger_postings').selectAll().where('entry_id', '=', entries[0].id).orderBy('id').execute();
  // Postings in account-id order, as postEntry writes them.
  expect(postings.map((x) => Number(x.account_id))).toEqual([wallet.accountId, transit.accountId].sort((a, b) => a - b));
  expect((await runAudit(t.db)).violations).toEqual([]);
});

test('a wallet that does not cover it: MONEY_NOT_ENOUGH, and neither the entry nor the parts are written', async () => {
  const p = await insertPlayer(t.db);
  await depositTo(t.db, p, 100);
  const before = await Promise.all([count('journal_entries'), count('ledger_postings'), count('statements')]);
  await expect(moveMoney(t.db, async () => ({ parts: [line(p, `m-${p}-2`, 101)], entries: [toTransit(p, 101, `m-${p}-2`)] }))).rejects.toBeInstanceOf(InsufficientFundsError);
  expect(await Promise.all([count('journal_entries'), count('ledger_postings'), count('statements')])).toEqual(before);
  expect(await walletBalance(t.db, p)).toBe(100);
});

test('a reference used before: DuplicateEntryError, nothing written; it wins over an uncovered amount, as in postEntry', async () => {
  const p = await insertPlayer(t.db);
  await depositTo(t.db, p, 500);
  await moveMoney(t.db, async () => ({ parts: [], entries: [toTransit(p, 200, `m-${p}-3`)] }));
  const before = await count('statements');
  await expect(moveMoney(t.db, async () => ({ parts: [line(p, `m-${p}-3b`, 200)], entries: [toTransit(p, 200, `m-${p}-3`)] }))).rejects.toBeInstanceOf(DuplicateEntryError);
  await expect(moveMoney(t.db, async () => ({ parts: [], entries: [toTransit(p, 10_000, `m-${p}-3`)] }))).rejects.toBeInstanceOf(DuplicateEntryError);
  expect(await count('statements')).toBe(before);
  expect(await walletBalance(t.db, p)).toBe(300);
});

test('a condition that changes no row refuses the whole movement (MovementRefused), one that does lets it through', async () => {
  const p = await insertPlayer(t.db);
  await depositTo(t.db, p, 500);
  const guard = (refId: string) => ({
    write: (q: typeof t.db) => q.updateTable('statements').set({ status: 'SUCCESS' }).where('ref_type', '=', 'transfer').where('ref_id', '=', refId).where('status', '=', 'IN_PROGRESS').returning('id'),
    mustChange: 'NOT_PENDING',
  });
  await expect(moveMoney(t.db, async () => ({ parts: [guard(`nothing-${p}`), line(p, `m-${p}-4`, 50)], entries: [toTransit(p, 50, `m-${p}-4`)] }))).rejects.toEqual(new MovementRefused('NOT_PENDING'));
  expect(await walletBalance(t.db, p)).toBe(500);
  expect(await t.db.selectFrom('statements').select('id').where('ref_id', '=', `m-${p}-4`).execute()).toEqual([]);
  await moveMoney(t.db, async () => ({ parts: [line(p, `m-${p}-5`, 50)], entries: [toTransit(p, 50, `m-${p}-5`)] }));
  await moveMoney(t.db, async () => ({ parts: [guard(`m-${p}-5`)], entries: [{ ...toTransit(p, 50, `m-${p}-5:close`), postings: [{ account: systemAccount('spin_budget'), amount: -50 }, { account: gameAccount(p, 'pg'), amount: 50 }] }] }));
  const status = await t.db.selectFrom('statements').select('status').where('ref_id', '=', `m-${p}-5`).executeTakeFirstOrThrow();
  expect(status.status).toBe('SUCCESS');
  expect((await runAudit(t.db)).violations).toEqual([]);
});

test('a reversal by reference points at the original, and an entry is reversed once', async () => {
  const p = await insertPlayer(t.db);
  await depositTo(t.db, p, 400);
  const [open] = (await moveMoney(t.db, async () => ({ parts: [], entries: [toTransit(p, 150, `m-${p}-6:open`)] }))).entries;
  const reversal = (reference: string) => ({ ...toTransit(p, -150, reference), kind: 'transfer_reversal', reversesReference: `m-${p}-6:open` });
  const [undo] = (await moveMoney(t.db, async () => ({ parts: [], entries: [reversal(`m-${p}-6:close`)] }))).entries;
  const row = await t.db.selectFrom('journal_entries').select('reverses_entry_id').where('id', '=', undo.id).executeTakeFirstOrThrow();
  expect(Number(row.reverses_entry_id)).toBe(open.id);
  expect(await walletBalance(t.db, p)).toBe(400);
  await expect(moveMoney(t.db, async () => ({ parts: [], entries: [reversal(`m-${p}-6:again`)] }))).rejects.toBeInstanceOf(DuplicateEntryError);
  await expect(moveMoney(t.db, async () => ({ parts: [], entries: [{ ...reversal(`m-${p}-6:x`), reversesReference: 'no-such-entry' }] }))).rejects.toBeInstanceOf(LedgerError);
  expect(await walletBalance(t.db, p)).toBe(400);
});

test('accounts met for the first time are created, a player account only in its player currency', async () => {
  const lak = await insertPlayer(t.db, { currency: 'LAK' });
  const credit = (p: number, currency: string, reference: string) => ({
    kind: 'deposit',
    reference,
    playerId: p,
    currency,
    postings: [
      { account: systemAccount('deposits_in_transit'), amount: -700 },
      { account: walletAccount(p), amount: 700 },
    ],
  });
  await moveMoney(t.db, async () => ({ parts: [], entries: [credit(lak, 'LAK', `m-${lak}-7`)] }));
  const acct = await t.db.selectFrom('ledger_accounts').selectAll().where('code', '=', `wallet:${lak}`).executeTakeFirstOrThrow();
  expect([acct.currency, Number(acct.allow_negative), Number(acct.balance)]).toEqual(['LAK', 0, 700]);
  const fresh = await insertPlayer(t.db, { currency: 'LAK' });
  await expect(moveMoney(t.db, async () => ({ parts: [], entries: [credit(fresh, 'THB', `m-${fresh}-8`)] }))).rejects.toBeInstanceOf(LedgerError);
  expect(await t.db.selectFrom('ledger_accounts').select('id').where('code', '=', `wallet:${fresh}`).execute()).toEqual([]);
});

test('the checks that need no database refuse before anything is sent', async () => {
  const p = await insertPlayer(t.db);
  const bad = { ...toTransit(p, 10, `m-${p}-9`), postings: [{ account: walletAccount(p), amount: -10 }, { account: systemAccount('spin_budget'), amount: 9 }] };
  await expect(moveMoney(t.db, async () => ({ parts: [line(p, `m-${p}-9`, 10)], entries: [bad] }))).rejects.toThrow(/does not balance/);
  expect(await t.db.selectFrom('statements').select('id').where('ref_id', '=', `m-${p}-9`).execute()).toEqual([]);
});

test(`${testEngine()}: concurrent movements on one wallet never overdraw it`, async () => {
  const p = await insertPlayer(t.db);
  await depositTo(t.db, p, 1_000);
  const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => moveMoney(t.db, async () => ({ parts: [line(p, `m-${p}-c${i}`, 100)], entries: [toTransit(p, 100, `m-${p}-c${i}`)] }))));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
  for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientFundsError);
  expect(await walletBalance(t.db, p)).toBe(0);
  expect(await t.db.selectFrom('statements').select('id').where('player_id', '=', p).execute()).toHaveLength(10);
  expect((await runAudit(t.db)).violations).toEqual([]);
});
