import { buildTestApp, type TestApp } from '../../test/support/helper';
import { balanceOf, createPlayer, expectLedgerOk } from '../../test/support/deposits';
import type { OpnFake } from '../../test/support/fakes/opn-fake';
import { startOpnApp } from '../../test/support/opn-app';
import { createDepositAdapters } from './adapters';

/**
 * Issue 45's follow-up (docs/providers/opn.md "The poll"): a QR paid at Opn whose webhook never reached us is found by
 * the gateway-payments job, which asks Opn for the charge of our reference and credits it through the webhook's own
 * path, once, whatever the webhook does later. The app runs as an operator's would (PAYMENT_GATEWAY=opn in the
 * environment), listening, so the fake's deliveries reach /api/webhooks/opn over real HTTP.
 */
let t: TestApp;
let fake: OpnFake;
let offset = 0;
/** Moves the app's clock (the QRs' times are written with it). */
const advance = (ms: number) => {
  offset += ms;
  t.app.clock.now = () => new Date(Date.now() + offset);
};
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ t, fake, close: stop } = await startOpnApp());
});
afterAll(() => stop());
beforeEach(() => fake.reset());
afterEach(() => jest.restoreAllMocks());

const poll = () => t.app.gatewayPayments!.runNow();
const qrRow = (id: string) => t.app.db.selectFrom('qr_deposits').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const reviews = (reference: string) => t.app.db.selectFrom('payment_reviews').selectAll().where('reference', '=', reference).execute();
async function newQr(amount: number) {
  const player = await createPlayer(t.app);
  const res = await t.app.inject({ method: 'POST', url: '/api/qrcode/E2P', headers: player.headers, payload: { amount } });
  expect(res.statusCode).toBe(200);
  const qrcodeId = res.json().qrcodeId as string;
  return { player, qrcodeId, charge: fake.chargeFor(qrcodeId)! };
}

test('the job runs under the gateway-payments lease; a QR paid without a webhook is credited by a pass, once; a second pass and then the webhook change nothing', async () => {
  const lease = await t.app.db.selectFrom('job_leases').selectAll().where('name', '=', 'gateway-payments').executeTakeFirst();
  expect(lease?.expires_at && lease.expires_at > new Date().toISOString()).toBe(true);

  const { player, qrcodeId, charge } = await newQr(120.5);
  fake.markPaid(charge.id);
  // Under a minute old: left to its webhook.
  expect(await poll()).toMatchObject({ asked: 0, credited: 0 });
  expect(await balanceOf(t.app, player.id)).toBe(0);

  advance(61_000);
  const warn = jest.spyOn(t.app.log, 'warn');
  fake.requests.length = 0;
  expect(await poll()).toEqual({ asked: 1, applied: 1, credited: 1, unavailable: false });
  expect(fake.requests.map((r) => `${r.method} ${r.path} ${r.query.query ?? ''}`)).toEqual([`GET /search ${qrcodeId}`]);
  expect(await balanceOf(t.app, player.id)).toBe(12050);
  expect(await qrRow(qrcodeId)).toMatchObject({ status: 'PAID', paid_amount: 12050, paid_event_id: `opn:${charge.id}` });
  const credited = warn.mock.calls.filter(([, msg]) => msg === 'credited by poll: the webhook did not arrive');
  expect(credited).toEqual([[expect.objectContaining({ job: 'gateway-payments', reference: qrcodeId, eventId: `opn:${charge.id}`, outcome: 'CREDITED' }), 'credited by poll: the webhook did not arrive']]);

  // The paid QR is not asked about again; Opn's late delivery answers the poll's outcome and credits nothing more.
  fake.requests.length = 0;
  expect(await poll()).toMatchObject({ asked: 0, credited: 0 });
  expect(fake.requests).toHaveLength(0);
  expect(await fake.deliver(fake.eventFor(charge.id))).toEqual({ status: 200, body: { received: true, id: `opn:${charge.id}`, outcome: 'CREDITED' } });
  expect(await balanceOf(t.app, player.id)).toBe(12050);
  expect(await reviews(qrcodeId)).toHaveLength(0);
  // The webhook's replay repeats the poll's body: no "repeated with another body" line.
  expect(warn.mock.calls.filter(([, msg]) => String(msg).includes('another body'))).toHaveLength(0);
  expect(warn.mock.calls.filter(([, msg]) => msg === 'credited by poll: the webhook did not arrive')).toHaveLength(1);
  await expectLedgerOk(t.app);
});

test('a webhook first, then a pass: credited once by the webhook, the pass asks nothing', async () => {
  const { player, qrcodeId, charge } = await newQr(140);
  expect(await fake.pay(charge.id)).toMatchObject({ status: 200, body: { outcome: 'CREDITED' } });
  advance(61_000);
  fake.requests.length = 0;
  expect(await poll()).toMatchObject({ credited: 0 });
  expect(fake.requests.filter((r) => r.query.query === qrcodeId)).toHaveLength(0);
  expect(await balanceOf(t.app, player.id)).toBe(14000);
  await expectLedgerOk(t.app);
});

test('a charge paid after its QR expired, found by a pass: not credited, the same late-payment review as a late webhook', async () => {
  const { player, qrcodeId, charge } = await newQr(90);
  advance(6 * 60_000); // past the QR's 5 minutes
  fake.markPaid(charge.id);
  expect(await poll()).toMatchObject({ applied: 1, credited: 0 });
  expect(await balanceOf(t.app, player.id)).toBe(0);
  expect(await qrRow(qrcodeId)).toMatchObject({ status: 'EXPIRED', paid_event_id: null });
  expect(await reviews(qrcodeId)).toMatchObject([{ kind: 'QR_EXPIRED', amount: 9000, event_id: `opn:${charge.id}` }]);
  // Not asked about again; the webhook arriving later answers the same outcome, one review.
  fake.requests.length = 0;
  await poll();
  expect(fake.requests.filter((r) => r.query.query === qrcodeId)).toHaveLength(0);
  expect(await fake.deliver(fake.eventFor(charge.id))).toMatchObject({ status: 200, body: { outcome: 'QR_EXPIRED' } });
  expect(await reviews(qrcodeId)).toHaveLength(1);
  expect(await balanceOf(t.app, player.id)).toBe(0);
  await expectLedgerOk(t.app);
});

