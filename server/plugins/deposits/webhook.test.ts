import { buildTestApp, type TestApp } from '../../test/support/helper';
import { requestWithdrawal } from '../wallet/withdrawals';
import { PayoutSimulator } from '../../adapters/payouts';
import { balanceOf, coinsOf, createPlayer, eventId, expectLedgerOk, signedEvent, type TestPlayer } from '../../test/support/deposits';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function liveQr(player: TestPlayer, amount: number, bank = 'KBANK'): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/api/qrcode/${bank}`, headers: player.headers, payload: { amount } });
  expect(res.statusCode).toBe(200);
  return res.json().qrcodeId;
}
const statements = (playerId: number) => t.app.db.selectFrom('statements').selectAll().where('player_id', '=', playerId).execute();
const qrStatus = async (id: string) => (await t.app.db.selectFrom('qr_deposits').select(['status', 'paid_amount']).where('id', '=', id).executeTakeFirstOrThrow()).status;

test('qr.paid credits the wallet once, writes the statement line and earns a coin', async () => {
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 150.25);
  const res = await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 150.25 }));
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ received: true, outcome: 'CREDITED' });
  expect(await balanceOf(t.app, p.id)).toBe(15025);
  expect(await coinsOf(t.app, p.id)).toBe(1);
  expect(await qrStatus(qr)).toBe('PAID');
  const lines = await statements(p.id);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ statement_type: 'deposit', status: 'SUCCESS', from_account: 'KBANK', to_account: 'WALLET', ref_id: `qr:${qr}` });
  expect(Number(lines[0].amount)).toBe(15025);
  // The QR is gone once paid.
  expect((await t.app.inject({ method: 'GET', url: '/api/qrcode/KBANK', headers: p.headers })).json().hasQrcode).toBe(false);
  await expectLedgerOk(t.app);
});

test('a deposit under the coin threshold earns no coin', async () => {
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 99.99);
  await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 99.99 }));
  expect(await balanceOf(t.app, p.id)).toBe(9999);
  expect(await coinsOf(t.app, p.id)).toBe(0);
});

test('a wrong, missing or malformed signature is 401 and changes nothing', async () => {
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 100);
  const body = { id: eventId(), type: 'qr.paid', reference: qr, amount: 100 };
  const forged = signedEvent(body, 'not-the-secret');
  const unsigned = { ...signedEvent(body), headers: { 'content-type': 'application/json' } };
  const tampered = { ...signedEvent(body), payload: JSON.stringify({ ...body, amount: 100000 }) };
  for (const req of [forged, unsigned, tampered]) {
    const res = await t.app.inject(req);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'UNAUTHORIZED' });
  }
  expect(await balanceOf(t.app, p.id)).toBe(0);
  expect(await qrStatus(qr)).toBe('LIVE');
  expect(await t.app.db.selectFrom('payment_events').select('id').where('id', '=', body.id).execute()).toHaveLength(0);
  // The genuine one still works afterwards.
  expect((await t.app.inject(signedEvent(body))).json().outcome).toBe('CREDITED');
});

test('the same event delivered 20 times at once credits once and every delivery gets the same 200', async () => {
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 500);
  const ev = signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 500 });
  const answers = await Promise.all(Array.from({ length: 20 }, () => t.app.inject(ev)));
  for (const a of answers) {
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ received: true, outcome: 'CREDITED' });
  }
  expect(await balanceOf(t.app, p.id)).toBe(50000);
  expect(await statements(p.id)).toHaveLength(1);
  expect(await coinsOf(t.app, p.id)).toBe(1);
  // And again later.
  expect((await t.app.inject(ev)).json()).toMatchObject({ outcome: 'CREDITED' });
  expect(await balanceOf(t.app, p.id)).toBe(50000);
  await expectLedgerOk(t.app);
});

test('different events for one QR (a gateway retrying with new ids) pay it once', async () => {
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 200);
  const answers = await Promise.all(Array.from({ length: 10 }, () => t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 200 }))));
  const outcomes = answers.map((a) => a.json().outcome).sort();
  expect(outcomes.filter((o) => o === 'CREDITED')).toHaveLength(1);
  expect(outcomes.filter((o) => o === 'QR_ALREADY_PAID')).toHaveLength(9);
  expect(await balanceOf(t.app, p.id)).toBe(20000);
});

test('an expired or cancelled QR is never credited', async () => {
  const p = await createPlayer(t.app);
  const cancelled = await liveQr(p, 100);
  await t.app.inject({ method: 'DELETE', url: `/api/qrcode/${cancelled}`, headers: p.headers });
  const late = await liveQr(p, 100);
  const real = t.app.clock.now;
  t.app.clock.now = () => new Date(Date.now() + 5 * 60_000 + 1);
  try {
    expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: late, amount: 100 }))).json().outcome).toBe('QR_EXPIRED');
  } finally {
    t.app.clock.now = real;
  }
  expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: cancelled, amount: 100 }))).json().outcome).toBe('QR_CANCELLED');
  // Replaced by a newer QR counts as cancelled too.
  const replaced = await liveQr(p, 100);
  await liveQr(p, 100, 'WW');
  expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: replaced, amount: 100 }))).json().outcome).toBe('QR_CANCELLED');
  expect(await balanceOf(t.app, p.id)).toBe(0);
  expect(await qrStatus(late)).toBe('EXPIRED');
  expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: 'qr_nope', amount: 100 }))).json().outcome).toBe('UNKNOWN_REFERENCE');
});

test('a paid amount that differs is recorded for review and not credited', async () => {
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 300);
  const res = await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 30 }));
  expect(res.json().outcome).toBe('AMOUNT_MISMATCH');
  const row = await t.app.db.selectFrom('qr_deposits').selectAll().where('id', '=', qr).executeTakeFirstOrThrow();
  expect(row.status).toBe('REVIEW');
  expect(Number(row.paid_amount)).toBe(3000);
  expect(await balanceOf(t.app, p.id)).toBe(0);
  // The right amount afterwards does not credit either: the QR was already paid once.
  expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 300 }))).json().outcome).toBe('QR_ALREADY_PAID');
  expect(await balanceOf(t.app, p.id)).toBe(0);
});

test('bodies that are not events are 400 even when signed', async () => {
  for (const body of ['not json', '[]', JSON.stringify({ id: 'x', type: 'refund', reference: 'r', amount: 1 }), JSON.stringify({ id: 'x', type: 'qr.paid', reference: 'r', amount: 1.234 }),
    // Amounts on the wire are JSON numbers: text that looks like one is not an amount.
    JSON.stringify({ id: 'x', type: 'qr.paid', reference: 'r', amount: '100' })]) {
    const res = await t.app.inject(signedEvent(body));
    expect(res.statusCode).toBe(400);
  }
});

test('payout.succeeded and payout.failed settle withdrawals through the wallet, once', async () => {
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 1000);
  await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 1000 }));
  const ok = await requestWithdrawal(t.app.wallet.withdrawDeps, p.id, 30000);
  const bad = await requestWithdrawal(t.app.wallet.withdrawDeps, p.id, 20000);
  expect(await balanceOf(t.app, p.id)).toBe(50000);
  const paid = signedEvent({ id: eventId(), type: 'payout.succeeded', reference: ok.withdrawalId, amount: 300 });
  const answers = await Promise.all(Array.from({ length: 5 }, () => t.app.inject(paid)));
  for (const a of answers) expect(a.json()).toMatchObject({ received: true, outcome: 'PAYOUT_SUCCESS' });
  const failed = await t.app.inject(signedEvent({ id: eventId(), type: 'payout.failed', reference: bad.withdrawalId, amount: 200 }));
  expect(failed.json().outcome).toBe('PAYOUT_FAILED');
  expect(await balanceOf(t.app, p.id)).toBe(70000); // the failed payout's 200 came back
  // A late contradicting result moves no money: it opens a review (backoffice/payouts-provider.test.ts).
  const late = await t.app.inject(signedEvent({ id: eventId(), type: 'payout.failed', reference: ok.withdrawalId, amount: 300 }));
  expect(late.json().outcome).toBe('PAYOUT_CONTRADICTED');
  expect(await balanceOf(t.app, p.id)).toBe(70000);
  expect((await t.app.inject(signedEvent({ id: eventId(), type: 'payout.succeeded', reference: 'nope', amount: 1 }))).json().outcome).toBe('UNKNOWN_REFERENCE');
  await expectLedgerOk(t.app);
});

test('the payout simulator reports its results through the signed webhook, like a real gateway', async () => {
  const sim = t.app.wallet.payouts;
  expect(sim).toBeInstanceOf(PayoutSimulator);
  const p = await createPlayer(t.app);
  const qr = await liveQr(p, 500);
  await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 500 }));
  const ok = await requestWithdrawal(t.app.wallet.withdrawDeps, p.id, 20000);
  const bad = await requestWithdrawal(t.app.wallet.withdrawDeps, p.id, 10000);
  await (sim as PayoutSimulator).settle(ok.withdrawalId, true);
  await (sim as PayoutSimulator).settle(bad.withdrawalId, false);
  const events = await t.app.db
    .selectFrom('payment_events')
    .select(['type', 'reference', 'amount', 'outcome'])
    .where('reference', 'in', [ok.withdrawalId, bad.withdrawalId])
    .orderBy('type', 'desc')
    .execute();
  expect(events.map((e) => [e.type, e.reference, Number(e.amount), e.outcome])).toEqual([
    ['payout.succeeded', ok.withdrawalId, 20000, 'PAYOUT_SUCCESS'],
    ['payout.failed', bad.withdrawalId, 10000, 'PAYOUT_FAILED'],
  ]);
  expect(await balanceOf(t.app, p.id)).toBe(30000); // 500 in, 200 paid out, the failed 100 came back
  await expectLedgerOk(t.app);
});
