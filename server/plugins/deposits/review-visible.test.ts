import type { Socket } from 'socket.io-client';
import { nowIso } from '../../db';
import { writeStatement } from '../../ledger';
import { recordReview } from './review-record';
import { reviewNotice } from './review-line';
import { makeSlipPng } from './domain/slip-image';
import { makeTransfer, slipFor } from '../../simulators/demo-bank/bank-service';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createPlayer, eventId, expectLedgerOk, multipart, signedEvent, type TestPlayer } from '../../test/support/deposits';
import { connected, join, listen, next, socketTo } from '../../test/support/chat';
import { createStaff } from '../../test/support/staff';

/**
 * No payment vanishes from view (issue 40 item 2): money that arrived and waits for staff is pushed to its player at
 * once, listed in their statement as in progress with its reason, told by GET /api/qrcode/{bank} `last.review`, and
 * staff's decision moves that same line to SUCCESS or FAILED and is pushed too. Real sockets, app.inject, the engine
 * under test; the ledger audit after each test.
 */
let t: TestApp;
let url: string;
let staff: { authorization: string };
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', CHAT_PREFIX: 'rv-test' });
  url = await listen(t.app);
  staff = { authorization: `Bearer ${(await createStaff(t.app, { role: 'payments', name: 'Pay Staff' })).token}` };
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.disconnect();
  await expectLedgerOk(t.app);
});
afterAll(async () => t?.close());

interface Pushed {
  reason?: string;
  review?: { status: string; kind: string; amount: number; ref: string };
}

async function watch(p: TestPlayer): Promise<Socket> {
  const socket = socketTo(url, { token: p.token });
  sockets.push(socket);
  await connected(socket);
  expect(await join(socket, `rv-test-${p.id}`)).toEqual({ ok: true });
  return socket;
}
const reviewPush = (socket: Socket, status = 'OPEN') => next<Pushed>(socket, 'wallet', (d) => d?.reason === 'review' && d.review?.status === status);
const createQr = async (p: TestPlayer, amount: number): Promise<string> => {
  const res = await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount } });
  expect(res.statusCode).toBe(200);
  return res.json().qrcodeId;
};
const payQr = async (reference: string, amount: number) => (await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference, amount }))).json().outcome;
const statement = async (p: TestPlayer, body: object = {}) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/statement', headers: p.headers, payload: { page: 1, limit: 20, ...body } });
  expect(res.statusCode).toBe(200);
  return res.json() as { total: number; statements: Array<Record<string, unknown>> };
};
const reviewOf = async (reference: string) => (await t.app.db.selectFrom('payment_reviews').select('id').where('reference', '=', reference).executeTakeFirstOrThrow()).id;
const decide = (id: string, action: 'approve' | 'reject', reason = 'checked the bank statement') =>
  t.app.inject({ method: 'POST', url: `/api/staff/reviews/${id}/${action}`, headers: staff, payload: { reason } });
const REF = /^D-\d{4}-\d{4}$/;

test('a QR paid 25 on 20 baht: pushed at once, in the statement in progress with its reason, told by GET with the same reference', async () => {
  const p = await createPlayer(t.app);
  const socket = await watch(p);
  const qr = await createQr(p, 20);
  const pushed = reviewPush(socket);
  expect(await payQr(qr, 25)).toBe('AMOUNT_MISMATCH');
  const event = await pushed;
  expect(event.review).toEqual({ status: 'OPEN', kind: 'AMOUNT_MISMATCH', amount: 25, ref: expect.stringMatching(REF) });

  const { total, statements } = await statement(p);
  expect(total).toBe(1);
  expect(statements[0]).toMatchObject({ statementType: 'deposit', status: 'IN_PROGRESS', from: 'KBANK', to: 'WALLET', amount: 25, reason: 'AMOUNT_MISMATCH', ref: event.review!.ref });

  const get = (await t.app.inject({ method: 'GET', url: '/api/qrcode/KBANK', headers: p.headers })).json();
  expect(get.last).toEqual({ qrcodeId: qr, status: 'REVIEW', review: event.review });
  // Nothing was credited: the wallet is as it was.
  expect((await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers })).json().wallet.amount).toBe(0);
});

test('paid after expiry and after cancel: each is a line in progress with its own reason, and GET tells it', async () => {
  const p = await createPlayer(t.app);
  const late = await createQr(p, 50);
  await t.app.db.updateTable('qr_deposits').set({ expires_at: nowIso(new Date(Date.now() - 1000)) }).where('id', '=', late).execute();
  expect(await payQr(late, 50)).toBe('QR_EXPIRED');
  expect((await t.app.inject({ method: 'GET', url: '/api/qrcode/KBANK', headers: p.headers })).json().last).toMatchObject({ qrcodeId: late, status: 'EXPIRED', review: { status: 'OPEN', kind: 'QR_EXPIRED', amount: 50 } });
  const cancelled = await createQr(p, 60);
  expect((await t.app.inject({ method: 'DELETE', url: `/api/qrcode/${cancelled}`, headers: p.headers })).statusCode).toBe(200);
  expect(await payQr(cancelled, 60)).toBe('QR_CANCELLED');
  const { statements } = await statement(p);
  expect(statements.map((s) => [s.status, s.amount, s.reason])).toEqual([
    ['IN_PROGRESS', 60, 'QR_CANCELLED'],
    ['IN_PROGRESS', 50, 'QR_EXPIRED'],
  ]);
});

