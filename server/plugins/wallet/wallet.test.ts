import { buildWalletTestApp, depositTo, type WalletTestApp } from '../../test/support/ledger';
import { runAudit, walletBalance } from '../../ledger';
import { nowIso } from '../../db';

let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  t.sim.clearFaults();
  const audit = await runAudit(t.db.db);
  expect(audit.violations).toEqual([]);
});

type H = { authorization: string };
const get = (url: string, headers?: H) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: object, headers?: H, extra: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...extra } });
const wallet = async (headers: H) => (await get('/api/wallet', headers)).json();
const slot = async (headers: H, code: string) => (await wallet(headers)).slots.find((s: { code: string }) => s.code === code);

describe('GET /api/wallet', () => {
  test('needs a token', async () => {
    const res = await get('/api/wallet');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'UNAUTHORIZED' });
  });

  test('answers profile, bank account, wallet, invite and every active game', async () => {
    const p = await t.player({ balance: 12_345 });
    const res = await get('/api/wallet', p.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.profile).toEqual({ name: expect.any(String), username: expect.stringMatching(/^0\d{9}$/), _id: String(p.id), coin: 0 });
    expect(body.bankAccount).toEqual({
      bankAccountName: expect.any(String),
      bankAccountNo: expect.any(String),
      bankCode: 'KBANK',
      bank: { nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank' },
    });
    expect(body.wallet).toEqual({ amount: 123.45 });
    expect(body.invite).toEqual({ amount: 0, success: 0, fail: 0 });
    expect(body.slots.map((s: { code: string }) => s.code).sort()).toEqual(
      expect.arrayContaining(['areaslot', 'askmebet', 'betflix', 'circus', 'huayhd', 'imi', 'joker2', 'pg', 'pgslot', 'slotracha', 'usun']),
    );
    // Every active game of the catalogue (the seed's transfer games, and its seamless demo slot: issue 42).
    const active = await t.db.db.selectFrom('games').select('code').where('active', '=', 1).execute();
    expect(body.slots.map((s: { code: string }) => s.code).sort()).toEqual(active.map((g) => g.code).sort());
    const joker = body.slots.find((s: { code: string }) => s.code === 'joker2');
    expect(joker).toMatchObject({
      code: 'joker2', name: 'Joker Gaming', category: 'slot', isActive: false, amount: 0, ftWalletSlot: 10,
      logo: expect.any(String), background: expect.any(String), web: null,
    });
    expect(Object.keys(joker).sort()).toEqual(['amount', 'android', 'background', 'category', 'code', 'ftWalletSlot', 'ios', 'isActive', 'logo', 'name', 'seamless', 'web']);
    expect(joker.seamless).toBe(false);
  });
});

