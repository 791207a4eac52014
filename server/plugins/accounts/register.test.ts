import { buildTestApp, type TestApp } from '../../test/support/helper';
import { counts, ensureReference, login, register, registration } from '../../test/support/accounts';

// Every login and registration hashes with scrypt (~130 ms, more on a busy 2-core machine).
jest.setTimeout(60_000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await ensureReference(t.db.db);
});
afterAll(() => t.close());

const validate = (body: object) => t.app.inject({ method: 'POST', url: '/api/account/validate', payload: body });

/** Sends the body, expects the status and code, and checks that no table changed. */
async function refused(url: string, body: object, status: number, message: string) {
  const before = await counts(t.db.db);
  const res = await t.app.inject({ method: 'POST', url, payload: body });
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message } });
  expect(await counts(t.db.db)).toEqual(before);
}

describe('POST /api/account registers a player', () => {
  test('stores the player with the name upper-cased, THB for BAHT, and the password hashed', async () => {
    const body = registration({ bankAccountName: '  somchai   jaidee ' });
    const res = await register(t.app, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'OK' });
    const row = await t.db.db.selectFrom('players').selectAll().where('phone', '=', body.username).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Somchai', bank_code: 'SCB', bank_account_name: 'SOMCHAI JAIDEE', currency: 'THB', source_code: 'facebook', inviter_id: null, status: 'active' });
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(body.password);
    expect((await login(t.app, body.username, body.password)).statusCode).toBe(200);
  });

  test('stores when the player confirmed their age (issue 15)', async () => {
    const body = registration();
    expect((await register(t.app, body)).statusCode).toBe(200);
    const row = await t.db.db.selectFrom('players').select('age_confirmed_at').where('phone', '=', body.username).executeTakeFirstOrThrow();
    expect(row.age_confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test.each([
    ['missing', undefined],
    ['false', false],
    ['the text "true"', 'true'],
    ['1', 1],
    ['null', null],
  ])('ageConfirmed %s is 422 AGE_NOT_CONFIRMED and writes nothing (issue 15)', async (_what, value) => {
    const body: Record<string, unknown> = { ...registration(), ageConfirmed: value };
    if (value === undefined) delete body.ageConfirmed;
    await refused('/api/account', body, 422, 'AGE_NOT_CONFIRMED');
  });

  test('a Thai account name is accepted for banks without the English rule', async () => {
    const res = await register(t.app, registration({ bankCode: 'KBANK', bankAccountName: 'สมชาย ใจดี' }));
    expect(res.statusCode).toBe(200);
  });

  test.each([
    ['name', { name: '' }],
    ['blank name', { name: '   ' }],
    ['password', { password: '' }],
    ['source', { sourceCode: '' }],
    ['bank account name', { bankAccountName: ' ' }],
    ['bank account number', { bankAccountNo: '' }],
  ])('an empty %s is INVALID_USER_INFO', async (_what, override) => {
    await refused('/api/account', registration(override), 400, 'INVALID_USER_INFO');
  });

  test.each(['name', 'username', 'password', 'sourceCode', 'bankCode', 'bankAccountName', 'bankAccountNo'])(
    'a missing %s is INVALID_USER_INFO',
    async (field) => {
      const body: Record<string, unknown> = { ...registration() };
      delete body[field];
      await refused('/api/account', body, 400, 'INVALID_USER_INFO');
    },
  );

  test.each([
    ['a number for the phone', { username: 812345678 }],
    ['an object for the name', { name: { first: 'a' } }],
    ['an unknown currency', { currency: 'USD' }],
    ['a name longer than 128 characters', { name: 'x'.repeat(129) }],
  ])('%s is INVALID_USER_INFO', async (_what, override) => {
    await refused('/api/account', { ...registration(), ...override }, 400, 'INVALID_USER_INFO');
  });

  test.each(['081234567', '08123456789', '1812345678', '08l2345678', '+66812345678'])('phone %s is PHONE_NUMBER_REQUIRE_10_DIGIT', async (phone) => {
    await refused('/api/account', registration({ username: phone }), 400, 'PHONE_NUMBER_REQUIRE_10_DIGIT');
  });

  test('a password of 5 characters is PASSWORD_TOO_SHORT (the code names the rule), 6 is enough; none is INVALID_USER_INFO', async () => {
    await refused('/api/account', registration({ password: '12345' }), 400, 'PASSWORD_TOO_SHORT');
    await refused('/api/account', registration({ password: '' }), 400, 'INVALID_USER_INFO');
    expect((await register(t.app, registration({ password: '123456' }))).statusCode).toBe(200);
  });

  test('an unknown source is INVALID_USER_INFO', async () => {
    await refused('/api/account', registration({ sourceCode: 'no-such-source' }), 400, 'INVALID_USER_INFO');
  });

  test('an unknown bank or a PAYMENT channel is INVALID_BANK', async () => {
    await refused('/api/account', registration({ bankCode: 'XYZ' }), 400, 'INVALID_BANK');
    await refused('/api/account', registration({ bankCode: 'WW' }), 400, 'INVALID_BANK');
  });

  test.each(['KTB', 'TMB', 'BBL'])('%s needs an English name (BANK_ACCOUNT_NAME_ENG)', async (bankCode) => {
    await refused('/api/account', registration({ bankCode, bankAccountName: 'สมชาย ใจดี' }), 400, 'BANK_ACCOUNT_NAME_ENG');
    await refused('/api/account', registration({ bankCode, bankAccountName: 'SOMCHAI J.' }), 400, 'BANK_ACCOUNT_NAME_ENG');
    const ok = registration({ bankCode, bankAccountName: 'somchai jaidee' });
    expect((await register(t.app, ok)).statusCode).toBe(200);
    const row = await t.db.db.selectFrom('players').select('bank_account_name').where('phone', '=', ok.username).executeTakeFirstOrThrow();
    expect(row.bank_account_name).toBe('SOMCHAI JAIDEE');
  });

  test.each(['123456789', '1234567890123456', '12345-67890', '12345abcde'])('bank account number %s is INVALID_USER_INFO', async (no) => {
    await refused('/api/account', registration({ bankAccountNo: no }), 400, 'INVALID_USER_INFO');
  });

  test('LAK is refused in the Thai market', async () => {
    await refused('/api/account', registration({ currency: 'LAK' }), 400, 'INVALID_USER_INFO');
  });

  test('a phone already registered is EXISTING_USER, a bank account already used is EXISTING_BANK', async () => {
    const first = registration();
    expect((await register(t.app, first)).statusCode).toBe(200);
    await refused('/api/account', registration({ username: first.username }), 409, 'EXISTING_USER');
    await refused('/api/account', registration({ bankAccountNo: first.bankAccountNo }), 409, 'EXISTING_BANK');
  });

  test('invite code PR{id} links the inviter in any case; an unknown or malformed code is ignored', async () => {
    const inviter = registration();
    await register(t.app, inviter);
    const { id } = await t.db.db.selectFrom('players').select('id').where('phone', '=', inviter.username).executeTakeFirstOrThrow();
    const cases: [string, number | null][] = [[`PR${id}`, Number(id)], [`pr${id}`, Number(id)], ['PR999999', null], ['HELLO', null]];
    for (const [inviteCode, expected] of cases) {
      const body = registration({ inviteCode });
      expect((await register(t.app, body)).statusCode).toBe(200);
      const row = await t.db.db.selectFrom('players').select('inviter_id').where('phone', '=', body.username).executeTakeFirstOrThrow();
      expect(row.inviter_id === null ? null : Number(row.inviter_id)).toBe(expected);
    }
    expect((await register(t.app, { ...registration(), inviteCode: null })).statusCode).toBe(200);
  });

  test('concurrent registrations of one phone create exactly one player', async () => {
    const phone = registration().username;
    const results = await Promise.all(Array.from({ length: 6 }, () => register(t.app, registration({ username: phone }))));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json()).toEqual({ message: 'EXISTING_USER' });
    const n = await t.db.db.selectFrom('players').select((eb) => eb.fn.countAll<number>().as('n')).where('phone', '=', phone).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  test('concurrent registrations with one bank account create exactly one player', async () => {
    const no = registration().bankAccountNo;
    const results = await Promise.all(Array.from({ length: 6 }, () => register(t.app, registration({ bankAccountNo: no }))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json()).toEqual({ message: 'EXISTING_BANK' });
    const n = await t.db.db.selectFrom('players').select((eb) => eb.fn.countAll<number>().as('n')).where('bank_account_no', '=', no).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  test('a body over the size limit is 413 KEY_INVALID and writes nothing', async () => {
    const before = await counts(t.db.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/account', payload: { ...registration(), name: 'x'.repeat(100 * 1024) } });
    expect([res.statusCode, res.json()]).toEqual([413, { message: 'KEY_INVALID' }]);
    expect(await counts(t.db.db)).toEqual(before);
  });

  test('a body that is not JSON is refused (400 KEY_INVALID) and writes nothing', async () => {
    const before = await counts(t.db.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/account', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect([res.statusCode, res.json()]).toEqual([400, { message: 'KEY_INVALID' }]);
    expect(await counts(t.db.db)).toEqual(before);
  });
});

describe('POST /api/account/validate checks without registering', () => {
  test('a valid profile step (no bank yet) and a valid full payload answer OK and write nothing', async () => {
    const before = await counts(t.db.db);
    const full = registration();
    const { bankCode: _b, bankAccountName: _n, bankAccountNo: _a, ...profileStep } = full;
    expect((await validate(profileStep)).json()).toEqual({ message: 'OK' });
    expect((await validate({ ...profileStep, bankCode: '', bankAccountName: '', bankAccountNo: '' })).statusCode).toBe(200);
    const res = await validate(full);
    expect(res.statusCode).toBe(200);
    expect(await counts(t.db.db)).toEqual(before);
  });

  test('gives the same codes as registration', async () => {
    const taken = registration();
    await register(t.app, taken);
    await refused('/api/account/validate', registration({ name: '' }), 400, 'INVALID_USER_INFO');
    await refused('/api/account/validate', registration({ username: '0812' }), 400, 'PHONE_NUMBER_REQUIRE_10_DIGIT');
    await refused('/api/account/validate', registration({ password: 'abc' }), 400, 'PASSWORD_TOO_SHORT');
    await refused('/api/account/validate', registration({ sourceCode: 'nope' }), 400, 'INVALID_USER_INFO');
    await refused('/api/account/validate', registration({ username: taken.username }), 409, 'EXISTING_USER');
    await refused('/api/account/validate', registration({ bankCode: 'E2X' }), 400, 'INVALID_BANK');
    await refused('/api/account/validate', registration({ bankCode: 'KTB', bankAccountName: 'ก ข' }), 400, 'BANK_ACCOUNT_NAME_ENG');
    await refused('/api/account/validate', registration({ bankAccountNo: '12' }), 400, 'INVALID_USER_INFO');
    await refused('/api/account/validate', registration({ bankAccountNo: taken.bankAccountNo }), 409, 'EXISTING_BANK');
  });
});

describe('POST /api/account/checkPhone: step 1 tells a registered phone at once (issue 12)', () => {
  const check = (username: unknown) => t.app.inject({ method: 'POST', url: '/api/account/checkPhone', payload: { username } });

  test('a free phone is OK and writes nothing', async () => {
    const before = await counts(t.db.db);
    const res = await check(registration().username);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { message: 'OK' } });
    expect(await counts(t.db.db)).toEqual(before);
  });

  test('a registered phone is 409 EXISTING_USER, whatever the spaces around it', async () => {
    const body = registration();
    expect((await register(t.app, body)).statusCode).toBe(200);
    await refused('/api/account/checkPhone', { username: body.username }, 409, 'EXISTING_USER');
    await refused('/api/account/checkPhone', { username: ` ${body.username} ` }, 409, 'EXISTING_USER');
  });

  test('a malformed phone is PHONE_NUMBER_REQUIRE_10_DIGIT; none is INVALID_USER_INFO; a wrong type is 400', async () => {
    await refused('/api/account/checkPhone', { username: '081234567' }, 400, 'PHONE_NUMBER_REQUIRE_10_DIGIT');
    await refused('/api/account/checkPhone', { username: '' }, 400, 'INVALID_USER_INFO');
    const res = await check(12);
    expect(res.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/account/checkPhone', payload: {} })).statusCode).toBe(400);
  });
});

describe('Lao market', () => {
  let lao: TestApp;
  beforeAll(async () => {
    lao = await buildTestApp({ MARKET: 'lao' });
    await ensureReference(lao.db.db);
  });
  afterAll(() => lao.close());

  test('accepts 8 to 11 digits and stores LAK; defaults to LAK', async () => {
    for (const [username, currency, stored] of [
      ['20551234', 'LAK', 'LAK'],
      ['02055123456', 'BAHT', 'THB'],
      ['2055123456', '', 'LAK'],
    ]) {
      const body = registration({ username, currency, bankCode: 'BCEL' });
      const res = await register(lao.app, body);
      expect(res.statusCode).toBe(200);
      const row = await lao.db.db.selectFrom('players').select('currency').where('phone', '=', username).executeTakeFirstOrThrow();
      expect(row.currency).toBe(stored);
    }
  });

  test('refuses 7 and 12 digits', async () => {
    for (const username of ['2055123', '020551234567']) {
      const res = await register(lao.app, registration({ username }));
      expect(res.json()).toEqual({ message: 'PHONE_NUMBER_REQUIRE_10_DIGIT' });
    }
  });
});
