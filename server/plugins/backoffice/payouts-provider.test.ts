import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { seedBase } from '../../db/seed';
import { freshDb, testConfig, type TestDb } from '../../test/support/helper';
import { PayoutSimulator } from '../../adapters/payouts';
import { walletBalance } from '../../ledger';
import { depositTo, insertPlayer } from '../../test/support/ledger';
import { requestWithdrawal } from '../wallet/withdrawals';
import { eventId, expectLedgerOk, signedEvent } from '../../test/support/deposits';
import { createStaff } from '../../test/support/staff';

/**
 * Issue 39 row 4: a payout's outcome is the gateway's. Staff may fail a payout only when the gateway reports it failed
 * or a cancel at the gateway succeeded (else 409 PAYOUT_NOT_FAILED), and a gateway result contradicting the recorded
 * one opens a payment review with an error line, moving no money (docs/staff.md "Payouts in progress"). The
 * simulator keeps payouts in its queue until a test sends them (sendAfterMs null) and settles only when told; its
 * results arrive through the signed payment webhook, as a real gateway's do.
 */
let app: FastifyInstance;
let db: TestDb;
let sim: PayoutSimulator;
let staff: { authorization: string };
const errors: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  db = await freshDb();
  await seedBase(db.db);
  sim = new PayoutSimulator({ delayMs: null, sendAfterMs: null });
  app = await buildApp(testConfig(db.dataDir), {
    database: db,
    logger: { level: 'error', stream: { write: (line: string) => void errors.push(JSON.parse(line) as Record<string, unknown>) } },
    wallet: { payoutAdapter: sim, wallet: { reconcileIntervalMs: 0, reconcileAtStart: false, reconcileAfterMs: 0 } },
  });
  await app.ready();
  staff = { authorization: `Bearer ${(await createStaff(app, { role: 'payments' })).token}` };
});
beforeEach(() => {
  errors.length = 0;
});
afterEach(async () => {
  await expectLedgerOk(app);
});
afterAll(async () => {
  await app.close();
  await db.dispose();
});

const act = (id: string, action: 'settle' | 'fail', reason = 'checked with the bank') =>
  app.inject({ method: 'POST', url: `/api/staff/payouts/${id}/${action}`, headers: staff, payload: { reason } });
const decide = (id: string, action: 'approve' | 'reject', reason = 'checked with the bank') =>
  app.inject({ method: 'POST', url: `/api/staff/reviews/${id}/${action}`, headers: staff, payload: { reason } });
const withdrawal = (id: string) => app.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const lineOf = async (id: string) => (await app.db.selectFrom('statements').select('status').where('ref_type', '=', 'withdrawal').where('ref_id', '=', id).executeTakeFirstOrThrow()).status;
const reviewsOf = (id: string) => app.db.selectFrom('payment_reviews').selectAll().where('reference', '=', id).execute();
const auditOf = (id: string) => app.db.selectFrom('staff_audit').selectAll().where('subject_id', '=', id).execute();
const statementCount = async (playerId: number) => (await app.db.selectFrom('statements').select('id').where('player_id', '=', playerId).execute()).length;
/** Every satang the gateway paid out, by the books. */
const paidOut = async () => {
  const row = await app.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'payouts_paid:THB').executeTakeFirst();
  return Number(row?.balance ?? 0);
};

/** A player holding `balance` baht who asked to withdraw `amount` baht (the gateway has it in its queue). */
async function payout(amount: number, balance = 1000) {
  const playerId = await insertPlayer(app.db);
  await depositTo(app.db, playerId, balance * 100);
  const { withdrawalId, status } = await requestWithdrawal(app.wallet.withdrawDeps, playerId, amount * 100);
  expect(status).toBe('IN_PROGRESS');
  return { id: withdrawalId, playerId };
}

/** The gateway decides a payout but its webhook is not acknowledged: only its status tells (a real case for staff). */
async function decidedUnheard(id: string, ok: boolean) {
  const handler = (wid: string, s: boolean) => app.inject(signedEvent({ id: eventId(), type: s ? 'payout.succeeded' : 'payout.failed', reference: wid, amount: 1 }));
  sim.setSettledHandler(async () => {
    throw new Error('webhook answered 503');
  });
  try {
    await expect(sim.settle(id, ok)).rejects.toThrow('503');
  } finally {
    sim.setSettledHandler(handler);
  }
}