describe('game accounts', () => {
  test('activate opens the account once (SLOT_ALREADY_ACTIVE), unknown game is NO_GAME', async () => {
    const p = await t.player();
    const res = await get('/api/wallet/activate/pg', p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'pg', isActive: true, amount: 0, web: expect.stringMatching(/^\/api\/autoLogin\/pg\/pw\d+$/) });
    expect(await slot(p.headers, 'pg')).toMatchObject({ isActive: true });
    const again = await get('/api/wallet/activate/pg', p.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'SLOT_ALREADY_ACTIVE' });
    const none = await get('/api/wallet/activate/nosuchgame', p.headers);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: 'NO_GAME' });
  });

  test('a provider that fails to create the player gives SLOT_ACTIVATE_FAIL and no account', async () => {
    const p = await t.player();
    t.sim.failNext('createPlayer', 'timeout-before-apply');
    const res = await get('/api/wallet/activate/pgslot', p.headers);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: 'SLOT_ACTIVATE_FAIL' });
    expect(await slot(p.headers, 'pgslot')).toMatchObject({ isActive: false });
  });

  test('account shows the credentials (with the event object for the provider that has one); SLOT_NO_ACCOUNT before activation', async () => {
    const p = await t.player({ games: ['pg', 'huayhd'] });
    const res = await get('/api/wallet/account/pg', p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ username: `pw${p.id}`, password: expect.any(String) });
    const ev = await get('/api/wallet/account/huayhd', p.headers);
    expect(ev.json()).toEqual({ username: `pw${p.id}`, password: expect.any(String), event: { formState: expect.any(Object) } });
    const no = await get('/api/wallet/account/imi', p.headers);
    expect(no.statusCode).toBe(404);
    expect(no.json()).toEqual({ message: 'SLOT_NO_ACCOUNT' });
    expect((await get('/api/wallet/account/zzz', p.headers)).json()).toEqual({ message: 'NO_GAME' });
  });

  test('resetpassword gives a new password and stores it; a provider failure is SLOT_RESET_PASSWORD_FAIL', async () => {
    const p = await t.player({ games: ['pg'] });
    const before = (await get('/api/wallet/account/pg', p.headers)).json();
    const res = await get('/api/wallet/resetpassword/pg', p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().password).not.toBe(before.password);
    expect((await get('/api/wallet/account/pg', p.headers)).json().password).toBe(res.json().password);
    t.sim.failNext('resetPassword', 'timeout-before-apply');
    const fail = await get('/api/wallet/resetpassword/pg', p.headers);
    expect(fail.statusCode).toBe(502);
    expect(fail.json()).toEqual({ message: 'SLOT_RESET_PASSWORD_FAIL' });
    expect((await get('/api/wallet/resetpassword/imi', p.headers)).json()).toEqual({ message: 'SLOT_NO_ACCOUNT' });
  });
});

