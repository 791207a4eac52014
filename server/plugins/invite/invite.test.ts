import { walletBalance } from '../../ledger';
import { creditDeposit } from '../deposits/credit';
import { DEFAULT_DEPOSIT_RULES } from '../deposits/domain/rules';
import { depositTo } from '../../test/support/ledger';
import { ensureReference, register, registration } from '../../test/support/accounts';
import { backfillInviteEarnings } from '../../db/migrations/202611260020_invite_wheel';
import { writeInviteSettings, type InviteSettings } from './settings';
import { buildInviteWheelTestApp, satang, type InviteWheelTestApp, type TestPlayer } from '../../test/support/wheel';

/**
 * The invite bonus through app.inject on a real database (docs/invite-wheel.md): the inviter earns invite% of
 * each invitee's FIRST deposit, whatever its kind, in the deposit's own transaction; receiving pays every
 * unreceived earning once from invite_budget; the wallet and the list show the figures; the audit holds after
 * every test.
 */
jest.setTimeout(60_000);

let t: InviteWheelTestApp;
const setInvite = (s: Partial<InviteSettings>) => writeInviteSettings(t.db.db, s);
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
  await ensureReference(t.db.db);
  // Receivable at the first deposit and without a daily cap: farming.test.ts covers turnover and the cap.
  await setInvite({ isActive: true, percent: 5, cap: null, turnover: 0, dailyCap: null });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.audit()).toEqual([]);
});

const wallet = async (p: TestPlayer) => (await t.get(p, '/api/wallet')).json();
const receive = (p: TestPlayer) => t.get(p, '/api/invite/bonus');
const list = (p: TestPlayer, body: object) => t.post(p, '/api/invite', body);
const earnings = (inviter: TestPlayer) =>
  t.db.db.selectFrom('invite_earnings').select(['invitee_id', 'amount', 'note', 'deposit_ref']).where('inviter_id', '=', inviter.id).orderBy('id').execute();

test('the first deposit of each invitee earns the inviter 5%, whatever its kind (QR, slip, gift link); later deposits earn nothing', async () => {
  const a = await t.player();
  const byQr = await t.player({ inviter: a.id });
  const bySlip = await t.player({ inviter: a.id });
  const byGift = await t.player({ inviter: a.id });
  const idle = await t.player({ inviter: a.id });
  expect((await wallet(a)).invite).toEqual({ amount: 0, success: 0, fail: 4 });

  await t.deposit(byQr, 1000, 'qr');
  await t.deposit(bySlip, 500.5, 'slip');
  await t.deposit(byGift, 200, 'gift');
  expect((await wallet(a)).invite).toEqual({ amount: 85.02, success: 3, fail: 1 });
  // Only the first: a second deposit of each kind changes nothing.
  await t.deposit(byQr, 2000, 'gift');
  await t.deposit(bySlip, 300, 'qr');
  await t.deposit(byGift, 400, 'slip');
  expect((await wallet(a)).invite).toEqual({ amount: 85.02, success: 3, fail: 1 });
  const rows = await earnings(a);
  expect(rows.map((r) => [Number(r.invitee_id), Number(r.amount), r.note, r.deposit_ref.split(':')[1]])).toEqual([
    [byQr.id, satang(50), null, 'qr'],
    [bySlip.id, satang(25.02), null, 'slip'],
    [byGift.id, satang(10), null, 'gift'],
  ]);
  // Earning moves no money: the inviter's wallet is untouched until they receive.
  expect(await walletBalance(t.db.db, a.id)).toBe(0);
  expect((await wallet(idle)).invite).toEqual({ amount: 0, success: 0, fail: 0 });
});

