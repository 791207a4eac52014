import { buildWalletTestApp, depositTo, type WalletTestApp } from '../../test/support/ledger';
import { runAudit, walletBalance } from '../../ledger';
import { testEngine } from '../../test/support/helper';
import { loadAccountRules } from './rules';
import { bearer, counts, ensureReference, login, manualClock, playerWithToken, registration } from '../../test/support/accounts';

/**
 * Issue 39 row 6: the bank account number changed with the token alone, so a stolen token redirected withdrawals.
 * A change of the bank or the account number now needs the current password (counted as a login try), is audited,
 * and holds withdrawals for BANK_CHANGE_COOLDOWN_SECONDS (24 h by default).
 */
jest.setTimeout(120_000);

let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
  await ensureReference(t.db.db);
});
afterEach(async () => {
  t.app.clock.now = () => new Date();
  expect((await runAudit(t.db.db)).violations).toEqual([]);
});
afterAll(() => t.close());

type Player = Awaited<ReturnType<typeof playerWithToken>>;
const put = (p: Player, payload: object) => t.app.inject({ method: 'PUT', url: '/api/account/profile', headers: bearer(p.token), payload });
const profile = async (p: Player) => (await t.app.inject({ method: 'GET', url: '/api/account/profile', headers: bearer(p.token) })).json();
const withdraw = (p: Player, amount: number) => t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: bearer(p.token), payload: { amount } });
const idOf = async (p: Player) => Number((await t.db.db.selectFrom('players').select('id').where('phone', '=', p.username).executeTakeFirstOrThrow()).id);
const audit = (playerId: number) => t.db.db.selectFrom('account_audit').selectAll().where('player_id', '=', playerId).orderBy('id').execute();
const playerRow = (playerId: number) => t.db.db.selectFrom('players').selectAll().where('id', '=', playerId).executeTakeFirstOrThrow();
/** The player's profile edit with a new account number at another bank. */
const newBank = (p: Player, extra: object = {}) => ({ name: p.name, bankCode: 'KBANK', bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: registration().bankAccountNo, ...extra });