describe('POST /api/wallet/transfer', () => {
  test('WALLET -> game and back move the money at the provider and in the books', async () => {
    const p = await t.player({ balance: 50_000, games: ['pg'] });
    const res = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 100.5 }, p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', transferId: expect.any(String), amount: 100.5 });
    expect(await walletBalance(t.db.db, p.id)).toBe(39_950);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(10_050);
    expect(await slot(p.headers, 'pg')).toMatchObject({ amount: 100.5 });
    const back = await post('/api/wallet/transfer', { from: 'pg', to: 'WALLET', amount: 1.5 }, p.headers);
    expect(back.statusCode).toBe(200);
    expect(await walletBalance(t.db.db, p.id)).toBe(40_100);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(9_900);
  });

  test('refuses bad amounts and accounts with their codes, moving nothing', async () => {
    const p = await t.player({ balance: 1_000, games: ['pg'] });
    const cases: [object, number, string][] = [
      [{ from: 'WALLET', to: 'pg', amount: 0.99 }, 422, 'TRANSFER_MINIMUM'],
      [{ from: 'WALLET', to: 'pg', amount: 0 }, 422, 'TRANSFER_MINIMUM'],
      [{ from: 'WALLET', to: 'pg', amount: -5 }, 422, 'TRANSFER_MINIMUM'],
      [{ from: 'WALLET', to: 'pg', amount: 1.001 }, 400, 'INVALID_USER_INFO'],
      [{ from: 'WALLET', to: 'pg', amount: 'ten' }, 400, 'INVALID_USER_INFO'],
      // Amounts are JSON numbers: text that reads as one is refused like any malformed amount.
      [{ from: 'WALLET', to: 'pg', amount: '5' }, 400, 'INVALID_USER_INFO'],
      [{ from: 'WALLET', to: 'pg', amount: ' 5 ' }, 400, 'INVALID_USER_INFO'],
      [{ from: 'WALLET', to: 'pg', amount: [5] }, 400, 'INVALID_USER_INFO'],
      [{ from: 'WALLET', to: 'WALLET', amount: 5 }, 400, 'INVALID_USER_INFO'],
      [{ from: 'pg', to: 'pg', amount: 5 }, 400, 'INVALID_USER_INFO'],
      [{ from: 'WALLET', to: 'pg', amount: 10.01 }, 422, 'MONEY_NOT_ENOUGH'],
      [{ from: 'pg', to: 'WALLET', amount: 1 }, 422, 'MONEY_NOT_ENOUGH'],
      [{ from: 'WALLET', to: 'nosuch', amount: 5 }, 404, 'NO_GAME'],
      [{ from: 'WALLET', to: 'imi', amount: 5 }, 422, 'SLOT_NO_ACCOUNT'],
      [{ from: 'WALLET', to: 'pg' }, 400, 'INVALID_USER_INFO'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post('/api/wallet/transfer', body, p.headers);
      expect([JSON.stringify(body), res.statusCode, res.json()]).toEqual([JSON.stringify(body), status, { message: code }]);
    }
    expect(await walletBalance(t.db.db, p.id)).toBe(1_000);
  });

  test('a definite provider failure is TRANSFER_FAIL with the money back in the wallet and a FAILED statement', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    t.sim.failNext('deposit', 'reject');
    const res = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 40 }, p.headers);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'TRANSFER_FAIL' });
    expect(await walletBalance(t.db.db, p.id)).toBe(10_000);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(0);
    const st = (await post('/api/statement', { page: 1, limit: 10 }, p.headers)).json();
    expect(st.statements[0]).toMatchObject({ statementType: 'transfer', status: 'FAILED', from: 'WALLET', to: 'pg', amount: 40 });
  });

  test('a provider timeout answers 202 IN_PROGRESS; reconciliation settles it (applied) or reverses it (not applied)', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    t.sim.failNext('deposit', 'timeout-after-apply');
    const a = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 30 }, p.headers);
    expect(a.statusCode).toBe(202);
    expect(a.json()).toMatchObject({ status: 'IN_PROGRESS', message: 'TRANSFER_IN_PROGRESS' });
    t.sim.failNext('deposit', 'timeout-before-apply');
    const b = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 20 }, p.headers);
    expect(b.statusCode).toBe(202);
    expect(await walletBalance(t.db.db, p.id)).toBe(5_000);
    expect((await runAudit(t.db.db)).ok).toBe(true); // money parked in game_transit matches the pending rows
    // The request keeps its claim for claimMs; the reconciler takes over once it expires.
    await t.db.db.updateTable('game_transfers').set({ claimed_until: nowIso(new Date(Date.now() - 1)) }).where('player_id', '=', p.id).execute();
    const r = await t.app.wallet.reconcileNow();
    expect(r).toMatchObject({ settled: 2, reversed: 0, stillPending: 0 }); // b was never applied: sent again with the same id
    expect(await walletBalance(t.db.db, p.id)).toBe(5_000);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(5_000);
    expect(await slot(p.headers, 'pg')).toMatchObject({ amount: 50 });
    const st = (await post('/api/statement', { page: 1, limit: 10 }, p.headers)).json();
    expect(st.statements.slice(0, 2).map((s: { status: string }) => s.status)).toEqual(['SUCCESS', 'SUCCESS']);
  });

  test('game -> game goes through the wallet in two legs', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg', 'joker2'] });
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 60 }, p.headers);
    const res = await post('/api/wallet/transfer', { from: 'pg', to: 'joker2', amount: 25 }, p.headers);
    expect(res.statusCode).toBe(200);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(3_500);
    expect(await t.sim.balance('joker2', `pw${p.id}`)).toBe(2_500);
    expect(await walletBalance(t.db.db, p.id)).toBe(4_000);
    const st = (await post('/api/statement', { page: 1, limit: 2 }, p.headers)).json();
    expect(st.statements.map((s: { from: string; to: string }) => `${s.from}>${s.to}`)).toEqual(['WALLET>joker2', 'pg>WALLET']);
    // The second leg refused: the money stays in the wallet (TRANSFER_FAIL: funds returned to the wallet).
    t.sim.failNext('deposit', 'reject');
    const fail = await post('/api/wallet/transfer', { from: 'pg', to: 'joker2', amount: 10 }, p.headers);
    expect(fail.json()).toEqual({ message: 'TRANSFER_FAIL' });
    expect(await walletBalance(t.db.db, p.id)).toBe(5_000);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(2_500);
    // No account at the destination: refused before any money moves.
    expect((await post('/api/wallet/transfer', { from: 'pg', to: 'imi', amount: 10 }, p.headers)).json()).toEqual({ message: 'SLOT_NO_ACCOUNT' });
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(2_500);
  });

  test('game -> wallet first reads the provider: winnings can be moved, and the books explain them', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 100 }, p.headers);
    await t.sim.deposit('pg', `pw${p.id}`, `win-${p.id}`, 5_000); // the player won 50 at the game
    const res = await post('/api/wallet/transfer', { from: 'pg', to: 'WALLET', amount: 150 }, p.headers);
    expect(res.statusCode).toBe(200);
    expect(await walletBalance(t.db.db, p.id)).toBe(15_000);
    const result = await t.db.db.selectFrom('journal_entries').select('kind').where('player_id', '=', p.id).where('kind', '=', 'game_result').execute();
    expect(result).toHaveLength(1);
    const fl = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'provider_float:pg:THB').executeTakeFirstOrThrow();
    expect(Number(fl.balance)).toBeLessThanOrEqual(-5_000);
  });

  test('a withdraw the provider refuses (the player lost it meanwhile) is TRANSFER_FAIL and the game mirror is restored', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 100 }, p.headers);
    t.sim.failNext('withdraw', 'reject');
    const res = await post('/api/wallet/transfer', { from: 'pg', to: 'WALLET', amount: 100 }, p.headers);
    expect(res.json()).toEqual({ message: 'TRANSFER_FAIL' });
    expect(await slot(p.headers, 'pg')).toMatchObject({ amount: 100 });
    expect(await walletBalance(t.db.db, p.id)).toBe(0);
  });
});