test('receiving credits the unreceived total from invite_budget once, with an invite-linked statement line', async () => {
  const a = await t.player({ balance: satang(10) });
  const b = await t.player({ inviter: a.id });
  const c = await t.player({ inviter: a.id });
  await t.deposit(b, 100);
  await t.deposit(c, 300);
  const res = await receive(a);
  expect([res.statusCode, res.json()]).toEqual([200, { message: 'INVITE_BONUS_SUCCESS', amount: 20 }]);
  expect(await t.balance(a)).toBe(satang(30));
  expect((await wallet(a)).invite).toEqual({ amount: 0, success: 2, fail: 0 });
  const again = await receive(a);
  expect([again.statusCode, again.json()]).toEqual([422, { message: 'NO_INVITE_BONUS' }]);
  const st = (await t.post(a, '/api/statement', { page: 1, limit: 10 })).json().statements;
  expect(st[0]).toMatchObject({ statementType: 'bonus', status: 'SUCCESS', from: 'INVITE', to: 'WALLET', amount: 20, invite: { description: '2' } });
  const receipt = await t.db.db.selectFrom('invite_receipts').selectAll().where('player_id', '=', a.id).execute();
  expect(receipt.map((r) => [Number(r.amount), Number(r.earnings)])).toEqual([[satang(20), 2]]);

  // A later invitee's first deposit is a new earning for the next receive.
  const d = await t.player({ inviter: a.id });
  await t.deposit(d, 50.3);
  expect((await wallet(a)).invite.amount).toBe(2.51);
  expect((await receive(a)).json()).toEqual({ message: 'INVITE_BONUS_SUCCESS', amount: 2.51 });
  const budget = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'invite_budget:THB').executeTakeFirstOrThrow();
  const paid = await t.db.db.selectFrom('invite_receipts').select((eb) => eb.fn.sum<number>('amount').as('s')).executeTakeFirstOrThrow();
  expect(-Number(budget.balance)).toBe(Number(paid.s));
});

test('nothing to receive: NO_INVITE_BONUS, and nothing is written', async () => {
  const a = await t.player();
  await t.player({ inviter: a.id }); // registered, never deposited
  const res = await receive(a);
  expect([res.statusCode, res.json()]).toEqual([422, { message: 'NO_INVITE_BONUS' }]);
  expect(await t.db.db.selectFrom('invite_receipts').select('id').where('player_id', '=', a.id).execute()).toEqual([]);
});

test('switched off: receiving is INVITE_INACTIVE (earnings wait), first deposits meanwhile earn nothing, no banners', async () => {
  const a = await t.player();
  const early = await t.player({ inviter: a.id });
  await t.deposit(early, 200);
  await setInvite({ isActive: false, banners: [{ image: '/games/banner-invite.svg', html: { th: 'ชวน', la: 'ຊວນ', en: 'Invite' } }] });
  try {
    const late = await t.player({ inviter: a.id });
    await t.deposit(late, 1000);
    expect((await receive(a)).json()).toEqual({ message: 'INVITE_INACTIVE' });
    expect((await receive(a)).statusCode).toBe(422);
    expect((await t.get(a, '/api/invite/banners')).json()).toEqual({ banners: [] });
    // The earning from before stays; the deposit made while off counts as a first deposit that earned nothing.
    expect((await wallet(a)).invite).toEqual({ amount: 10, success: 2, fail: 0 });
    expect((await earnings(a)).map((r) => r.note)).toEqual([null, 'off']);
  } finally {
    await setInvite({ isActive: true });
  }
  expect((await t.get(a, '/api/invite/banners')).json()).toEqual({ banners: [{ image: '/games/banner-invite.svg', html: { th: 'ชวน', la: 'ຊວນ', en: 'Invite' } }] });
  expect((await receive(a)).json()).toEqual({ message: 'INVITE_BONUS_SUCCESS', amount: 10 });
  await setInvite({ banners: [] });
});