describe('staff fail needs the gateway to say the payout will not be paid', () => {
  test('the issue: 1,000 deposited, 500 withdrawn, failed by staff at once, then paid by the gateway: the fail is refused, 500 held', async () => {
    const { id, playerId } = await payout(500);
    sim.send(id); // on its way to the bank: too late to cancel
    const before = await paidOut();
    const res = await act(id, 'fail', 'player says it did not arrive');
    expect([res.statusCode, res.json()]).toEqual([409, { message: 'PAYOUT_NOT_FAILED' }]);
    expect(await sim.getPayoutStatus(id)).toBe('PENDING');
    expect(await walletBalance(app.db, playerId)).toBe(500_00);
    expect((await withdrawal(id)).status).toBe('IN_PROGRESS');
    expect(await auditOf(id)).toEqual([]);
    await sim.settle(id, true); // the bank pays: payout.succeeded through the webhook
    expect((await withdrawal(id)).status).toBe('SUCCESS');
    expect(await walletBalance(app.db, playerId)).toBe(500_00);
    expect((await paidOut()) - before).toBe(500_00);
  });

  test('refused while the gateway says it paid (its webhook not heard yet), and when it does not answer', async () => {
    const paid = await payout(300);
    await decidedUnheard(paid.id, true);
    expect(await sim.getPayoutStatus(paid.id)).toBe('SUCCEEDED');
    expect((await act(paid.id, 'fail')).json()).toEqual({ message: 'PAYOUT_NOT_FAILED' });
    expect(await walletBalance(app.db, paid.playerId)).toBe(700_00);

    const silent = await payout(200);
    const real = sim.getPayoutStatus;
    sim.getPayoutStatus = async () => {
      throw new Error('gateway down');
    };
    try {
      const res = await act(silent.id, 'fail');
      expect([res.statusCode, res.json()]).toEqual([409, { message: 'PAYOUT_NOT_FAILED' }]);
    } finally {
      sim.getPayoutStatus = real;
    }
    expect((await withdrawal(silent.id)).status).toBe('IN_PROGRESS');
    expect(await sim.getPayoutStatus(silent.id)).toBe('PENDING'); // not cancelled behind staff's back either
    expect(await walletBalance(app.db, silent.playerId)).toBe(800_00);
    expect((await act(paid.id, 'settle')).statusCode).toBe(200);
    expect((await act(silent.id, 'settle')).statusCode).toBe(200);
  });

  test('allowed once the gateway reports it failed: the money is back, the audit row says the gateway failed it', async () => {
    const { id, playerId } = await payout(400);
    await decidedUnheard(id, false);
    const res = await act(id, 'fail', 'gateway shows the transfer rejected');
    expect([res.statusCode, res.json()]).toEqual([200, { id, status: 'FAILED' }]);
    expect(await walletBalance(app.db, playerId)).toBe(1000_00);
    expect(await lineOf(id)).toBe('FAILED');
    const [row] = await auditOf(id);
    expect(row).toMatchObject({ action: 'payout.fail', reason: 'gateway shows the transfer rejected' });
    expect(JSON.parse(row.detail!)).toEqual({ status: 'FAILED', provider: 'FAILED' });
  });

  test('allowed after a cancel the gateway accepted (still in its queue); the cancelled payout is never paid', async () => {
    const { id, playerId } = await payout(250);
    expect(await sim.getPayoutStatus(id)).toBe('PENDING');
    const res = await act(id, 'fail', 'player asked to stop it');
    expect([res.statusCode, res.json()]).toEqual([200, { id, status: 'FAILED' }]);
    expect(await walletBalance(app.db, playerId)).toBe(1000_00);
    expect(JSON.parse((await auditOf(id))[0].detail!)).toEqual({ status: 'FAILED', provider: 'CANCELLED' });
    expect(await sim.getPayoutStatus(id)).toBe('FAILED');
    expect(await sim.settle(id, true)).toBe(false); // the bank never gets it
    expect(await sim.cancelPayout(id)).toBe('CANCELLED');
    expect(await walletBalance(app.db, playerId)).toBe(1000_00);
  });
});