describe('POST /api/wallet/transferAll', () => {
  test('moves the whole wallet into the game; an empty wallet is MONEY_NOT_ENOUGH, under 1 baht TRANSFER_MINIMUM', async () => {
    const p = await t.player({ balance: 7_777, games: ['pg'] });
    const res = await post('/api/wallet/transferAll', { to: 'pg' }, p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'SUCCESS', amount: 77.77 });
    expect(await walletBalance(t.db.db, p.id)).toBe(0);
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(7_777);
    expect((await post('/api/wallet/transferAll', { to: 'pg' }, p.headers)).json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });
    await depositTo(t.db.db, p.id, 99);
    expect((await post('/api/wallet/transferAll', { to: 'pg' }, p.headers)).json()).toEqual({ message: 'TRANSFER_MINIMUM' });
    expect((await post('/api/wallet/transferAll', { to: 'WALLET' }, p.headers)).json()).toEqual({ message: 'INVALID_USER_INFO' });
    expect((await post('/api/wallet/transferAll', { to: 'nosuch' }, p.headers)).statusCode).toBe(422); // 99 satang: the minimum is checked first
  });
});

describe('POST /api/wallet/withdrawAll', () => {
  test('bounds from the withdraw setting, MONEY_NOT_ENOUGH, then IN_PROGRESS until the payout settles', async () => {
    const p = await t.player({ balance: 60_000_00 });
    expect((await post('/api/wallet/withdrawAll', { amount: 99.99 }, p.headers)).json()).toEqual({ message: 'TRANSFER_MINIMUM' });
    const big = await post('/api/wallet/withdrawAll', { amount: 50_000.01 }, p.headers);
    expect([big.statusCode, big.json()]).toEqual([422, { message: 'INVALID_USER_INFO' }]);
    for (const text of ['1000', ' 1000 ']) {
      const res = await post('/api/wallet/withdrawAll', { amount: text }, p.headers);
      expect([res.statusCode, res.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
    }
    const q = await t.player({ balance: 50_00 });
    expect((await post('/api/wallet/withdrawAll', { amount: 100 }, q.headers)).json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });

    const res = await post('/api/wallet/withdrawAll', { amount: 1_000 }, p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'IN_PROGRESS', message: 'WITHDRAW_IN_PROGRESS', withdrawalId: expect.any(String), amount: 1000 });
    expect(await walletBalance(t.db.db, p.id)).toBe(59_000_00);
    let st = (await post('/api/statement', { page: 1, limit: 1 }, p.headers)).json();
    expect(st.statements[0]).toMatchObject({ statementType: 'withdraw', status: 'IN_PROGRESS', from: 'WALLET', to: 'KBANK', amount: 1000 });
    expect(t.payouts.pending().map((x) => x.withdrawalId)).toContain(res.json().withdrawalId);
    await t.payouts.settle(res.json().withdrawalId, true);
    st = (await post('/api/statement', { page: 1, limit: 1 }, p.headers)).json();
    expect(st.statements[0].status).toBe('SUCCESS');
    expect(await walletBalance(t.db.db, p.id)).toBe(59_000_00);
    // The webhook may repeat itself: nothing changes the second time.
    expect(await t.app.wallet.settlePayout(res.json().withdrawalId, false)).toEqual({ applied: false, status: 'SUCCESS' });
    expect(await t.app.wallet.settlePayout('no-such-id', true)).toEqual({ applied: false, status: null });
  });

  test('a failed payout returns the money to the wallet (FAILED)', async () => {
    const p = await t.player({ balance: 500_00 });
    const res = await post('/api/wallet/withdrawAll', { amount: 200 }, p.headers);
    expect(await walletBalance(t.db.db, p.id)).toBe(300_00);
    expect(await t.app.wallet.settlePayout(res.json().withdrawalId, false, 'BANK_REJECTED')).toEqual({ applied: true, status: 'FAILED' });
    expect(await walletBalance(t.db.db, p.id)).toBe(500_00);
    const st = (await post('/api/statement', { page: 1, limit: 1 }, p.headers)).json();
    expect(st.statements[0]).toMatchObject({ statementType: 'withdraw', status: 'FAILED' });
  });

  test('refused with BONUS_CONDITION while the bonus gate says turnover is unmet', async () => {
    const p = await t.player({ balance: 500_00 });
    t.app.wallet.setBonusGate(async (_db, id) => id === p.id);
    try {
      const res = await post('/api/wallet/withdrawAll', { amount: 200 }, p.headers);
      expect([res.statusCode, res.json()]).toEqual([422, { message: 'BONUS_CONDITION' }]);
      expect(await walletBalance(t.db.db, p.id)).toBe(500_00);
    } finally {
      t.app.wallet.setBonusGate(async () => false);
    }
  });
});