test('percent and cap per invitee are the operator settings in force at the first deposit', async () => {
  const a = await t.player();
  await setInvite({ percent: 12.5, cap: 100 });
  try {
    const b = await t.player({ inviter: a.id });
    const c = await t.player({ inviter: a.id });
    await t.deposit(b, 99.99); // 12.4987 -> 12.49 (rounded down to the satang)
    await t.deposit(c, 5000); // 625 -> the cap, 100
    expect((await wallet(a)).invite.amount).toBe(112.49);
  } finally {
    await setInvite({ percent: 5, cap: null });
  }
});

test('the list: one item per invitee, newest registration first, with what each earned; paged; the counts', async () => {
  const a = await t.player();
  const invitees: TestPlayer[] = [];
  for (let i = 0; i < 4; i += 1) invitees.push(await t.player({ inviter: a.id }));
  await t.deposit(invitees[1], 100);
  await t.deposit(invitees[3], 40);
  const names = await t.db.db.selectFrom('players').select(['id', 'name', 'created_at']).where('inviter_id', '=', a.id).execute();
  const nameOf = (p: TestPlayer) => names.find((n) => Number(n.id) === p.id)!.name;
  const createdOf = (p: TestPlayer) => names.find((n) => Number(n.id) === p.id)!.created_at;

  const first = await list(a, { page: 1, limit: 3 });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toEqual({
    invites: [invitees[3], invitees[2], invitees[1]].map((p, i) => ({ from: { name: nameOf(p) }, amount: [2, 0, 5][i], createdAt: createdOf(p) })),
    total: 4,
    success: 2,
    fail: 2,
  });
  expect((await list(a, { page: 2, limit: 3 })).json().invites).toEqual([{ from: { name: nameOf(invitees[0]) }, amount: 0, createdAt: createdOf(invitees[0]) }]);
  // Defaults: page 1, 10 a page.
  expect((await list(a, {})).json().invites).toHaveLength(4);
  // Someone else's invitees are not listed.
  const stranger = await t.player();
  expect((await list(stranger, {})).json()).toEqual({ invites: [], total: 0, success: 0, fail: 0 });
  for (const bad of [{ page: 0 }, { limit: 101 }, { page: '1' }, { other: 1 }]) {
    const res = await list(a, bad);
    expect([res.statusCode, res.json()]).toEqual([400, { message: 'INVALID_USER_INFO' }]);
  }
});

test('two first deposits of one invitee landing at once: one earning', async () => {
  const a = await t.player();
  const b = await t.player({ inviter: a.id });
  await Promise.all([t.deposit(b, 100, 'qr'), t.deposit(b, 200, 'gift'), t.deposit(b, 300, 'slip')]);
  const rows = await earnings(a);
  expect(rows).toHaveLength(1);
  const deposited = Number(rows[0].amount) * 20;
  expect([satang(100), satang(200), satang(300)]).toContain(deposited);
});

