import { gameBalances, walletBalance } from '../../ledger';
import { buildBonusTestApp, satang, type BonusTestApp, type TestPlayer } from '../../test/support/bonus';

/**
 * The bonus and promotion routes and the wagering engine through app.inject on a real database (SQLite, and
 * PostgreSQL with --selectProjects server:pg): every code of the contract, a bonus finished by turnover and one
 * failed by losses at the simulator's game, and the ledger audit after each.
 */
let t: BonusTestApp;
beforeAll(async () => {
  t = await buildBonusTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  t.app.clock.now = () => new Date();
  expect(await t.audit()).toEqual([]);
});

let seq = 0;
/** A fresh bonus code per test, so tests do not share receive limits or budgets. */
const code = (p = 'B') => `${p}${++seq}${Date.now() % 100000}`;

const budgetBalance = async (c: string) => {
  const r = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', `bonus_budget:${c}:THB`).executeTakeFirst();
  return r ? Number(r.balance) : 0;
};
const statements = (p: TestPlayer) =>
  t.db.db.selectFrom('statements').selectAll().where('player_id', '=', p.id).orderBy('id').execute();
const activeOf = async (p: TestPlayer) => (await t.get(p, '/api/bonus/check/active')).json();

/** Runs wagering passes until the condition holds (a pass may defer a judgement while a transfer is in flight). */
async function pollUntil(cond: () => Promise<boolean>, passes = 10): Promise<void> {
  for (let i = 0; i < passes; i++) {
    await t.app.bonus.pollNow();
    if (await cond()) return;
  }
  throw new Error(`condition not met after ${passes} wagering passes`);
}

describe('GET /api/bonus', () => {
  test('lists the open bonuses with their terms; userBonus is null until received, then lists each receipt', async () => {
    const c = code();
    await t.define('bonus', { code: c, type: 'day', maxReceived: 2, percent: 10, cap: 500, turnoverMultiple: 3, percentFail: 10, banners: [{ image: '/games/pg-bg.svg', html: { th: 'a', la: 'b', en: 'c' } }] });
    const off = code();
    await t.define('bonus', { code: off, active: false });
    const expired = code();
    await t.define('bonus', { code: expired, validTo: '2020-01-01T00:00:00Z' });
    const p = await t.player({ balance: satang(1000) });

    const list = (await t.get(p, '/api/bonus')).json().bonuses as { code: string }[];
    const mine = list.find((b) => b.code === c);
    expect(mine).toEqual({
      code: c,
      name: { th: `${c} th`, la: `${c} la`, en: `${c} en` },
      type: 'day',
      maxReceived: 2,
      percent: 10,
      cap: 500,
      turnoverMultiple: 3,
      percentFail: 10,
      banners: [{ image: '/games/pg-bg.svg', html: { th: 'a', la: 'b', en: 'c' } }],
      notice: { th: 'notice %percentFail% th', la: 'notice %percentFail% la', en: 'notice %percentFail% en' },
      userBonus: null,
    });
    expect(list.map((b) => b.code)).not.toContain(off);
    expect(list.map((b) => b.code)).not.toContain(expired);

    const got = (await t.get(p, `/api/bonus/activate/${c}`)).json();
    const again = (await t.get(p, '/api/bonus')).json().bonuses.find((b: { code: string }) => b.code === c);
    expect(again.userBonus).toEqual({ _id: got._id, isActive: true, received: [{ updatedAt: got.createdAt }] });
  });
});