test('the simulator: a payout sent to the bank, or decided, cannot be cancelled; an unknown id is UNKNOWN', async () => {
  const s = new PayoutSimulator({ delayMs: null, sendAfterMs: 20 });
  const req = (withdrawalId: string) => ({ withdrawalId, amount: 100, currency: 'THB', bankCode: 'KBANK', bankAccountNo: '1', bankAccountName: 'A' });
  s.setSettledHandler(async () => undefined);
  try {
    expect(await s.cancelPayout('w_none')).toBe('UNKNOWN');
    await s.requestPayout(req('w_q'));
    await s.requestPayout(req('w_sent'));
    expect(await s.cancelPayout('w_q')).toBe('CANCELLED');
    await new Promise((r) => setTimeout(r, 40)); // the send timer: w_sent leaves the queue
    expect(await s.cancelPayout('w_sent')).toBe('NOT_CANCELLABLE');
    expect(await s.getPayoutStatus('w_sent')).toBe('PENDING');
    expect(await s.settle('w_sent', true)).toBe(true);
    expect(await s.cancelPayout('w_sent')).toBe('NOT_CANCELLABLE');
    const atOnce = new PayoutSimulator({ delayMs: null }); // the default: sent at once, as most gateways do
    await atOnce.requestPayout(req('w_1'));
    expect(await atOnce.cancelPayout('w_1')).toBe('NOT_CANCELLABLE');
  } finally {
    s.close();
  }
});

describe('a gateway result that contradicts the recorded one', () => {
  test('failed after staff recorded it paid: a review and an error line, no money moves, once however often it comes', async () => {
    const { id, playerId } = await payout(300);
    sim.send(id);
    expect((await act(id, 'settle', 'bank statement shows it')).statusCode).toBe(200);
    const lines = await statementCount(playerId);
    const before = await paidOut();
    await sim.settle(id, false); // the gateway's payout.failed, through the webhook
    const evt = signedEvent({ id: eventId(), type: 'payout.failed', reference: id, amount: 300 });
    const answers = [await app.inject(evt), await app.inject(evt), await app.inject(signedEvent({ id: eventId(), type: 'payout.failed', reference: id, amount: 300 }))];
    for (const a of answers) expect([a.statusCode, a.json().outcome]).toEqual([200, 'PAYOUT_CONTRADICTED']);
    expect((await withdrawal(id)).status).toBe('SUCCESS');
    expect(await walletBalance(app.db, playerId)).toBe(700_00);
    expect(await paidOut()).toBe(before);
    expect(await statementCount(playerId)).toBe(lines);
    const reviews = await reviewsOf(id);
    expect(reviews).toMatchObject([{ kind: 'PAYOUT_FAIL_AFTER_PAID', source: 'payout', subject_id: id, player_id: playerId, status: 'OPEN' }]);
    expect(Number(reviews[0].amount)).toBe(300_00);
    expect(errors.filter((l) => l.withdrawalId === id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ level: 50, recorded: 'SUCCESS', kind: 'PAYOUT_FAIL_AFTER_PAID', msg: expect.stringContaining('contradicts') })]),
    );
    const listed = await app.inject({ method: 'GET', url: '/api/staff/reviews', headers: staff });
    expect(listed.json().reviews).toEqual(expect.arrayContaining([expect.objectContaining({ id: reviews[0].id, kind: 'PAYOUT_FAIL_AFTER_PAID', source: 'payout', reference: id, amount: 300 })]));
  });

  test('paid after the money went back to the wallet: a review and an error line, the wallet keeps what it holds', async () => {
    const { id, playerId } = await payout(500);
    expect((await act(id, 'fail', 'cancelled at the gateway')).statusCode).toBe(200); // cancelled in its queue
    expect(await walletBalance(app.db, playerId)).toBe(1000_00);
    const before = await paidOut();
    const res = await app.inject(signedEvent({ id: eventId(), type: 'payout.succeeded', reference: id, amount: 500 }));
    expect([res.statusCode, res.json().outcome]).toEqual([200, 'PAYOUT_CONTRADICTED']);
    expect((await withdrawal(id)).status).toBe('FAILED');
    expect(await walletBalance(app.db, playerId)).toBe(1000_00);
    expect(await paidOut()).toBe(before);
    expect(await reviewsOf(id)).toMatchObject([{ kind: 'PAYOUT_PAID_AFTER_FAIL', source: 'payout', status: 'OPEN' }]);
    expect(errors.some((l) => l.withdrawalId === id && l.level === 50 && l.recorded === 'FAILED')).toBe(true);
    // A result that agrees with the recorded one is no contradiction.
    const agrees = await app.inject(signedEvent({ id: eventId(), type: 'payout.failed', reference: id, amount: 500 }));
    expect(agrees.json().outcome).toBe('PAYOUT_FAILED');
    expect(await reviewsOf(id)).toHaveLength(1);
  });
});