describe('PUT /api/account/profile: bank data need the current password', () => {
  test('a name-only edit needs no password, holds nothing and writes no audit row', async () => {
    const p = await playerWithToken(t.app);
    const id = await idOf(p);
    const res = await put(p, { name: 'Somsri', bankCode: p.bankCode, bankAccountName: 'someone else', bankAccountNo: p.bankAccountNo });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: { name: 'Somsri' }, bankAccount: { bankAccountName: 'SOMEONE ELSE', withdrawHoldUntil: null } });
    expect(await audit(id)).toEqual([]);
    expect((await playerRow(id)).bank_hold_until).toBeNull();
  });

  test('a new number or a new bank without the password is PASSWORD_REQUIRED, with a wrong one WRONG_PASSWORD; nothing changes', async () => {
    const p = await playerWithToken(t.app);
    const id = await idOf(p);
    const before = await playerRow(id);
    const c = await counts(t.db.db);
    for (const [payload, message] of [
      [newBank(p), 'PASSWORD_REQUIRED'],
      [newBank(p, { password: '' }), 'PASSWORD_REQUIRED'],
      [newBank(p, { password: 'not-mine' }), 'WRONG_PASSWORD'],
      // The same number at another bank is a change too.
      [{ name: p.name, bankCode: 'KBANK', bankAccountName: p.bankAccountName, bankAccountNo: p.bankAccountNo }, 'PASSWORD_REQUIRED'],
      [{ name: p.name, bankCode: p.bankCode, bankAccountName: p.bankAccountName, bankAccountNo: registration().bankAccountNo, password: 'wrong1' }, 'WRONG_PASSWORD'],
    ] as const) {
      const res = await put(p, payload);
      expect([res.statusCode, res.json()]).toEqual([422, { message }]);
    }
    expect(await playerRow(id)).toEqual(before);
    expect(await audit(id)).toEqual([]);
    // Only the counted tries were written: each refusal is a try of the phone's login counter.
    expect(await counts(t.db.db)).toEqual({ ...c, guess_counters: c.guess_counters + 1, guess_attempts: c.guess_attempts + 5 });
  });

  test('the password is asked before the number is looked up, so a token alone cannot probe account numbers', async () => {
    const p = await playerWithToken(t.app);
    const other = await playerWithToken(t.app);
    const res = await put(p, newBank(p, { bankAccountNo: other.bankAccountNo }));
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'PASSWORD_REQUIRED' }]);
    const known = await put(p, newBank(p, { bankAccountNo: other.bankAccountNo, password: p.password }));
    expect([known.statusCode, known.json()]).toEqual([409, { message: 'EXISTING_BANK' }]);
  });

  test('wrong passwords count toward the login lock of the phone: the lock then refuses the profile and the login alike', async () => {
    const p = await playerWithToken(t.app);
    const max = loadAccountRules().loginMaxFailures;
    for (let i = 0; i < max - 1; i++) expect((await put(p, newBank(p, { password: `wrong-${i}` }))).json()).toEqual({ message: 'WRONG_PASSWORD' });
    // The last try the limit allows, at the login form: it shares the counter.
    expect((await login(t.app, p.username, 'wrong-login')).json()).toEqual({ message: 'WRONG_CREDENTIAL' });
    const locked = await put(p, newBank(p, { password: p.password }));
    expect([locked.statusCode, locked.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
    const loginLocked = await login(t.app, p.username, p.password);
    expect([loginLocked.statusCode, loginLocked.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
    expect((await playerRow(await idOf(p))).bank_account_no).toBe(p.bankAccountNo);
  });

  test('the right password clears the tries, as a login does', async () => {
    const p = await playerWithToken(t.app);
    const tries = () => t.db.db.selectFrom('guess_attempts').select('id').where('scope', '=', 'login').where('subject', '=', p.username).execute();
    for (let i = 0; i < 3; i++) await put(p, newBank(p, { password: `wrong-${i}` }));
    expect(await tries()).toHaveLength(3);
    expect((await put(p, newBank(p, { password: p.password }))).statusCode).toBe(200);
    expect(await tries()).toEqual([]);
  });
});

// Matched by message, not with toThrow: better-sqlite3's native error class belongs to the realm of the first test file
// that loaded it in this jest process (see server/plugins/staff/audit.test.ts).
const appendOnly = { message: expect.stringMatching(/append-only/) };

describe('a bank change is audited and holds withdrawals', () => {
  test('the change writes an audit row with the last digits only and a 24 h hold, and withdrawAll waits for it', async () => {
    const p = await playerWithToken(t.app);
    const id = await idOf(p);
    await depositTo(t.db.db, id, 1_000_00);
    const change = newBank(p, { password: p.password });
    const started = Date.now();
    const res = await put(p, change);
    expect(res.statusCode).toBe(200);
    const hold = (res.json() as { bankAccount: { withdrawHoldUntil: string } }).bankAccount.withdrawHoldUntil;
    expect(new Date(hold).getTime()).toBeGreaterThanOrEqual(started + 24 * 3600_000);
    expect(new Date(hold).getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect((await profile(p)).bankAccount).toMatchObject({ bankCode: 'KBANK', bankAccountNo: change.bankAccountNo, withdrawHoldUntil: hold });

    const rows = await audit(id);
    expect(rows).toEqual([{ id: expect.anything(), player_id: expect.anything(), action: 'BANK_CHANGED', detail: expect.any(String), request_id: expect.any(String), created_at: expect.any(String) }]);
    expect(JSON.parse(rows[0].detail)).toEqual({
      from: { bankCode: 'SCB', accountNoEnd: p.bankAccountNo.slice(-4) },
      to: { bankCode: 'KBANK', accountNoEnd: change.bankAccountNo.slice(-4) },
      withdrawHoldUntil: hold,
    });
    expect(rows[0].detail).not.toContain(change.bankAccountNo);

    const refused = await withdraw(p, 200);
    expect([refused.statusCode, refused.json()]).toEqual([422, { message: 'BANK_CHANGE_COOLDOWN' }]);
    expect(await walletBalance(t.db.db, id)).toBe(1_000_00);
    expect(await t.db.db.selectFrom('withdrawals').select('id').where('player_id', '=', id).execute()).toEqual([]);
    // A name-only edit during the hold neither lifts nor extends it.
    expect((await put(p, { ...change, name: 'Another', password: undefined })).json()).toMatchObject({ bankAccount: { withdrawHoldUntil: hold } });
  });

  test('a change made 24 hours ago no longer holds: the withdrawal goes to the new account', async () => {
    const p = await playerWithToken(t.app);
    const id = await idOf(p);
    await depositTo(t.db.db, id, 1_000_00);
    manualClock(t.app, new Date(Date.now() - 24 * 3600_000 - 1000));
    const change = newBank(p, { password: p.password });
    expect((await put(p, change)).statusCode).toBe(200);
    t.app.clock.now = () => new Date();
    expect((await profile(p)).bankAccount.withdrawHoldUntil).toBeNull();
    const res = await withdraw(p, 200);
    expect(res.statusCode).toBe(200);
    const w = await t.db.db.selectFrom('withdrawals').select(['bank_code', 'bank_account_no']).where('player_id', '=', id).executeTakeFirstOrThrow();
    expect(w).toEqual({ bank_code: 'KBANK', bank_account_no: change.bankAccountNo });
  });

  test('a change made 23 hours ago still holds', async () => {
    const p = await playerWithToken(t.app);
    await depositTo(t.db.db, await idOf(p), 1_000_00);
    manualClock(t.app, new Date(Date.now() - 23 * 3600_000));
    expect((await put(p, newBank(p, { password: p.password }))).statusCode).toBe(200);
    t.app.clock.now = () => new Date();
    expect((await withdraw(p, 200)).json()).toEqual({ message: 'BANK_CHANGE_COOLDOWN' });
  });

  test('the audit trail is append-only: rows cannot be changed, deleted or replaced', async () => {
    const p = await playerWithToken(t.app);
    const id = await idOf(p);
    expect((await put(p, newBank(p, { password: p.password }))).statusCode).toBe(200);
    const [row] = await audit(id);
    await expect(t.db.db.updateTable('account_audit').set({ detail: '{}' }).where('id', '=', row.id).execute()).rejects.toMatchObject(appendOnly);
    await expect(t.db.db.deleteFrom('account_audit').where('id', '=', row.id).execute()).rejects.toMatchObject(appendOnly);
    // INSERT OR REPLACE (SQLite) or an upsert (PostgreSQL) with the row's id.
    await expect(
      t.db.db
        .insertInto('account_audit')
        .values({ id: row.id, player_id: id, action: 'BANK_CHANGED', detail: '{}', request_id: null, created_at: row.created_at })
        .onConflict((oc) => oc.column('id').doUpdateSet({ detail: '{}' }))
        .execute(),
    ).rejects.toMatchObject(appendOnly);
    if (testEngine() === 'sqlite') {
      const replace = t.db.db.insertInto('account_audit').orReplace().values({ id: row.id, player_id: id, action: 'BANK_CHANGED', detail: '{}', request_id: null, created_at: row.created_at });
      await expect(replace.execute()).rejects.toMatchObject(appendOnly);
    }
    expect(await audit(id)).toEqual([row]);
  });
});

describe('BANK_CHANGE_COOLDOWN_SECONDS', () => {
  test('defaults to 24 hours and takes a positive whole number of seconds', () => {
    expect(loadAccountRules({}).bankChangeCooldownSeconds).toBe(86_400);
    expect(loadAccountRules({ BANK_CHANGE_COOLDOWN_SECONDS: '3600' }).bankChangeCooldownSeconds).toBe(3600);
    expect(() => loadAccountRules({ BANK_CHANGE_COOLDOWN_SECONDS: '0' })).toThrow(/BANK_CHANGE_COOLDOWN_SECONDS/);
    expect(() => loadAccountRules({ BANK_CHANGE_COOLDOWN_SECONDS: '1h' })).toThrow(/BANK_CHANGE_COOLDOWN_SECONDS/);
  });
});