describe('GET /api/bonus/activate/{code}', () => {
  test('credits percent of the wallet from the bonus budget, records start, target and fail line, writes the statement', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10, cap: 500, turnoverMultiple: 3, percentFail: 10 });
    const p = await t.player({ balance: satang(1000) });
    const res = await t.get(p, `/api/bonus/activate/${c.toLowerCase()}`); // codes are case-insensitive
    expect(res.statusCode).toBe(200);
    const ub = res.json();
    expect(ub).toEqual({
      _id: expect.any(String),
      code: c,
      kind: 'bonus',
      isActive: true,
      amount: 100,
      startAmount: 1100,
      turnover: 0,
      target: 3300,
      percentFail: 10,
      failAt: 110,
      createdAt: expect.any(String),
      received: [{ updatedAt: ub.createdAt }],
    });
    expect(await walletBalance(t.db.db, p.id)).toBe(satang(1100));
    expect(await budgetBalance(c)).toBe(-satang(100));
    const lines = await statements(p);
    expect(lines.map((l) => [l.statement_type, l.status, l.from_account, l.to_account, Number(l.amount), l.linked_type, l.linked_description])).toEqual([
      ['bonus', 'SUCCESS', 'BONUS', 'WALLET', satang(100), 'bonus', c],
    ]);
    // The statement route shows it with its linked item.
    const st = (await t.app.inject({ method: 'POST', url: '/api/statement', headers: p.headers, payload: {} })).json();
    expect(st.statements[0]).toMatchObject({ statementType: 'bonus', status: 'SUCCESS', amount: 100, bonus: { description: c } });

    expect(await activeOf(p)).toEqual({
      status: true,
      type: 'limit',
      progress: { code: c, name: { th: `${c} th`, la: `${c} la`, en: `${c} en` }, kind: 'bonus', amount: 100, startAmount: 1100, turnover: 0, target: 3300, percentFail: 10, failAt: 110, createdAt: ub.createdAt },
    });
  });

  test('the bonus is capped', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10, cap: 500 });
    const p = await t.player({ balance: satang(10_000) });
    expect((await t.get(p, `/api/bonus/activate/${c}`)).json()).toMatchObject({ amount: 500, startAmount: 10_500, target: 31_500 });
  });

  test('unknown, disabled, expired, or a promotion code: 404 NO_DATA', async () => {
    const promo = code('P');
    await t.define('promotion', { code: promo });
    const off = code();
    await t.define('bonus', { code: off, active: false });
    const later = code();
    await t.define('bonus', { code: later, validFrom: '2999-01-01T00:00:00Z' });
    const p = await t.player({ balance: satang(1000) });
    for (const c of ['NOPE', promo, off, later, 'bad code!', 'x'.repeat(64)]) {
      const res = await t.get(p, `/api/bonus/activate/${encodeURIComponent(c)}`);
      expect([c, res.statusCode, res.json()]).toEqual([c, 404, { message: 'NO_DATA' }]);
    }
    expect(await walletBalance(t.db.db, p.id)).toBe(satang(1000));
  });

  test('one active bonus at a time: 422 BONUS_ALREADY_ACTIVE, for another bonus too', async () => {
    const a = code();
    const b = code();
    await t.define('bonus', { code: a, maxReceived: 5 });
    await t.define('bonus', { code: b });
    const p = await t.player({ balance: satang(1000) });
    expect((await t.get(p, `/api/bonus/activate/${a}`)).statusCode).toBe(200);
    for (const c of [a, b]) {
      const res = await t.get(p, `/api/bonus/activate/${c}`);
      expect([res.statusCode, res.json()]).toEqual([422, { message: 'BONUS_ALREADY_ACTIVE' }]);
    }
    expect(await walletBalance(t.db.db, p.id)).toBe(satang(1100));
  });

  test('a wallet below the minimum (or too small to earn a satang): 422 BONUS_REMAINING; /check/minimum tells the minimum', async () => {
    const c = code();
    await t.define('bonus', { code: c });
    const empty = await t.player();
    expect((await t.get(empty, '/api/bonus/check/minimum')).json()).toEqual({ minimum: 1 });
    const res = await t.get(empty, `/api/bonus/activate/${c}`);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'BONUS_REMAINING' }]);
    const poor = await t.player({ balance: 99 }); // 0.99 baht
    expect((await t.get(poor, `/api/bonus/activate/${c}`)).json()).toEqual({ message: 'BONUS_REMAINING' });
    expect(await t.db.db.selectFrom('user_bonuses').select('id').where('player_id', 'in', [empty.id, poor.id]).execute()).toEqual([]);
  });

  test('type limit counts every receipt: 422 BONUS_MAX_CLAIMED at maxReceived', async () => {
    const c = code();
    await t.define('bonus', { code: c, type: 'limit', maxReceived: 2 });
    const p = await t.player({ balance: satang(1000) });
    for (let i = 0; i < 2; i++) {
      expect((await t.get(p, `/api/bonus/activate/${c}`)).statusCode).toBe(200);
      expect((await t.get(p, '/api/bonus/clear')).json()).toEqual({ message: 'BONUS_CLEAR' });
    }
    const res = await t.get(p, `/api/bonus/activate/${c}`);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'BONUS_MAX_CLAIMED' }]);
  });

  test('type day counts receipts of the current Bangkok calendar day: available again at Bangkok midnight (17:00 UTC)', async () => {
    const c = code();
    await t.define('bonus', { code: c, type: 'day', maxReceived: 1 });
    const p = await t.player({ balance: satang(1000) });
    t.app.clock.now = () => new Date('2031-03-04T17:00:00.000Z'); // 00:00 on 5 March in Bangkok
    expect((await t.get(p, `/api/bonus/activate/${c}`)).statusCode).toBe(200);
    await t.get(p, '/api/bonus/clear');
    t.app.clock.now = () => new Date('2031-03-05T16:59:59.999Z'); // 23:59:59.999, still 5 March
    expect((await t.get(p, `/api/bonus/activate/${c}`)).json()).toEqual({ message: 'BONUS_MAX_CLAIMED' });
    t.app.clock.now = () => new Date('2031-03-05T17:00:00.000Z'); // 6 March
    expect((await t.get(p, `/api/bonus/activate/${c}`)).statusCode).toBe(200);
  });

  test('type week counts receipts of the current ISO week (Monday 00:00 Bangkok)', async () => {
    const c = code();
    await t.define('bonus', { code: c, type: 'week', maxReceived: 1 });
    const p = await t.player({ balance: satang(1000) });
    t.app.clock.now = () => new Date('2031-03-03T10:00:00.000Z'); // Monday 3 March, 17:00 Bangkok
    expect((await t.get(p, `/api/bonus/activate/${c}`)).statusCode).toBe(200);
    await t.get(p, '/api/bonus/clear');
    t.app.clock.now = () => new Date('2031-03-09T16:59:00.000Z'); // Sunday 9 March, 23:59 Bangkok
    expect((await t.get(p, `/api/bonus/activate/${c}`)).json()).toEqual({ message: 'BONUS_MAX_CLAIMED' });
    t.app.clock.now = () => new Date('2031-03-09T17:00:00.000Z'); // Monday 10 March, 00:00 Bangkok
    expect((await t.get(p, `/api/bonus/activate/${c}`)).statusCode).toBe(200);
  });

  test('a spent budget answers 422 BONUS_FULL; what clear returns can be paid again; the ledger is the counter', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10, budget: 150 });
    const a = await t.player({ balance: satang(1000) });
    const b = await t.player({ balance: satang(1000) });
    expect((await t.get(a, `/api/bonus/activate/${c}`)).statusCode).toBe(200);
    const full = await t.get(b, `/api/bonus/activate/${c}`);
    expect([full.statusCode, full.json()]).toEqual([422, { message: 'BONUS_FULL' }]); // 50 left, the bonus is 100
    expect(await budgetBalance(c)).toBe(-satang(100));
    await t.get(a, '/api/bonus/clear');
    expect(await budgetBalance(c)).toBe(0);
    expect((await t.get(b, `/api/bonus/activate/${c}`)).statusCode).toBe(200);
  });
});