describe('money cannot be created', () => {
  test('POST /api/wallet/add and /api/wallet/withdraw are refused and change nothing', async () => {
    const p = await t.player({ balance: 100 });
    for (const url of ['/api/wallet/add', '/api/wallet/withdraw']) {
      const res = await post(url, { amount: 1000 }, p.headers);
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { message: 'NO_DATA' }]);
    }
    expect(await walletBalance(t.db.db, p.id)).toBe(100);
  });
});

describe('Idempotency-Key', () => {
  test('the same key and body returns the first answer and moves money once; another body is KEY_INVALID', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    const key = { 'idempotency-key': 'k-transfer-1' };
    const a = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 10 }, p.headers, key);
    const b = await post('/api/wallet/transfer', { amount: 10, to: 'pg', from: 'WALLET' }, p.headers, key);
    expect(a.statusCode).toBe(200);
    expect([b.statusCode, b.json()]).toEqual([200, a.json()]);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(await walletBalance(t.db.db, p.id)).toBe(9_000);
    const c = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 11 }, p.headers, key);
    expect([c.statusCode, c.json()]).toEqual([409, { message: 'KEY_INVALID' }]);
    const d = await post('/api/wallet/withdrawAll', { amount: 10 }, p.headers, key);
    expect([d.statusCode, d.json()]).toEqual([409, { message: 'KEY_INVALID' }]);
    expect(await walletBalance(t.db.db, p.id)).toBe(9_000);
  });

  test('an error answer is replayed too, keys are per player, a malformed key is KEY_INVALID', async () => {
    const p = await t.player({ balance: 0, games: ['pg'] });
    const q = await t.player({ balance: 10_000, games: ['pg'] });
    const key = { 'idempotency-key': 'shared-key' };
    const first = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 10 }, p.headers, key);
    expect(first.json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });
    await depositTo(t.db.db, p.id, 10_000);
    const again = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 10 }, p.headers, key);
    expect([again.statusCode, again.json()]).toEqual([422, { message: 'MONEY_NOT_ENOUGH' }]);
    const other = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 10 }, q.headers, key);
    expect(other.statusCode).toBe(200);
    const bad = await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 10 }, q.headers, { 'idempotency-key': 'x'.repeat(200) });
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'KEY_INVALID' }]);
  });

  test('withdrawAll with the same key twice creates one withdrawal', async () => {
    const p = await t.player({ balance: 1_000_00 });
    const key = { 'idempotency-key': 'w-1' };
    const [a, b] = await Promise.all([
      post('/api/wallet/withdrawAll', { amount: 100 }, p.headers, key),
      post('/api/wallet/withdrawAll', { amount: 100 }, p.headers, key),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect([200, 409]).toContain(codes[1]);
    const c = await post('/api/wallet/withdrawAll', { amount: 100 }, p.headers, key);
    expect(c.statusCode).toBe(200);
    expect(await walletBalance(t.db.db, p.id)).toBe(900_00);
    const rows = await t.db.db.selectFrom('withdrawals').select('id').where('player_id', '=', p.id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('GET /api/autoLogin', () => {
  test('gives the launch link for the caller\'s own game username only', async () => {
    const p = await t.player({ games: ['pg', 'usun'] });
    const q = await t.player({ games: ['pg'] });
    const res = await get(`/api/autoLogin/pg/pw${p.id}`, p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ link: expect.stringMatching(/^\/sim\/games\/pg\/play\?t=/) });
    const other = await get(`/api/autoLogin/pg/pw${q.id}`, p.headers);
    expect([other.statusCode, other.json()]).toEqual([404, { message: 'SLOT_NO_ACCOUNT' }]);
    expect((await get(`/api/autoLogin/nosuch/pw${p.id}`, p.headers)).json()).toEqual({ message: 'NO_GAME' });
    expect((await get(`/api/autoLogin/pg/pw${p.id}`)).statusCode).toBe(401);
  });

  test('games that log in with a password take it in the path; a wrong one is WRONG_PASSWORD', async () => {
    const p = await t.player({ games: ['usun'] });
    const creds = (await get('/api/wallet/account/usun', p.headers)).json();
    const ok = await get(`/api/autoLogin/usun/${creds.username}/${encodeURIComponent(creds.password)}`, p.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().link).toMatch(/^\/sim\/games\/usun\/play/);
    const bad = await get(`/api/autoLogin/usun/${creds.username}/wrongpass`, p.headers);
    expect([bad.statusCode, bad.json()]).toEqual([422, { message: 'WRONG_PASSWORD' }]);
    t.sim.failNext('launchUrl', 'timeout-before-apply');
    const down = await get(`/api/autoLogin/usun/${creds.username}`, p.headers);
    expect([down.statusCode, down.json()]).toEqual([502, { message: 'GAME_ACTIVATION_FAIL' }]);
    expect((await slot(p.headers, 'usun')).web).toBe(`/api/autoLogin/usun/${creds.username}/${encodeURIComponent(creds.password)}`);
  });
});

describe('GET /api/wallet/refresh/slot', () => {
  test('brings every game mirror to the provider balance through game_result entries', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg', 'joker2'] });
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 50 }, p.headers);
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'joker2', amount: 50 }, p.headers);
    await t.sim.withdraw('pg', `pw${p.id}`, `loss-${p.id}`, 2_000); // lost 20 at pg
    await t.sim.deposit('joker2', `pw${p.id}`, `win-${p.id}`, 1_234); // won 12.34 at joker2
    // Transfers that just changed are skipped for a moment (the provider's figure might not include them yet).
    await t.db.db.updateTable('game_transfers').set({ updated_at: '2000-01-01T00:00:00.000Z' }).where('player_id', '=', p.id).execute();
    const res = await get('/api/wallet/refresh/slot', p.headers);
    expect(res.statusCode).toBe(200);
    const slots = res.json().slots;
    expect(slots.find((s: { code: string }) => s.code === 'pg').amount).toBe(30);
    expect(slots.find((s: { code: string }) => s.code === 'joker2').amount).toBe(62.34);
    expect((await get('/api/wallet/refresh/slot', p.headers)).statusCode).toBe(200); // nothing new: no entry
    const n = await t.db.db.selectFrom('journal_entries').select('id').where('player_id', '=', p.id).where('kind', '=', 'game_result').execute();
    expect(n).toHaveLength(2);
  });

  test('a pending transfer holds the refresh of that game back', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    t.sim.failNext('deposit', 'timeout-after-apply');
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 50 }, p.headers);
    const res = await get('/api/wallet/refresh/slot', p.headers);
    expect(res.json().slots.find((s: { code: string }) => s.code === 'pg').amount).toBe(0); // not counted twice
    await t.db.db.updateTable('game_transfers').set({ claimed_until: null }).where('player_id', '=', p.id).execute();
    await t.app.wallet.reconcileNow();
    expect(await slot(p.headers, 'pg')).toMatchObject({ amount: 50 });
  });
});

