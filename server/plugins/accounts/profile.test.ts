import { buildTestApp, type TestApp } from '../../test/support/helper';
import { bearer, counts, ensureReference, login, playerWithToken, registration } from '../../test/support/accounts';

// Every login and registration hashes with scrypt (~130 ms, more on a busy 2-core machine).
jest.setTimeout(60_000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await ensureReference(t.db.db);
});
afterAll(() => t.close());

const get = (token: string) => t.app.inject({ method: 'GET', url: '/api/account/profile', headers: bearer(token) });
const put = (url: string, token: string, payload: object) => t.app.inject({ method: 'PUT', url, headers: bearer(token), payload });

async function refusedPut(url: string, token: string, payload: object, status: number, message: string) {
  const before = await t.db.db.selectFrom('players').selectAll().orderBy('id').execute();
  const c = await counts(t.db.db);
  const res = await put(url, token, payload);
  expect([res.statusCode, res.json()]).toEqual([status, { message }]);
  expect(await t.db.db.selectFrom('players').selectAll().orderBy('id').execute()).toEqual(before);
  expect(await counts(t.db.db)).toEqual(c);
}

describe('GET /api/account/profile', () => {
  test('answers the profile and bank account of spec §3', async () => {
    const p = await playerWithToken(t.app, { name: 'Somchai', bankCode: 'KBANK', bankAccountName: 'somchai jaidee' });
    const row = await t.db.db.selectFrom('players').select(['id', 'created_at']).where('phone', '=', p.username).executeTakeFirstOrThrow();
    const res = await get(p.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      profile: { _id: String(row.id), username: p.username, name: 'Somchai', createdAt: row.created_at },
      bankAccount: {
        bankAccountName: 'SOMCHAI JAIDEE',
        bankAccountNo: p.bankAccountNo,
        bankCode: 'KBANK',
        currency: 'BAHT',
        bank: { nameTH: 'ธนาคารกสิกรไทย', nameEN: expect.any(String) },
        withdrawHoldUntil: null,
      },
    });
    expect(new Date((res.json() as { profile: { createdAt: string } }).profile.createdAt).toISOString()).toBe(row.created_at);
  });

  test('without a token: UNAUTHORIZED; with a forged one: invalid-token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/account/profile' });
    expect([none.statusCode, none.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
    const forged = await get('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.bad');
    expect([forged.statusCode, forged.json()]).toEqual([401, { message: 'invalid-token' }]);
  });
});

describe('PUT /api/account/profile', () => {
  test('changes name and bank data with the registration rules and answers the new profile', async () => {
    const p = await playerWithToken(t.app);
    const no = registration().bankAccountNo;
    const res = await put('/api/account/profile', p.token, { name: ' Somsri  Dee ', bankCode: 'KTB', bankAccountName: 'somsri dee', bankAccountNo: no, password: p.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      profile: { name: 'Somsri Dee', username: p.username },
      bankAccount: { bankCode: 'KTB', bankAccountName: 'SOMSRI DEE', bankAccountNo: no, bank: { nameTH: 'ธนาคารกรุงไทย' } },
    });
    // Keeping one's own account number is not a duplicate.
    expect((await put('/api/account/profile', p.token, { name: 'Somsri', bankCode: 'KTB', bankAccountName: 'SOMSRI DEE', bankAccountNo: no })).statusCode).toBe(200);
  });

  test('every bad field has its code and changes nothing', async () => {
    const p = await playerWithToken(t.app);
    const other = await playerWithToken(t.app);
    // A new account number: the current password comes with it (bank-guard.test.ts covers its absence).
    const ok = { name: 'A', bankCode: 'SCB', bankAccountName: 'A B', bankAccountNo: registration().bankAccountNo, password: p.password };
    await refusedPut('/api/account/profile', p.token, { ...ok, name: ' ' }, 400, 'INVALID_USER_INFO');
    await refusedPut('/api/account/profile', p.token, { ...ok, bankCode: 'NOPE' }, 400, 'INVALID_BANK');
    await refusedPut('/api/account/profile', p.token, { ...ok, bankCode: 'WW' }, 400, 'INVALID_BANK');
    await refusedPut('/api/account/profile', p.token, { ...ok, bankCode: 'BBL', bankAccountName: 'สมศรี' }, 400, 'BANK_ACCOUNT_NAME_ENG');
    await refusedPut('/api/account/profile', p.token, { ...ok, bankAccountNo: '123' }, 400, 'INVALID_USER_INFO');
    // The right password clears the phone's login counter, which was empty: nothing changes.
    await refusedPut('/api/account/profile', p.token, { ...ok, bankAccountNo: other.bankAccountNo }, 409, 'EXISTING_BANK');
    const { name: _n, ...missing } = ok;
    await refusedPut('/api/account/profile', p.token, missing, 400, 'INVALID_USER_INFO');
    await refusedPut('/api/account/profile', p.token, { ...ok, bankAccountNo: 1234567890 }, 400, 'INVALID_USER_INFO');
  });

  test('two players racing for one account number: one wins, the other gets EXISTING_BANK', async () => {
    const a = await playerWithToken(t.app);
    const b = await playerWithToken(t.app);
    const no = registration().bankAccountNo;
    const body = { name: 'X', bankCode: 'SCB', bankAccountName: 'X', bankAccountNo: no };
    const [ra, rb] = await Promise.all([
      put('/api/account/profile', a.token, { ...body, password: a.password }),
      put('/api/account/profile', b.token, { ...body, password: b.password }),
    ]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 409]);
    const n = await t.db.db.selectFrom('players').select('id').where('bank_account_no', '=', no).execute();
    expect(n).toHaveLength(1);
  });
});