describe('GET /api/bonus/clear', () => {
  test('takes back the bonus amount from the wallet to the budget, ends the bonus, answers BONUS_CLEAR', async () => {
    const c = code();
    await t.define('bonus', { code: c });
    const p = await t.player({ balance: satang(1000) });
    const ub = (await t.get(p, `/api/bonus/activate/${c}`)).json();
    const res = await t.get(p, '/api/bonus/clear');
    expect([res.statusCode, res.json()]).toEqual([200, { message: 'BONUS_CLEAR' }]);
    expect(await walletBalance(t.db.db, p.id)).toBe(satang(1000));
    expect(await budgetBalance(c)).toBe(0);
    expect(await activeOf(p)).toEqual({ status: false, type: null, progress: null });
    const last = (await statements(p)).pop()!;
    expect([last.statement_type, last.status, last.from_account, last.to_account, Number(last.amount), last.ref_id]).toEqual(['finish_bonus', 'FAILED', 'WALLET', 'BONUS', satang(100), ub._id]);
    const row = await t.db.db.selectFrom('user_bonuses').selectAll().where('id', '=', Number(ub._id)).executeTakeFirstOrThrow();
    expect([row.status, Number(row.cleared_amount), row.active_player_id]).toEqual(['CLEARED', satang(100), null]);
  });

  test('takes the rest of the bonus from the game through the provider when the wallet does not hold it', async () => {
    const c = code();
    await t.define('bonus', { code: c });
    const p = await t.player({ balance: satang(1000), games: ['pg'] });
    const ub = (await t.get(p, `/api/bonus/activate/${c}`)).json();
    await t.toGame(p, 'pg', 1060);
    expect((await t.get(p, '/api/bonus/clear')).json()).toEqual({ message: 'BONUS_CLEAR' });
    expect(await walletBalance(t.db.db, p.id)).toBe(0);
    expect(await budgetBalance(c)).toBe(0); // 40 from the wallet, 60 pulled from the game
    expect((await gameBalances(t.db.db, p.id)).get('pg')).toBe(satang(1000));
    expect(await t.sim.balance('pg', p.username)).toBe(satang(1000));
    const row = await t.db.db.selectFrom('user_bonuses').selectAll().where('id', '=', Number(ub._id)).executeTakeFirstOrThrow();
    expect([row.status, Number(row.cleared_amount), Number(row.debt)]).toEqual(['CLEARED', satang(100), 0]);
    const lines = (await statements(p)).filter((l) => l.statement_type === 'finish_bonus').map((l) => [l.status, l.from_account, Number(l.amount)]);
    expect(lines).toEqual([['FAILED', 'WALLET', satang(40)], ['FAILED', 'WALLET', satang(60)]]);
  });

  test('issue 39 row 1: deposit, bonus, transferAll, clear, transfer back: the bonus is not withdrawn', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10 });
    const p = await t.player({ balance: satang(1000), games: ['pg'] });
    await t.get(p, `/api/bonus/activate/${c}`);
    expect((await t.app.inject({ method: 'POST', url: '/api/wallet/transferAll', headers: p.headers, payload: { to: 'pg' } })).statusCode).toBe(200);
    expect((await t.get(p, '/api/bonus/clear')).json()).toEqual({ message: 'BONUS_CLEAR' });
    const back = await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'pg', to: 'WALLET', amount: 1100 } });
    expect([back.statusCode, back.json().message]).toEqual([422, 'MONEY_NOT_ENOUGH']);
    expect((await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'pg', to: 'WALLET', amount: 1000 } })).statusCode).toBe(200);
    const all = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: 1100 } });
    expect([all.statusCode, all.json()]).toEqual([422, { message: 'MONEY_NOT_ENOUGH' }]);
    expect((await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: 1000 } })).statusCode).toBe(200);
    expect(await budgetBalance(c)).toBe(0);
  });

  test('a provider that does not answer at the clear leaves a debt: withdrawals answer BONUS_DEBT until the pass collects it', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10 });
    const p = await t.player({ balance: satang(1000), games: ['pg'] });
    const ub = (await t.get(p, `/api/bonus/activate/${c}`)).json();
    await t.toGame(p, 'pg', 1100);
    t.sim.failNext('balance', 'timeout-before-apply');
    expect((await t.get(p, '/api/bonus/clear')).json()).toEqual({ message: 'BONUS_CLEAR' });
    const row = () => t.db.db.selectFrom('user_bonuses').selectAll().where('id', '=', Number(ub._id)).executeTakeFirstOrThrow();
    expect(Number((await row()).debt)).toBe(satang(100));
    const withdraw = (amount: number) => t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount } });
    // The player brings everything back: the wallet holds 1100, of which 100 is still the operator's.
    expect((await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'pg', to: 'WALLET', amount: 1100 } })).statusCode).toBe(200);
    const refused = await withdraw(1100);
    expect([refused.statusCode, refused.json()]).toEqual([422, { message: 'BONUS_DEBT' }]);
    expect((await withdraw(100)).json()).toEqual({ message: 'BONUS_DEBT' });
    expect((await t.app.bonus.pollNow()).owing).toBe(0);
    expect([Number((await row()).debt), Number((await row()).cleared_amount)]).toEqual([0, satang(100)]);
    expect(await walletBalance(t.db.db, p.id)).toBe(satang(1000));
    expect((await withdraw(1100)).json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });
    expect((await withdraw(1000)).statusCode).toBe(200);
  });

  test('bonus money lost at play is not asked for again: the debt shrinks to what the player still holds', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10, percentFail: 0 });
    const p = await t.player({ balance: satang(1000), games: ['pg'] });
    const ub = (await t.get(p, `/api/bonus/activate/${c}`)).json();
    await t.toGame(p, 'pg', 1100);
    await t.play(p, 'pg', 525, 'lose', 2); // 50 left at the provider, the mirror still says 1100
    expect((await t.get(p, '/api/bonus/clear')).json()).toEqual({ message: 'BONUS_CLEAR' });
    const row = await t.db.db.selectFrom('user_bonuses').selectAll().where('id', '=', Number(ub._id)).executeTakeFirstOrThrow();
    expect([Number(row.cleared_amount), Number(row.debt)]).toEqual([satang(50), 0]);
    expect(await budgetBalance(c)).toBe(-satang(50));
    expect(await t.sim.balance('pg', p.username)).toBe(0);
    expect(await walletBalance(t.db.db, p.id)).toBe(0);
  });

  test('nothing active: 404 NO_DATA', async () => {
    const p = await t.player({ balance: satang(10) });
    const res = await t.get(p, '/api/bonus/clear');
    expect([res.statusCode, res.json()]).toEqual([404, { message: 'NO_DATA' }]);
  });
});

