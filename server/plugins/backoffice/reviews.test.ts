import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { walletBalance } from '../../ledger';
import { nowIso } from '../../db';
import type { PlayLimitKind } from '../../db/schema-play';
import { makeSlipPng } from '../deposits/domain/slip-image';
import { makeTransfer, slipFor } from '../../simulators/demo-bank/bank-service';
import { coinsOf, createPlayer, eventId, expectLedgerOk, multipart, signedEvent, type TestPlayer } from '../../test/support/deposits';
import { createStaff } from '../../test/support/staff';
import { down, up } from '../../db/migrations/202611261720_payment_reviews';

/**
 * Payments under review (docs/staff.md "Back office: payments under review and payouts"): every kind is recorded
 * by the path that records the payment, approve credits once through the deposit credit path, reject tells the
 * player why and moves nothing; on the engine under test, through app.inject. The ledger audit runs after each test.
 */
let t: WalletTestApp;
let payments: { id: number; headers: { authorization: string } };
const realNow = () => new Date();
beforeAll(async () => {
  t = await buildWalletTestApp();
  const s = await createStaff(t.app, { role: 'payments', name: 'Pay Staff' });
  payments = { id: s.id, headers: { authorization: `Bearer ${s.token}` } };
});
afterEach(async () => {
  t.app.clock.now = realNow;
  await expectLedgerOk(t.app);
});
afterAll(() => t.close());

type Headers = { authorization: string };
const createQr = (p: TestPlayer, amount: number, bank = 'KBANK') => t.app.inject({ method: 'POST', url: `/api/qrcode/${bank}`, headers: p.headers, payload: { amount } });
const payQr = (reference: string, amount: number, id = eventId()) => t.app.inject(signedEvent({ id, type: 'qr.paid', reference, amount }));
const reviewsOf = (playerId: number) => t.app.db.selectFrom('payment_reviews').selectAll().where('player_id', '=', playerId).orderBy('created_at').execute();
const reviewByRef = (reference: string) => t.app.db.selectFrom('payment_reviews').selectAll().where('reference', '=', reference).execute();
const statementsOf = (playerId: number) => t.app.db.selectFrom('statements').selectAll().where('player_id', '=', playerId).orderBy('id').execute();
const auditOf = (subjectId: string) => t.app.db.selectFrom('staff_audit').selectAll().where('subject_id', '=', subjectId).execute();
const act = (id: string, action: 'approve' | 'reject', payload: unknown = { reason: 'checked the bank statement' }, headers: Headers = payments.headers) =>
  t.app.inject({ method: 'POST', url: `/api/staff/reviews/${id}/${action}`, headers, payload: payload as object });

async function setLimit(playerId: number, kind: PlayLimitKind, value: number) {
  await t.app.db
    .insertInto('play_limits')
    .values({ player_id: playerId, kind, value, pending_set: 0, pending_value: null, pending_at: null, updated_at: nowIso() })
    .onConflict((oc) => oc.columns(['player_id', 'kind']).doUpdateSet({ value }))
    .execute();
}

/** A slip of a transfer `from` made to the operator, uploaded by `uploader`. */
async function slipOf(from: TestPlayer, amount: string) {
  const made = await makeTransfer(t.app, { playerId: from.id, amount, receiver: 'account', minutesAgo: 0 });
  if (!made.ok) throw new Error(made.error);
  const bytes = makeSlipPng((await slipFor(t.app, made.transRef))!);
  const send = (uploader: TestPlayer) => {
    const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: bytes }]);
    return t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...uploader.headers, 'content-type': body.contentType }, payload: body.payload });
  };
  return { ref: made.transRef, send };
}

/** An AMOUNT_MISMATCH review of `paid` baht on a QR of 100 baht; returns the review id. */
async function mismatch(p: TestPlayer, paid = 120.5): Promise<{ id: string; qr: string }> {
  const qr = (await createQr(p, 100)).json().qrcodeId as string;
  expect((await payQr(qr, paid)).json().outcome).toBe('AMOUNT_MISMATCH');
  const [r] = await reviewByRef(qr);
  return { id: r.id, qr };
}