describe('deciding a contradicted payout', () => {
  async function contradicted(kind: 'PAYOUT_PAID_AFTER_FAIL' | 'PAYOUT_FAIL_AFTER_PAID', amount: number) {
    const p = await payout(amount);
    if (kind === 'PAYOUT_FAIL_AFTER_PAID') {
      expect((await act(p.id, 'settle')).statusCode).toBe(200);
      await app.inject(signedEvent({ id: eventId(), type: 'payout.failed', reference: p.id, amount }));
    } else {
      expect((await act(p.id, 'fail')).statusCode).toBe(200);
      await app.inject(signedEvent({ id: eventId(), type: 'payout.succeeded', reference: p.id, amount }));
    }
    const [review] = await reviewsOf(p.id);
    expect(review.kind).toBe(kind);
    return { ...p, reviewId: review.id };
  }

  test('approve "failed after paid": the money the player never got comes back, the withdrawal and its line FAILED', async () => {
    const { id, playerId, reviewId } = await contradicted('PAYOUT_FAIL_AFTER_PAID', 350);
    const before = await paidOut();
    const res = await decide(reviewId, 'approve', 'bank returned the transfer');
    expect([res.statusCode, res.json().status]).toEqual([200, 'APPROVED']);
    expect(await walletBalance(app.db, playerId)).toBe(1000_00);
    expect(before - (await paidOut())).toBe(350_00);
    expect(await withdrawal(id)).toMatchObject({ status: 'FAILED', failure_reason: 'GATEWAY_PAYOUT_FAILED' });
    expect(await lineOf(id)).toBe('FAILED');
    expect((await decide(reviewId, 'approve')).json()).toEqual({ message: 'REVIEW_DECIDED' });
    expect(await walletBalance(app.db, playerId)).toBe(1000_00);
  });

  test('approve "paid after failed": the wallet gives the money up again; refused with nothing written when it no longer holds it', async () => {
    const a = await contradicted('PAYOUT_PAID_AFTER_FAIL', 400);
    const res = await decide(a.reviewId, 'approve', 'bank confirms it paid');
    expect([res.statusCode, res.json().status]).toEqual([200, 'APPROVED']);
    expect(await walletBalance(app.db, a.playerId)).toBe(600_00);
    expect((await withdrawal(a.id)).status).toBe('SUCCESS');
    expect(await lineOf(a.id)).toBe('SUCCESS');

    const b = await contradicted('PAYOUT_PAID_AFTER_FAIL', 400);
    await requestWithdrawal(app.wallet.withdrawDeps, b.playerId, 700_00); // spent before anyone noticed
    const short = await decide(b.reviewId, 'approve');
    expect([short.statusCode, short.json()]).toEqual([422, { message: 'MONEY_NOT_ENOUGH' }]);
    expect(await walletBalance(app.db, b.playerId)).toBe(300_00);
    expect((await withdrawal(b.id)).status).toBe('FAILED');
    expect((await reviewsOf(b.id))[0].status).toBe('OPEN');
  });

  test('reject: the gateway was wrong; no money moves and the player gets no statement line', async () => {
    const { id, playerId, reviewId } = await contradicted('PAYOUT_FAIL_AFTER_PAID', 150);
    const lines = await statementCount(playerId);
    const res = await decide(reviewId, 'reject', 'bank confirms it was paid');
    expect([res.statusCode, res.json().status]).toEqual([200, 'REJECTED']);
    expect(await walletBalance(app.db, playerId)).toBe(850_00);
    expect((await withdrawal(id)).status).toBe('SUCCESS');
    expect(await statementCount(playerId)).toBe(lines);
  });
});