test('Opn down: nothing credited, the pass stops at the first QR; the next pass credits', async () => {
  const { player, qrcodeId, charge } = await newQr(75);
  advance(61_000);
  fake.markPaid(charge.id);
  fake.mode = 'down';
  expect(await poll()).toMatchObject({ applied: 0, credited: 0, unavailable: true });
  expect(new Set(fake.requests.filter((r) => r.path === '/search').map((r) => r.query.query)).size).toBe(1);
  expect(await balanceOf(t.app, player.id)).toBe(0);
  expect(await qrRow(qrcodeId)).toMatchObject({ status: 'LIVE' });
  // Counted like the adapter's other calls: an error.
  expect(await t.app.metrics.registry.metrics()).toMatch(/wallet_provider_call_duration_seconds_count\{provider="payments",operation="paymentOf",outcome="error"\} [1-9]/);
  fake.reset();
  // The next pass may start after the QRs the last one asked: within two passes every QR is asked.
  const credited = (await poll()).credited + (await poll()).credited;
  expect(credited).toBe(1);
  expect(await balanceOf(t.app, player.id)).toBe(7500);
  expect(await qrRow(qrcodeId)).toMatchObject({ status: 'PAID' });
  await expectLedgerOk(t.app);
});

test('pending charges are left alone: asked about, nothing changes', async () => {
  const { player, qrcodeId } = await newQr(55);
  advance(61_000);
  fake.requests.length = 0;
  const report = await poll();
  expect(report).toMatchObject({ applied: 0, credited: 0, unavailable: false });
  expect(fake.requests.filter((r) => r.query.query === qrcodeId)).toHaveLength(1);
  expect(await qrRow(qrcodeId)).toMatchObject({ status: 'LIVE', paid_event_id: null });
  expect(await t.app.db.selectFrom('payment_events').select('id').where('reference', '=', qrcodeId).execute()).toEqual([]);
  expect(await balanceOf(t.app, player.id)).toBe(0);
});

test('a pass asks at most 50 QRs, oldest first; the next goes on after them', async () => {
  const made: string[] = [];
  for (let i = 0; i < 52; i++) {
    made.push((await newQr(130)).qrcodeId);
    advance(1000);
  }
  advance(61_000);
  const asked = async () => {
    fake.requests.length = 0;
    const r = await poll();
    return { r, refs: fake.requests.map((q) => q.query.query as string) };
  };
  // Cycle until a pass starts from the oldest (the earlier tests' QRs are candidates too), then follow the order.
  let pass = await asked();
  for (let i = 0; i < 5 && pass.refs.length === 50; i++) pass = await asked();
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    pass = await asked();
    expect(pass.r.asked).toBeLessThanOrEqual(50);
    seen.push(...pass.refs);
  }
  const order = made.filter((id) => seen.includes(id));
  expect(order).toEqual(made); // every one asked within the passes
  const firstIdx = made.map((id) => seen.indexOf(id));
  expect([...firstIdx].sort((a, b) => a - b)).toEqual(firstIdx); // oldest first
});

describe('without a gateway to poll', () => {
  test('with the simulator gateway there is no job: no poll, no lease', async () => {
    process.env.PAYMENT_GATEWAY = 'simulator';
    const sim = await buildTestApp().finally(() => {
      process.env.PAYMENT_GATEWAY = 'opn';
    });
    try {
      expect(sim.app.gatewayPayments).toBeNull();
      expect(await sim.app.db.selectFrom('job_leases').selectAll().where('name', '=', 'gateway-payments').execute()).toEqual([]);
      expect(await sim.app.metrics.registry.metrics()).not.toContain('job="gateway-payments"');
    } finally {
      await sim.close();
    }
  });

  test('GATEWAY_POLL_MS: 60 s by default, 0 turns it off, anything else outside 5 s - 1 h refuses the start', () => {
    const app = { config: { demo: false }, db: {}, metrics: undefined, log: { child: () => ({}) }, clock: { now: () => new Date() } } as unknown as Parameters<typeof createDepositAdapters>[0];
    const opn = { SLIP_VERIFIER: 'simulator', GIFT_REDEEMER: 'simulator', PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: 'k', OPN_WEBHOOK_SECRET: 'c2VjcmV0' };
    expect(createDepositAdapters(app, opn, {}).gatewayPoll).toEqual({ gateway: 'opn', everyMs: 60_000 });
    expect(createDepositAdapters(app, { ...opn, GATEWAY_POLL_MS: '0' }, {}).gatewayPoll).toEqual({ gateway: 'opn', everyMs: 0 });
    expect(createDepositAdapters(app, { ...opn, GATEWAY_POLL_MS: '120000' }, {}).gatewayPoll).toEqual({ gateway: 'opn', everyMs: 120_000 });
    for (const bad of ['100', '-1', '1.5', 'soon', '7200000']) expect(() => createDepositAdapters(app, { ...opn, GATEWAY_POLL_MS: bad }, {})).toThrow('GATEWAY_POLL_MS');
    expect(createDepositAdapters(app, { ...opn, PAYMENT_GATEWAY: 'simulator', GATEWAY_POLL_MS: '0' }, {}).gatewayPoll).toBeNull();
  });
});