describe('the withdrawal gate', () => {
  test('withdrawAll answers 422 BONUS_CONDITION while a bonus is active, and works again once it ended', async () => {
    const c = code();
    await t.define('bonus', { code: c });
    const p = await t.player({ balance: satang(1000) });
    await t.get(p, `/api/bonus/activate/${c}`);
    const withdraw = () => t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: 100 } });
    const refused = await withdraw();
    expect([refused.statusCode, refused.json()]).toEqual([422, { message: 'BONUS_CONDITION' }]);
    await t.get(p, '/api/bonus/clear');
    expect((await withdraw()).statusCode).toBe(200);
  });
});

describe('the wagering engine', () => {
  test('turnover from the simulator rounds finishes the bonus with SUCCESS; rounds are stored once and attributed by time', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10, turnoverMultiple: 3, percentFail: 10 });
    const p = await t.player({ balance: satang(1000), games: ['pg'] });
    await t.toGame(p, 'pg', 100);
    await t.play(p, 'pg', 50, 'lose'); // before the bonus: not its turnover
    await t.app.bonus.pollNow();
    const ub = (await t.get(p, `/api/bonus/activate/${c}`)).json(); // wallet 900 -> bonus 90, start 990, target 2970
    expect(ub).toMatchObject({ amount: 90, startAmount: 990, target: 2970 });
    await t.toGame(p, 'pg', 990);
    await t.play(p, 'pg', 100, 'win', 29); // 2900 of turnover, winning: the balance only grows
    await t.app.bonus.pollNow();
    expect((await activeOf(p)).progress).toMatchObject({ turnover: 2900, target: 2970 });
    await t.play(p, 'pg', 70, 'win');
    await t.app.bonus.pollNow();

    expect(await activeOf(p)).toEqual({ status: false, type: null, progress: null });
    const row = await t.db.db.selectFrom('user_bonuses').selectAll().where('id', '=', Number(ub._id)).executeTakeFirstOrThrow();
    expect(row.status).toBe('SUCCESS');
    const last = (await statements(p)).pop()!;
    expect([last.statement_type, last.status, Number(last.amount), last.linked_type, last.linked_description]).toEqual(['finish_bonus', 'SUCCESS', satang(90), 'bonus', c]);
    const rounds = await t.db.db.selectFrom('bet_rounds').select(['user_bonus_id', 'bet']).where('player_id', '=', p.id).orderBy('id').execute();
    expect(rounds).toHaveLength(31);
    expect(rounds[0].user_bonus_id).toBeNull();
    expect(rounds.slice(1).every((r) => Number(r.user_bonus_id) === Number(ub._id))).toBe(true);
    // Another pass stores nothing again.
    expect((await t.app.bonus.pollNow()).rounds).toBe(0);
    expect(await t.db.db.selectFrom('bet_rounds').select('id').where('player_id', '=', p.id).execute()).toHaveLength(31);
    // Nothing moved at the finish: the bonus is the player's; withdrawals are open again.
    expect(await budgetBalance(c)).toBe(-satang(90));
    await t.app.inject({ method: 'GET', url: '/api/wallet/refresh/slot', headers: p.headers });
    const w = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: 100 } });
    expect(w.statusCode === 200 || w.json().message === 'MONEY_NOT_ENOUGH').toBe(true);
  });

  test('losses down to percentFail% of the start fail the bonus (mirrors refreshed from the provider); what remains of the bonus is taken back', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10, percentFail: 10 });
    const p = await t.player({ balance: satang(1000), games: ['pg'] });
    const ub = (await t.get(p, `/api/bonus/activate/${c}`)).json(); // start 1100, fails at 110
    await t.toGame(p, 'pg', 1100);
    await t.play(p, 'pg', 100, 'lose', 9); // 200 left at the provider
    await t.app.bonus.pollNow();
    expect((await activeOf(p)).status).toBe(true);
    expect((await gameBalances(t.db.db, p.id)).get('pg')).toBe(satang(200)); // the pass refreshed the mirror
    await t.play(p, 'pg', 90, 'lose'); // 110 left: at the line
    await pollUntil(async () => !(await activeOf(p)).status);

    const row = await t.db.db.selectFrom('user_bonuses').selectAll().where('id', '=', Number(ub._id)).executeTakeFirstOrThrow();
    expect([row.status, Number(row.cleared_amount), Number(row.debt)]).toEqual(['FAILED', satang(100), 0]);
    const finish = (await statements(p)).filter((l) => l.statement_type === 'finish_bonus').map((l) => [l.status, l.from_account, Number(l.amount)]);
    expect(finish).toEqual([['FAILED', 'BONUS', satang(100)], ['FAILED', 'WALLET', satang(100)]]);
    // The bonus's 100 came back from the game (the wallet was empty): 10 of the player's own money remains.
    expect(await budgetBalance(c)).toBe(0);
    expect((await gameBalances(t.db.db, p.id)).get('pg')).toBe(satang(10));
    expect(await walletBalance(t.db.db, p.id)).toBe(0);
    const w = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount: 100 } });
    expect(w.json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });
  });

  test('a bonus is never failed on a stale figure: a provider that does not answer defers the judgement to the next pass', async () => {
    const c = code();
    await t.define('bonus', { code: c, percent: 10, percentFail: 10 });
    const p = await t.player({ balance: satang(1000), games: ['pg'] });
    await t.get(p, `/api/bonus/activate/${c}`);
    await t.toGame(p, 'pg', 1100);
    await t.play(p, 'pg', 100, 'lose', 10); // 100 left: below the line of 110
    t.sim.failNext('balance', 'timeout-before-apply');
    expect(await t.app.bonus.pollNow()).toMatchObject({ failed: 0, deferred: 1 });
    expect((await activeOf(p)).status).toBe(true);
    expect(await t.app.bonus.pollNow()).toMatchObject({ rounds: 0, failed: 1, deferred: 0 });
    expect((await activeOf(p)).status).toBe(false);
  });

  test('the cursor is stored with the rounds: an app started on the same database goes on where the first stopped', async () => {
    const p = await t.player({ balance: satang(100), games: ['pg'] });
    await t.toGame(p, 'pg', 100);
    await t.play(p, 'pg', 1, 'lose', 3);
    await t.app.bonus.pollNow();
    const cursor = await t.db.db.selectFrom('bet_feed_cursors').select('cursor').where('game_code', '=', 'pg').executeTakeFirstOrThrow();
    const { buildApp } = await import('../../app');
    const { testConfig } = await import('../../test/support/helper');
    const second = await buildApp(testConfig(t.db.dataDir), { database: t.db, logger: false, wallet: { wallet: { reconcileIntervalMs: 0, reconcileAtStart: false } }, bonus: { pollIntervalMs: 0 } });
    try {
      await second.ready();
      expect((await second.bonus.pollNow()).rounds).toBe(0);
      await t.play(p, 'pg', 1, 'lose', 2);
      expect((await second.bonus.pollNow()).rounds).toBe(2);
      expect((await t.app.bonus.pollNow()).rounds).toBe(0);
    } finally {
      await second.close();
    }
    const after = await t.db.db.selectFrom('bet_feed_cursors').select('cursor').where('game_code', '=', 'pg').executeTakeFirstOrThrow();
    expect(Number(after.cursor)).toBe(Number(cursor.cursor) + 2);
    expect(await t.db.db.selectFrom('bet_rounds').select('id').where('player_id', '=', p.id).execute()).toHaveLength(5);
  });
});