test("staff approve: the same line moves to SUCCESS with its reference kept, and the player is told; reject: FAILED with staff's reason", async () => {
  const p = await createPlayer(t.app);
  const socket = await watch(p);
  const a = await createQr(p, 20);
  expect(await payQr(a, 25)).toBe('AMOUNT_MISMATCH');
  const before = (await statement(p)).statements[0];

  const approved = reviewPush(socket, 'APPROVED');
  expect((await decide(await reviewOf(a), 'approve')).statusCode).toBe(200);
  expect((await approved).review).toEqual({ status: 'APPROVED', kind: 'AMOUNT_MISMATCH', amount: 25, ref: before.ref });
  const after = (await statement(p)).statements;
  expect(after).toHaveLength(1);
  expect(after[0]).toMatchObject({ _id: before._id, ref: before.ref, status: 'SUCCESS', amount: 25 });
  expect(after[0].reason).toBeUndefined();
  expect((await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers })).json().wallet.amount).toBe(25);

  const b = await createQr(p, 30);
  expect(await payQr(b, 31)).toBe('AMOUNT_MISMATCH');
  const rejected = reviewPush(socket, 'REJECTED');
  expect((await decide(await reviewOf(b), 'reject', 'paid from another account')).statusCode).toBe(200);
  expect((await rejected).review).toMatchObject({ status: 'REJECTED', amount: 31 });
  const lines = (await statement(p)).statements;
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({ status: 'FAILED', amount: 31, note: 'paid from another account', reason: 'AMOUNT_MISMATCH' });
});

test('a slip held for review (not the registered account) is a line in progress with its reason', async () => {
  const owner = await createPlayer(t.app);
  const other = await createPlayer(t.app);
  const made = await makeTransfer(t.app, { playerId: owner.id, amount: '120', receiver: 'account', minutesAgo: 0 });
  if (!made.ok) throw new Error(made.error);
  const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: makeSlipPng((await slipFor(t.app, made.transRef))!) }]);
  const res = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...other.headers, 'content-type': body.contentType }, payload: body.payload });
  expect(res.json().message).toBe('NOT_MATCH');
  expect((await statement(other)).statements).toEqual([expect.objectContaining({ statementType: 'deposit', status: 'IN_PROGRESS', amount: 120, reason: 'SLIP_NOT_MATCH', ref: expect.stringMatching(REF) })]);
});

test('the statement filters by type (bonus covers a bonus and its end) and every line has its short reference', async () => {
  const p = await createPlayer(t.app);
  const qr = await createQr(p, 100);
  expect(await payQr(qr, 100)).toBe('CREDITED');
  // A transfer's line as the transfer protocol writes it (the money itself is not what this test is about).
  await t.app.db.transaction().execute((trx) =>
    writeStatement(trx, { playerId: p.id, type: 'transfer', status: 'SUCCESS', from: 'WALLET', to: 'pg', amount: 1000, currency: 'THB', refType: 'transfer', refId: eventId() }),
  );
  const all = await statement(p);
  expect(all.statements.map((s) => s.statementType).sort()).toEqual(['deposit', 'transfer']);
  expect(all.statements.every((s) => typeof s.ref === 'string' && /^[DT]-\d{4}-\d{4}$/.test(s.ref))).toBe(true);
  const deposits = await statement(p, { type: 'deposit' });
  expect(deposits.total).toBe(1);
  expect(deposits.statements.map((s) => s.statementType)).toEqual(['deposit']);
  expect((await statement(p, { type: 'bonus' })).total).toBe(0);
  expect((await t.app.inject({ method: 'POST', url: '/api/statement', headers: p.headers, payload: { type: 'nonsense' } })).statusCode).toBe(400);
});

test("a payout review (a withdrawal the gateway contradicted) is no payment of the player's: no notice to push", async () => {
  const p = await createPlayer(t.app);
  const id = await t.app.db.transaction().execute((trx) =>
    recordReview(trx, { kind: 'PAYOUT_FAIL_AFTER_PAID', source: 'payout', reference: 'wd_1', subjectId: 'wd_1', playerId: p.id, amount: 10000, currency: 'THB', now: new Date() }),
  );
  expect(await reviewNotice(t.app.db, id!)).toBeNull();
  expect((await statement(p)).total).toBe(0);
});