describe('PUT /api/account/bankAccountName', () => {
  test('stores the name upper-cased and single-spaced', async () => {
    const p = await playerWithToken(t.app, { bankCode: 'KTB', bankAccountName: 'OLD NAME' });
    const res = await put('/api/account/bankAccountName', p.token, { bankCode: 'KTB', bankAccountName: ' new   name ' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { bankAccount: { bankAccountName: string } }).bankAccount.bankAccountName).toBe('NEW NAME');
  });

  test('A-Z and spaces only (BANK_ACCOUNT_NAME_ENG), required, and only for the registered bank (INVALID_BANK)', async () => {
    const p = await playerWithToken(t.app, { bankCode: 'KBANK', bankAccountName: 'สมชาย' });
    await refusedPut('/api/account/bankAccountName', p.token, { bankCode: 'KBANK', bankAccountName: 'สมชาย ใจดี' }, 400, 'BANK_ACCOUNT_NAME_ENG');
    await refusedPut('/api/account/bankAccountName', p.token, { bankCode: 'KBANK', bankAccountName: 'JOHN 2' }, 400, 'BANK_ACCOUNT_NAME_ENG');
    await refusedPut('/api/account/bankAccountName', p.token, { bankCode: 'KBANK', bankAccountName: '  ' }, 400, 'INVALID_USER_INFO');
    await refusedPut('/api/account/bankAccountName', p.token, { bankCode: 'SCB', bankAccountName: 'JOHN' }, 400, 'INVALID_BANK');
    await refusedPut('/api/account/bankAccountName', p.token, { bankAccountName: 'JOHN' }, 400, 'INVALID_USER_INFO');
    expect((await t.app.inject({ method: 'PUT', url: '/api/account/bankAccountName', payload: { bankCode: 'KBANK', bankAccountName: 'A' } })).statusCode).toBe(401);
  });
});

describe('PUT /api/account/changepwd', () => {
  const change = (token: string, oldPassword: string, newPassword: string) =>
    put('/api/account/changepwd', token, { oldPassword, newPassword });

  test('sets the new password, revokes every earlier token and returns a fresh one', async () => {
    const p = await playerWithToken(t.app);
    const otherDevice = (await login(t.app, p.username, p.password)).json() as { token: string };
    const res = await change(p.token, p.password, 'brand-new');
    expect(res.statusCode).toBe(200);
    const { message, token } = res.json() as { message: string; token: string };
    expect(message).toBe('OK');
    for (const old of [p.token, otherDevice.token]) {
      const r = await get(old);
      expect([r.statusCode, r.json()]).toEqual([401, { message: 'invalid-token' }]);
    }
    expect((await get(token)).statusCode).toBe(200);
    expect((await login(t.app, p.username, p.password)).json()).toEqual({ message: 'WRONG_CREDENTIAL' });
    expect((await login(t.app, p.username, 'brand-new')).statusCode).toBe(200);
  });

  test('a wrong old password is WRONG_PASSWORD (422); a short new one PASSWORD_TOO_SHORT; nothing changes', async () => {
    const p = await playerWithToken(t.app);
    // A wrong old password changes nothing but its counted try (docs/accounts.md "Guess limits").
    const before = await counts(t.db.db);
    const wrong = await put('/api/account/changepwd', p.token, { oldPassword: 'not-mine', newPassword: 'another1' });
    expect([wrong.statusCode, wrong.json()]).toEqual([422, { message: 'WRONG_PASSWORD' }]);
    expect(await counts(t.db.db)).toEqual({ ...before, guess_counters: before.guess_counters + 1, guess_attempts: before.guess_attempts + 1 });
    await refusedPut('/api/account/changepwd', p.token, { oldPassword: p.password, newPassword: '12345' }, 400, 'PASSWORD_TOO_SHORT');
    await refusedPut('/api/account/changepwd', p.token, { oldPassword: p.password }, 400, 'INVALID_USER_INFO');
    expect((await get(p.token)).statusCode).toBe(200);
    expect((await login(t.app, p.username, p.password)).statusCode).toBe(200);
  });

  test('needs a token', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/account/changepwd', payload: { oldPassword: 'a', newPassword: 'bbbbbb' } });
    expect(res.statusCode).toBe(401);
  });
});