describe('who cannot be invited, or earn', () => {
  test('an invite code naming a closed account (gone or inactive) is ignored at registration', async () => {
    for (const status of ['gone', 'inactive']) {
      const closed = await t.player({ status });
      const body = registration({ inviteCode: `PR${closed.id}` });
      expect((await register(t.app, body)).statusCode).toBe(200);
      const row = await t.db.db.selectFrom('players').select('inviter_id').where('phone', '=', body.username).executeTakeFirstOrThrow();
      expect([status, row.inviter_id]).toEqual([status, null]);
    }
  });

  test('an invite code naming the registering player is ignored (the id does not exist until the row is written)', async () => {
    const last = await t.db.db.selectFrom('players').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow();
    const next = Number(last.m) + 1;
    const body = registration({ inviteCode: `PR${next}` });
    expect((await register(t.app, body)).statusCode).toBe(200);
    const row = await t.db.db.selectFrom('players').select(['id', 'inviter_id']).where('phone', '=', body.username).executeTakeFirstOrThrow();
    expect(row.inviter_id).toBeNull();
    // Should a row ever name itself, its first deposit earns nothing.
    const self = await t.player();
    await t.db.db.updateTable('players').set({ inviter_id: self.id }).where('id', '=', self.id).execute();
    await t.deposit(self, 100);
    expect((await earnings(self)).map((r) => [Number(r.amount), r.note])).toEqual([[0, 'self']]);
    expect((await receive(self)).json()).toEqual({ message: 'NO_INVITE_BONUS' });
  });

  test('an inviter whose account was closed after the invitee registered earns nothing from the first deposit', async () => {
    const a = await t.player();
    const b = await t.player({ inviter: a.id });
    await t.db.db.updateTable('players').set({ status: 'inactive' }).where('id', '=', a.id).execute();
    await t.deposit(b, 100);
    expect((await earnings(a)).map((r) => [Number(r.amount), r.note])).toEqual([[0, 'closed']]);
  });

  test('one bank account earns an inviter once: an invitee holding an account that earned before earns nothing', async () => {
    const a = await t.player();
    const first = await t.player({ inviter: a.id });
    await t.deposit(first, 100);
    // The first invitee moves to another account; a new player registers the freed account through another link.
    await t.db.db.updateTable('players').set({ bank_account_no: `${first.bankAccountNo}9` }).where('id', '=', first.id).execute();
    const other = await t.player();
    const again = await t.player({ inviter: other.id, bankAccountNo: first.bankAccountNo });
    await t.deposit(again, 100);
    expect((await earnings(other)).map((r) => [Number(r.amount), r.note])).toEqual([[0, 'bank']]);
    expect((await wallet(other)).invite).toEqual({ amount: 0, success: 1, fail: 0 });
  });

  test('a phone is one player: registering it again through another link is EXISTING_USER', async () => {
    const a = await t.player();
    const body = registration({ inviteCode: `PR${a.id}` });
    expect((await register(t.app, body)).statusCode).toBe(200);
    const b = await t.player();
    const res = await register(t.app, registration({ username: body.username, inviteCode: `PR${b.id}` }));
    expect([res.statusCode, res.json()]).toEqual([409, { message: 'EXISTING_USER' }]);
    const res2 = await register(t.app, registration({ bankAccountNo: body.bankAccountNo, inviteCode: `PR${b.id}` }));
    expect([res2.statusCode, res2.json()]).toEqual([409, { message: 'EXISTING_BANK' }]);
  });

  test('an invitee in another currency earns nothing (no exchange rate is configured)', async () => {
    const a = await t.player();
    const lak = await t.player({ inviter: a.id, currency: 'LAK' });
    // No channel takes LAK deposits yet: credited as the deposit routes do, through creditDeposit.
    await t.db.db.transaction().execute((trx) =>
      creditDeposit(trx, DEFAULT_DEPOSIT_RULES, { playerId: lak.id, amount: 10_000_00, currency: 'LAK', source: 'BCEL', refId: `test:lak:${lak.id}` }),
    );
    expect((await earnings(a)).map((r) => [Number(r.amount), r.note])).toEqual([[0, 'currency']]);
  });
});

test('the migration marks invitees who deposited before invites existed: their later deposit is not their first', async () => {
  const a = await t.player();
  const b = await t.player({ inviter: a.id });
  await depositTo(t.db.db, b.id, satang(100)); // a deposit entry without the invite hook, as before the migration
  await backfillInviteEarnings(t.db.db);
  await backfillInviteEarnings(t.db.db); // idempotent
  await t.deposit(b, 100);
  expect((await earnings(a)).map((r) => [Number(r.amount), r.note])).toEqual([[0, 'before']]);
  expect((await wallet(a)).invite).toEqual({ amount: 0, success: 1, fail: 0 });
});

test('every invite route needs a token', async () => {
  for (const [method, url] of [['GET', '/api/invite/bonus'], ['POST', '/api/invite'], ['GET', '/api/invite/banners']] as const) {
    const res = await t.app.inject({ method, url });
    expect([url, res.statusCode]).toEqual([url, 401]);
  }
});
