import { writeInviteSettings, type InviteSettings } from './settings';
import { buildInviteWheelTestApp, type InviteWheelTestApp, type TestPlayer } from '../../test/support/wheel';

/**
 * Issue 39 row 7, invite farming (docs/invite-wheel.md "Against invite farming"), through the deposit routes, the
 * simulator's bet feed and app.inject on a real database: an invitee's first deposit earns the inviter only once
 * the invitee wagered it (turnover [1] x), at most dailyCap [1000] baht of an inviter's earnings become receivable
 * per day, and the bank rule is read again at payout.
 */
jest.setTimeout(60_000);

let t: InviteWheelTestApp;
const setInvite = (s: Partial<InviteSettings>) => writeInviteSettings(t.db.db, { isActive: true, percent: 5, cap: null, turnover: 1, dailyCap: 1000, ...s });
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.audit()).toEqual([]);
  t.setNow(null);
});

const figure = async (p: TestPlayer) => (await t.get(p, '/api/wallet')).json().invite.amount as number;
const receive = (p: TestPlayer) => t.get(p, '/api/invite/bonus');

test('a first deposit earns the inviter only once the invitee wagered it; a deposit -> withdraw churn earns nothing', async () => {
  await setInvite({});
  const a = await t.player();
  const b = await t.player({ inviter: a.id });
  const churner = await t.player({ inviter: a.id });
  await t.deposit(b, 1000);
  await t.deposit(churner, 1000);
  expect(await t.withdraw(churner, 1000)).toBe(200);
  await t.app.bonus.pollNow();
  expect(await figure(a)).toBe(0);
  expect((await receive(a)).json()).toEqual({ message: 'NO_INVITE_BONUS' });
  await t.wager(b, 600);
  expect(await figure(a)).toBe(0);
  await t.wager(b, 400);
  expect(await figure(a)).toBe(50);
  expect((await receive(a)).json()).toEqual({ message: 'INVITE_BONUS_SUCCESS', amount: 50 });
  // The list and counts still show both invitees' first deposits.
  expect((await t.post(a, '/api/invite', { page: 1, limit: 10 })).json()).toMatchObject({ total: 2, success: 2, fail: 0 });
});

test('at most dailyCap baht of one inviter\'s earnings become receivable per day; the rest of that day is not paid', async () => {
  await setInvite({ percent: 50, turnover: 0, dailyCap: 1000 });
  t.setNow(new Date('2026-12-02T05:00:00Z')); // noon in Bangkok
  const a = await t.player();
  const friends = [await t.player({ inviter: a.id }), await t.player({ inviter: a.id }), await t.player({ inviter: a.id })];
  for (const f of friends) await t.deposit(f, 800); // 400 each
  expect((await receive(a)).json()).toEqual({ message: 'INVITE_BONUS_SUCCESS', amount: 1000 }); // 400 + 400 + 200
  const notes = await t.db.db.selectFrom('invite_earnings').select(['amount', 'note']).where('inviter_id', '=', a.id).orderBy('id').execute();
  expect(notes.map((n) => [Number(n.amount), n.note])).toEqual([[40000, null], [40000, null], [20000, null]]);
  const late = await t.player({ inviter: a.id });
  await t.deposit(late, 800);
  expect((await receive(a)).json()).toEqual({ message: 'NO_INVITE_BONUS' }); // the day's 1000 is used: note cap
  expect((await t.db.db.selectFrom('invite_earnings').select('note').where('invitee_id', '=', late.id).executeTakeFirstOrThrow()).note).toBe('cap');
  t.setNow(new Date('2026-12-02T17:00:00Z')); // Bangkok midnight: a new day's room
  const next = await t.player({ inviter: a.id });
  await t.deposit(next, 800);
  expect((await receive(a)).json()).toEqual({ message: 'INVITE_BONUS_SUCCESS', amount: 400 });
});

test('the bank rule is read again at payout: an invitee who moved onto an earlier invitee\'s bank account earns nothing', async () => {
  await setInvite({ turnover: 0, dailyCap: null });
  const a = await t.player();
  const first = await t.player({ inviter: a.id, bankAccountNo: '7100000001' });
  await t.deposit(first, 200); // earns 10 with account ...001
  await t.db.db.updateTable('players').set({ bank_account_no: '7100000002' }).where('id', '=', first.id).execute();
  const second = await t.player({ inviter: a.id, bankAccountNo: '7100000003' });
  await t.deposit(second, 400); // earns 20 with a fresh account...
  await t.db.db.updateTable('players').set({ bank_account_no: '7100000001' }).where('id', '=', second.id).execute(); // ...then takes the freed one
  expect((await receive(a)).json()).toEqual({ message: 'INVITE_BONUS_SUCCESS', amount: 10 });
  const row = await t.db.db.selectFrom('invite_earnings').select(['amount', 'note']).where('invitee_id', '=', second.id).executeTakeFirstOrThrow();
  expect([Number(row.amount), row.note]).toEqual([0, 'bank']);
});