describe('POST /api/statement', () => {
  test('lists the player\'s own movements newest first, paged, with total', async () => {
    const p = await t.player({ balance: 100_000, games: ['pg'] });
    const other = await t.player({ balance: 100_000, games: ['pg'] });
    await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 1 }, other.headers);
    const transfers = [];
    for (const amount of [1, 2, 3]) transfers.push((await post('/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount }, p.headers)).json());
    const withdrawal = (await post('/api/wallet/withdrawAll', { amount: 100 }, p.headers)).json();
    const res = await post('/api/statement', { page: 1, limit: 2 }, p.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(4);
    // reference: the movement's own id, as its answer gave it (the receipt shows the same one both times).
    expect(body.statements).toEqual([
      // ref: the short reference a player reads (issue 40, shared/statement-ref.ts).
      { _id: expect.any(String), statementType: 'withdraw', status: 'IN_PROGRESS', from: 'WALLET', to: 'KBANK', amount: 100, createdAt: expect.any(String), reference: withdrawal.withdrawalId, ref: expect.stringMatching(/^W-\d{4}-\d{4}$/) },
      { _id: expect.any(String), statementType: 'transfer', status: 'SUCCESS', from: 'WALLET', to: 'pg', amount: 3, createdAt: expect.any(String), reference: transfers[2].transferId, ref: expect.stringMatching(/^T-\d{4}-\d{4}$/) },
    ]);
    expect(withdrawal.withdrawalId).toEqual(expect.any(String));
    expect(transfers[2].transferId).toEqual(expect.any(String));
    const page2 = (await post('/api/statement', { page: 2, limit: 2 }, p.headers)).json();
    expect(page2.statements.map((s: { amount: number }) => s.amount)).toEqual([2, 1]);
    expect((await post('/api/statement', {}, p.headers)).json().statements).toHaveLength(4);
    expect((await post('/api/statement', { page: 0, limit: 10 }, p.headers)).json()).toEqual({ message: 'INVALID_USER_INFO' });
    expect((await post('/api/statement', { page: 1, limit: 10 })).statusCode).toBe(401);
  });
});