describe('promotion codes', () => {
  test('find is case-insensitive; unknown, expired, not yet valid or disabled codes answer 404 NO_PROMOTION', async () => {
    const c = code('P');
    await t.define('promotion', { code: c, percentFail: 20, validFrom: '2020-01-01T00:00:00Z', validTo: '2999-01-01T00:00:00Z' });
    const old = code('P');
    await t.define('promotion', { code: old, validTo: '2021-01-01T00:00:00Z' });
    const soon = code('P');
    await t.define('promotion', { code: soon, validFrom: '2999-01-01T00:00:00Z' });
    const off = code('P');
    await t.define('promotion', { code: off, active: false });
    const b = code();
    await t.define('bonus', { code: b });
    const p = await t.player({ balance: satang(1000) });
    const res = await t.get(p, `/api/promotion/find/${c.toLowerCase()}`);
    expect([res.statusCode, res.json()]).toEqual([200, { code: c, percentFail: 20, description: { th: `${c} th`, la: `${c} la`, en: `${c} en` } }]);
    for (const x of ['NOPE', old, soon, off, b, 'bad code!']) {
      const r = await t.get(p, `/api/promotion/find/${encodeURIComponent(x)}`);
      expect([x, r.statusCode, r.json()]).toEqual([x, 404, { message: 'NO_PROMOTION' }]);
      const a = await t.get(p, `/api/promotion/activate/${encodeURIComponent(x)}`);
      expect([x, a.statusCode, a.json()]).toEqual([x, 404, { message: 'NO_PROMOTION' }]);
    }
  });

  test('activate (any case) is a bonus of kind promotion; current shows it; once per player: 409 PROMOTION_RECEIVED', async () => {
    const c = code('P');
    await t.define('promotion', { code: c, percent: 50, cap: 300, turnoverMultiple: 2, percentFail: 5 });
    const p = await t.player({ balance: satang(1000) });
    expect((await t.get(p, '/api/promotion/current')).json()).toEqual({ promotion: null });
    const res = await t.get(p, `/api/promotion/activate/${c.toLowerCase()}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: c, kind: 'promotion', isActive: true, amount: 300, startAmount: 1300, target: 2600, percentFail: 5, failAt: 65 });
    expect((await t.get(p, '/api/promotion/current')).json()).toEqual({ promotion: { code: c, description: { th: `${c} th`, la: `${c} la`, en: `${c} en` }, percentFail: 5 } });
    expect(await activeOf(p)).toMatchObject({ status: true, type: 'promotion', progress: { kind: 'promotion', code: c } });
    const again = await t.get(p, `/api/promotion/activate/${c}`);
    expect([again.statusCode, again.json()]).toEqual([422, { message: 'BONUS_ALREADY_ACTIVE' }]);
    const line = (await statements(p)).pop()!;
    expect([line.statement_type, line.from_account, line.linked_type, line.linked_description]).toEqual(['bonus', 'PROMOTION', 'promotion', c]);

    await t.get(p, '/api/bonus/clear');
    const twice = await t.get(p, `/api/promotion/activate/${c}`);
    expect([twice.statusCode, twice.json()]).toEqual([409, { message: 'PROMOTION_RECEIVED' }]);
    // Another player still can.
    const q = await t.player({ balance: satang(100) });
    expect((await t.get(q, `/api/promotion/activate/${c}`)).statusCode).toBe(200);
  });

  test('a promotion whose total budget is spent answers 422 BONUS_FULL; an empty wallet 422 BONUS_REMAINING', async () => {
    const c = code('P');
    await t.define('promotion', { code: c, percent: 10, budget: 100 });
    const a = await t.player({ balance: satang(1000) });
    const b = await t.player({ balance: satang(10) });
    expect((await t.get(a, `/api/promotion/activate/${c}`)).statusCode).toBe(200);
    const full = await t.get(b, `/api/promotion/activate/${c}`);
    expect([full.statusCode, full.json()]).toEqual([422, { message: 'BONUS_FULL' }]);    const empty = await t.player();
    const none = await t.get(empty, `/api/promotion/activate/${c}`);
    expect([none.statusCode, none.json()]).toEqual([422, { message: 'BONUS_REMAINING' }]);
  });
});