describe('every kind is recorded by its path, in the transaction that records the payment', () => {
  test('QR: amount mismatch, expired, cancelled, already paid; the webhook: unknown reference', async () => {
    const p = await createPlayer(t.app);
    const m = await mismatch(p);
    const expired = (await createQr(p, 50)).json().qrcodeId;
    await t.app.db.updateTable('qr_deposits').set({ expires_at: nowIso(new Date(Date.now() - 1000)) }).where('id', '=', expired).execute();
    expect((await payQr(expired, 50)).json().outcome).toBe('QR_EXPIRED');
    const cancelled = (await createQr(p, 60)).json().qrcodeId;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/qrcode/${cancelled}`, headers: p.headers })).statusCode).toBe(200);
    expect((await payQr(cancelled, 60)).json().outcome).toBe('QR_CANCELLED');
    const paid = (await createQr(p, 70)).json().qrcodeId;
    expect((await payQr(paid, 70)).json().outcome).toBe('CREDITED');
    const again = eventId();
    expect((await payQr(paid, 70, again)).json().outcome).toBe('QR_ALREADY_PAID');
    expect((await payQr(paid, 70, again)).json().outcome).toBe('QR_ALREADY_PAID'); // the same event: one review
    expect((await payQr(paid, 71)).json().outcome).toBe('QR_ALREADY_PAID'); // another payment: another review
    const unknown = `qr_nobody_${eventId()}`;
    expect((await payQr(unknown, 33.33)).json().outcome).toBe('UNKNOWN_REFERENCE');

    const rows = (await reviewsOf(p.id)).map((r) => [r.kind, r.source, r.reference, Number(r.amount), r.currency, r.status, r.subject_id]);
    expect(rows).toEqual([
      ['AMOUNT_MISMATCH', 'qr', m.qr, 120_50, 'THB', 'OPEN', m.qr],
      ['QR_EXPIRED', 'qr', expired, 50_00, 'THB', 'OPEN', expired],
      ['QR_CANCELLED', 'qr', cancelled, 60_00, 'THB', 'OPEN', cancelled],
      ['QR_ALREADY_PAID', 'qr', paid, 70_00, 'THB', 'OPEN', paid],
      ['QR_ALREADY_PAID', 'qr', paid, 71_00, 'THB', 'OPEN', paid],
    ]);
    expect(await reviewByRef(unknown)).toMatchObject([{ kind: 'UNKNOWN_REFERENCE', source: 'webhook', player_id: null, status: 'OPEN' }]);
    // The console's list shows them, newest first, with the player.
    const list = await t.app.inject({ method: 'GET', url: '/api/staff/reviews', headers: payments.headers });
    expect(list.statusCode).toBe(200);
    const mine = list.json().reviews.filter((r: { player: { id: number } | null; reference: string }) => r.player?.id === p.id || r.reference === unknown);
    expect(mine.map((r: { kind: string }) => r.kind).sort()).toEqual(['AMOUNT_MISMATCH', 'QR_ALREADY_PAID', 'QR_ALREADY_PAID', 'QR_CANCELLED', 'QR_EXPIRED', 'UNKNOWN_REFERENCE']);
    const times = list.json().reviews.map((r: { createdAt: string }) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(mine.find((r: { id: string }) => r.id === m.id)).toEqual({
      id: m.id, kind: 'AMOUNT_MISMATCH', source: 'qr', reference: m.qr, player: { id: p.id, phone: p.phone, name: expect.any(String) },
      amount: 120.5, currency: 'THB', createdAt: expect.any(String), status: 'OPEN', decidedBy: null, decidedAt: null, reason: null,
    });
    expect(mine.find((r: { reference: string }) => r.reference === unknown).player).toBeNull();
  });

  test('deposit holds (QR, slip, gift) and NOT_MATCH slips (one review per bank reference)', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 10_00);
    const qr = (await createQr(p, 5)).json().qrcodeId;
    await setLimit(p.id, 'deposit_day', 1_00);
    expect((await payQr(qr, 5)).json().outcome).toBe('DEPOSIT_LIMIT');
    const s = await slipOf(p, '20');
    expect((await s.send(p)).json()).toEqual({ message: 'DEPOSIT_LIMIT' });
    const holds = await t.app.db.selectFrom('deposit_holds').select(['id', 'source']).where('player_id', '=', p.id).orderBy('created_at').execute();
    const rows = await reviewsOf(p.id);
    expect(rows.map((r) => [r.kind, r.source, r.reference, Number(r.amount), r.subject_id])).toEqual([
      ['DEPOSIT_LIMIT', 'qr', qr, 5_00, holds[0].id],
      ['DEPOSIT_LIMIT', 'slip', s.ref, 20_00, holds[1].id],
    ]);

    const owner = await createPlayer(t.app);
    const other = await createPlayer(t.app);
    const stolen = await slipOf(owner, '300');
    for (let i = 0; i < 2; i++) expect((await stolen.send(other)).json()).toEqual({ message: 'NOT_MATCH' });
    const slips = await t.app.db.selectFrom('slips').select('id').where('player_id', '=', other.id).orderBy('created_at').execute();
    expect((await reviewByRef(stolen.ref)).map((r) => [r.kind, r.source, Number(r.player_id), Number(r.amount)])).toEqual([['SLIP_NOT_MATCH', 'slip', other.id, 300_00]]);
    expect(slips.map((x) => x.id)).toContain((await reviewByRef(stolen.ref))[0].subject_id);
  });
});

describe('approve', () => {
  test('credits once through the deposit path (wallet, statement line, coins, ledger), marks the QR PAID and writes the audit row', async () => {
    const p = await createPlayer(t.app);
    const m = await mismatch(p, 150);
    const res = await act(m.id, 'approve', { reason: '  customer sent 150 by mistake  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: m.id, status: 'APPROVED', reason: 'customer sent 150 by mistake', decidedBy: { id: payments.id, name: 'Pay Staff' }, decidedAt: expect.any(String) });
    expect(await walletBalance(t.app.db, p.id)).toBe(150_00);
    expect(await coinsOf(t.app, p.id)).toBe(1);
    const lines = await statementsOf(p.id);
    expect(lines).toMatchObject([{ statement_type: 'deposit', status: 'SUCCESS', from_account: 'KBANK', to_account: 'WALLET', ref_type: 'deposit', ref_id: `review:${m.id}`, note: null }]);
    const entry = await t.app.db.selectFrom('journal_entries').selectAll().where('reference', '=', `deposit:review:${m.id}`).execute();
    expect(entry).toHaveLength(1);
    expect(await t.app.db.selectFrom('qr_deposits').select('status').where('id', '=', m.qr).executeTakeFirstOrThrow()).toEqual({ status: 'PAID' });
    expect(await auditOf(m.id)).toMatchObject([{ staff_id: payments.id, action: 'review.approve', subject_type: 'review', reason: 'customer sent 150 by mistake', request_id: res.headers['x-request-id'] }]);
    // Decided: a second approval or a rejection is 409 and changes nothing.
    for (const action of ['approve', 'reject'] as const) expect([(await act(m.id, action)).statusCode, (await act(m.id, action)).json()]).toEqual([409, { message: 'REVIEW_DECIDED' }]);
    expect(await walletBalance(t.app.db, p.id)).toBe(150_00);
    expect(await auditOf(m.id)).toHaveLength(1);
  });

  test('two approvals at once: one 200, one 409, credited once', async () => {
    const p = await createPlayer(t.app);
    const m = await mismatch(p, 99);
    const other = await createStaff(t.app, { role: 'admin' });
    const answers = await Promise.all([act(m.id, 'approve'), act(m.id, 'approve', undefined, { authorization: `Bearer ${other.token}` })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toEqual({ message: 'REVIEW_DECIDED' });
    expect(await walletBalance(t.app.db, p.id)).toBe(99_00);
    expect(await statementsOf(p.id)).toHaveLength(1);
    expect(await auditOf(m.id)).toHaveLength(1);
  });

  test('a held deposit is credited although it still passes the limit (a person decided); its line turns SUCCESS', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 1_00);
    const s = await slipOf(p, '40');
    expect((await s.send(p)).json()).toEqual({ message: 'DEPOSIT_LIMIT' });
    const [r] = await reviewsOf(p.id);
    expect((await act(r.id, 'approve')).statusCode).toBe(200);
    expect(await walletBalance(t.app.db, p.id)).toBe(40_00);
    const lines = await statementsOf(p.id);
    expect(lines).toMatchObject([{ statement_type: 'deposit', status: 'SUCCESS', ref_type: 'deposit', ref_id: `review:${r.id}`, from_account: 'KBANK' }]);
    expect(await t.app.db.selectFrom('deposit_holds').select('status').where('id', '=', r.subject_id!).executeTakeFirstOrThrow()).toEqual({ status: 'APPROVED' });
    expect(await t.app.db.selectFrom('slips').select(['status', 'note']).where('player_id', '=', p.id).executeTakeFirstOrThrow()).toEqual({ status: 'SUCCESS', note: null });
  });

  test("a NOT_MATCH slip: approving claims the bank reference; once its owner was credited, approval is 409 and writes nothing", async () => {
    const owner = await createPlayer(t.app);
    const other = await createPlayer(t.app);
    const a = await slipOf(owner, '75');
    expect((await a.send(other)).json()).toEqual({ message: 'NOT_MATCH' });
    const [ra] = await reviewByRef(a.ref);
    expect((await act(ra.id, 'approve')).statusCode).toBe(200);
    expect(await walletBalance(t.app.db, other.id)).toBe(75_00);
    // The owner can no longer be credited for the same transfer.
    expect((await a.send(owner)).json()).toEqual({ message: 'SLIP_REFNO_DUPLICATED' });
    expect(await walletBalance(t.app.db, owner.id)).toBe(0);

    const b = await slipOf(owner, '80');
    expect((await b.send(other)).json()).toEqual({ message: 'NOT_MATCH' });
    expect((await b.send(owner)).json()).toMatchObject({ message: 'SUCCESS' });
    const [rb] = await reviewByRef(b.ref);
    const res = await act(rb.id, 'approve');
    expect([res.statusCode, res.json()]).toEqual([409, { message: 'SLIP_REFNO_DUPLICATED' }]);
    expect(await walletBalance(t.app.db, other.id)).toBe(75_00);
    expect((await reviewByRef(b.ref))[0].status).toBe('OPEN');
    expect(await auditOf(rb.id)).toEqual([]);
    expect((await act(rb.id, 'reject', { reason: 'the owner was credited' })).statusCode).toBe(200);
  });

  test('an unknown reference has no player: 422 REVIEW_NO_PLAYER; it can be rejected', async () => {
    const ref = `ref_${eventId()}`;
    await payQr(ref, 10);
    const [r] = await reviewByRef(ref);
    expect([(await act(r.id, 'approve')).statusCode, (await act(r.id, 'approve')).json()]).toEqual([422, { message: 'REVIEW_NO_PLAYER' }]);
    expect((await reviewByRef(ref))[0].status).toBe('OPEN');
    const rej = await act(r.id, 'reject', { reason: 'returned to the sender' });
    expect(rej.json()).toMatchObject({ status: 'REJECTED', player: null, reason: 'returned to the sender' });
    expect(await auditOf(r.id)).toMatchObject([{ action: 'review.reject' }]);
  });
});

describe('reject', () => {
  test('no money; the player gets a FAILED deposit line with the reason as its note, shown by POST /api/statement', async () => {
    const p = await createPlayer(t.app);
    const m = await mismatch(p, 200);
    const res = await act(m.id, 'reject', { reason: 'Paid from a third-party account' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'REJECTED', reason: 'Paid from a third-party account', decidedBy: { id: payments.id } });
    expect(await walletBalance(t.app.db, p.id)).toBe(0);
    expect(await statementsOf(p.id)).toMatchObject([{ statement_type: 'deposit', status: 'FAILED', ref_type: 'review', ref_id: m.id, note: 'Paid from a third-party account', from_account: 'KBANK' }]);
    const st = await t.app.inject({ method: 'POST', url: '/api/statement', headers: p.headers, payload: { page: 1, limit: 10 } });
    expect(st.json().statements).toMatchObject([{ statementType: 'deposit', status: 'FAILED', amount: 200, note: 'Paid from a third-party account', reference: m.id }]);
    expect(await t.app.db.selectFrom('journal_entries').select('id').where('player_id', '=', p.id).execute()).toEqual([]);
    expect(await auditOf(m.id)).toMatchObject([{ action: 'review.reject', reason: 'Paid from a third-party account' }]);
  });

  test('a held deposit: the hold is REJECTED and its IN_PROGRESS line ends FAILED with the note', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 10_00);
    const qr = (await createQr(p, 5)).json().qrcodeId;
    await setLimit(p.id, 'deposit_day', 1_00);
    await payQr(qr, 5);
    const [r] = await reviewsOf(p.id);
    expect((await act(r.id, 'reject', { reason: 'over the limit; refunded' })).statusCode).toBe(200);
    expect(await statementsOf(p.id)).toMatchObject([{ status: 'FAILED', ref_type: 'hold', note: 'over the limit; refunded' }]);
    expect(await t.app.db.selectFrom('deposit_holds').select('status').where('id', '=', r.subject_id!).executeTakeFirstOrThrow()).toEqual({ status: 'REJECTED' });
    expect(await walletBalance(t.app.db, p.id)).toBe(0);
  });
});

describe('refusals', () => {
  test('400 REASON_REQUIRED (missing, blank, not text, over 500), 404 NO_DATA; nothing written', async () => {
    const p = await createPlayer(t.app);
    const m = await mismatch(p);
    for (const body of [{}, { reason: '   ' }, { reason: 5 }, { reason: 'x'.repeat(501) }, []]) {
      for (const action of ['approve', 'reject'] as const) {
        const res = await act(m.id, action, body);
        expect([res.statusCode, res.json()]).toEqual([400, { message: 'REASON_REQUIRED' }]);
      }
    }
    expect((await reviewByRef(m.qr))[0].status).toBe('OPEN');
    // Only the review's own line, still in progress (issue 40: recorded with the payment).
    expect(await statementsOf(p.id)).toMatchObject([{ status: 'IN_PROGRESS', ref_type: 'review', ref_id: m.id }]);
    expect((await act(m.id, 'approve', { reason: 'x'.repeat(500) })).statusCode).toBe(200);
    for (const action of ['approve', 'reject'] as const) expect([(await act('rev_nope', action)).statusCode, (await act('rev_nope', action)).json()]).toEqual([404, { message: 'NO_DATA' }]);
    const one = await t.app.inject({ method: 'GET', url: '/api/staff/reviews/rev_nope', headers: payments.headers });
    expect([one.statusCode, one.json()]).toEqual([404, { message: 'NO_DATA' }]);
    const got = await t.app.inject({ method: 'GET', url: `/api/staff/reviews/${m.id}`, headers: payments.headers });
    expect(got.json()).toMatchObject({ id: m.id, status: 'APPROVED' });
    const approved = await t.app.inject({ method: 'GET', url: '/api/staff/reviews?status=APPROVED', headers: payments.headers });
    expect(approved.json().reviews.map((r: { id: string }) => r.id)).toContain(m.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/reviews?status=MAYBE', headers: payments.headers })).statusCode).toBe(400);
  });

  test('roles: support 403, a player token 401, admin allowed', async () => {
    const p = await createPlayer(t.app);
    const m = await mismatch(p);
    const support = await createStaff(t.app, { role: 'support' });
    const sh = { authorization: `Bearer ${support.token}` };
    for (const req of [
      { method: 'GET' as const, url: '/api/staff/reviews' },
      { method: 'GET' as const, url: `/api/staff/reviews/${m.id}` },
      { method: 'POST' as const, url: `/api/staff/reviews/${m.id}/approve`, payload: { reason: 'r' } },
      { method: 'POST' as const, url: `/api/staff/reviews/${m.id}/reject`, payload: { reason: 'r' } },
    ]) {
      const s = await t.app.inject({ ...req, headers: sh });
      expect([req.url, s.statusCode, s.json()]).toEqual([req.url, 403, { message: 'UNAUTHORIZED' }]);
      expect([req.url, (await t.app.inject({ ...req, headers: p.headers })).statusCode]).toEqual([req.url, 401]);
    }
    expect((await reviewByRef(m.qr))[0].status).toBe('OPEN');
    const admin = await createStaff(t.app, { role: 'admin' });
    expect((await act(m.id, 'reject', undefined, { authorization: `Bearer ${admin.token}` })).statusCode).toBe(200);
  });
});

test('the migration backfills from what was recorded before: the same reviews again (kind, source, reference, player, amount)', async () => {
  const p = await createPlayer(t.app);
  await mismatch(p, 111);
  const owner = await createPlayer(t.app);
  await (await slipOf(owner, '12')).send(p);
  await setLimit(p.id, 'deposit_day', 10_00);
  const qr = (await createQr(p, 5)).json().qrcodeId;
  await setLimit(p.id, 'deposit_day', 1_00);
  await payQr(qr, 5);
  const pick = async () =>
    (await t.app.db.selectFrom('payment_reviews').selectAll().where('player_id', '=', p.id).execute())
      .map((r) => JSON.stringify([r.kind, r.source, r.reference, r.event_id, r.subject_id, r.player_id === null ? null : Number(r.player_id), Number(r.amount), r.currency, r.created_at]))
      .sort();
  const before = await pick();
  expect(before.map((b) => JSON.parse(b)[0]).sort()).toEqual(['AMOUNT_MISMATCH', 'DEPOSIT_LIMIT', 'SLIP_NOT_MATCH']);
  await down(t.app.db);
  await up(t.app.db);
  expect(await pick()).toEqual(before);
});
