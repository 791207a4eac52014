import { testEngine } from '../../test/support/helper';
import { writeInviteSettings, type InviteSettings } from './settings';
import { buildInviteWheelTestApp, satang, tally, type InviteWheelTestApp } from '../../test/support/wheel';

/**
 * The invite bonus received 50 times at once pays once (the player's row lock on PostgreSQL, the single writer
 * on SQLite, and the receipt claiming each earning by a conditional update); invitees' first deposits landing
 * while the inviter receives are paid by exactly one receipt each. The audit holds after each.
 */
jest.setTimeout(120_000);

let t: InviteWheelTestApp;
const setInvite = (s: Partial<InviteSettings>) => writeInviteSettings(t.db.db, s);
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
  await setInvite({ isActive: true, percent: 5, turnover: 0, dailyCap: null }); // receivable at the first deposit
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.audit()).toEqual([]);
});

const N = 50;

test(`${N} invite-bonus receives at once: credited once, ${N - 1} NO_INVITE_BONUS`, async () => {
  const a = await t.player();
  for (const baht of [100, 300, 600]) await t.deposit(await t.player({ inviter: a.id }), baht);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: N }, () => t.get(a, '/api/invite/bonus')));
  expect(tally(answers)).toEqual({ '200': 1, '422 NO_INVITE_BONUS': N - 1 });
  expect(answers.find((r) => r.statusCode === 200)!.json()).toEqual({ message: 'INVITE_BONUS_SUCCESS', amount: 50 });
  expect(await t.balance(a)).toBe(satang(50));
  expect(await t.db.db.selectFrom('invite_receipts').select('id').where('player_id', '=', a.id).execute()).toHaveLength(1);
  console.log(`[${testEngine()}] ${N} concurrent invite receives: ${Date.now() - started} ms`);
});

test('first deposits landing while the inviter receives: each earning paid by exactly one receipt', async () => {
  const a = await t.player();
  const invitees = await Promise.all(Array.from({ length: 8 }, () => t.player({ inviter: a.id })));
  await Promise.all([
    ...invitees.map((p, i) => t.deposit(p, 100 + i * 10, i % 2 ? 'gift' : 'qr')),
    ...Array.from({ length: 8 }, () => t.get(a, '/api/invite/bonus')),
  ]);
  await t.get(a, '/api/invite/bonus');
  const rows = await t.db.db.selectFrom('invite_earnings').select(['amount', 'receipt_id']).where('inviter_id', '=', a.id).execute();
  expect(rows).toHaveLength(8);
  expect(rows.every((r) => r.receipt_id !== null)).toBe(true);
  const earned = rows.reduce((s, r) => s + Number(r.amount), 0);
  expect(earned).toBe(invitees.reduce((s, _p, i) => s + Math.floor(satang(100 + i * 10) / 20), 0));
  expect(await t.balance(a)).toBe(earned);
  expect((await t.get(a, '/api/wallet')).json().invite).toEqual({ amount: 0, success: 8, fail: 0 });
});
