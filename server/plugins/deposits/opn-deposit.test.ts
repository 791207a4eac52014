import type { TestApp } from '../../test/support/helper';
import { balanceOf, createPlayer, expectLedgerOk, type TestPlayer } from '../../test/support/deposits';
import type { OpnFake } from '../../test/support/fakes/opn-fake';
import { startOpnApp } from '../../test/support/opn-app';
import { circuitsOf } from '../../adapters/http';
import { OpnGateway } from '../../adapters/payments';
import { createDepositAdapters } from './adapters';

/**
 * The QR deposit journey through Opn Payments' contract fake (issue 45, docs/providers/opn.md): the app built as an
 * operator runs it (PAYMENT_GATEWAY=opn and its settings in the environment), listening, so that the fake's pay()
 * POSTs its signed charge.complete to /api/webhooks/opn over real HTTP, and the adapter calls the fake over real HTTP.
 */
let t: TestApp;
let fake: OpnFake;
let p: TestPlayer;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ t, fake, close: stop } = await startOpnApp());
  p = await createPlayer(t.app);
});
afterAll(() => stop());
beforeEach(() => fake.reset());

const create = (amount: unknown, player = p) => t.app.inject({ method: 'POST', url: '/api/qrcode/E2P', headers: player.headers, payload: { amount } });
const get = (player = p) => t.app.inject({ method: 'GET', url: '/api/qrcode/E2P', headers: player.headers });
const qrRow = (id: string) => t.app.db.selectFrom('qr_deposits').selectAll().where('id', '=', id).executeTakeFirst();
const reviews = (reference: string) => t.app.db.selectFrom('payment_reviews').selectAll().where('reference', '=', reference).execute();

test('create, pay, webhook: their QR image shown, the charge fetched by id, credited once; a duplicate event is harmless', async () => {
  const player = await createPlayer(t.app);
  const res = await create(150.25, player);
  expect(res.statusCode).toBe(200);
  const qr = res.json();
  const charge = fake.chargeFor(qr.qrcodeId)!;
  expect(charge).toMatchObject({ amount: 15025, metadata: { reference: qr.qrcodeId }, status: 'pending' });
  expect(qr).toMatchObject({ hasQrcode: true, bankCode: 'E2P', amount: 150.25, qrcode: null, payload: null, imageUrl: expect.stringContaining(`/charges/${charge.id}/documents/`) });
  expect((await get(player)).json()).toMatchObject({ qrcodeId: qr.qrcodeId, imageUrl: qr.imageUrl, payload: null });

  fake.requests.length = 0;
  const paid = await fake.pay(charge.id);
  expect(paid).toEqual({ status: 200, body: { received: true, id: `opn:${charge.id}`, outcome: 'CREDITED' } });
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /charges/${charge.id}`]);
  expect(await balanceOf(t.app, player.id)).toBe(15025);
  expect(await qrRow(qr.qrcodeId)).toMatchObject({ status: 'PAID' });

  // The same event again, and another event id naming the same charge: the first outcome, nothing more.
  expect(await fake.deliver(fake.eventFor(charge.id))).toMatchObject({ status: 200, body: { outcome: 'CREDITED' } });
  expect(await fake.deliver(fake.eventFor(charge.id, 'evnt_test_again0000000001'))).toMatchObject({ status: 200, body: { outcome: 'CREDITED' } });
  expect(await balanceOf(t.app, player.id)).toBe(15025);
  expect(await reviews(qr.qrcodeId)).toHaveLength(0);
  await expectLedgerOk(t.app);
});

test('forged: a bad signature, or a charge Opn does not know, credits nothing', async () => {
  const player = await createPlayer(t.app);
  const qr = (await create(100, player)).json();
  const charge = fake.chargeFor(qr.qrcodeId)!;
  // A forger claims the charge is paid, signing with another secret: refused unread.
  const forged = { ...fake.eventFor(charge.id), data: { ...charge, status: 'successful', paid: true } };
  expect((await fake.deliver(forged, { signature: 'ab'.repeat(32) })).status).toBe(401);
  // Signed (the secret leaked), claiming paid: Opn says pending, nothing credited.
  expect(await fake.deliver(forged)).toMatchObject({ status: 200, body: { outcome: 'NOT_PAID' } });
  // A charge Opn does not know, with our QR's reference in the body.
  const unknown = { ...fake.eventFor('chrg_test_forged000000000'), data: { ...charge, id: 'chrg_test_forged000000000', status: 'successful', paid: true } };
  expect(await fake.deliver(unknown)).toMatchObject({ status: 200, body: { outcome: 'UNKNOWN_CHARGE' } });
  // An old delivery replayed (timestamp 10 minutes ago) is refused too.
  expect((await fake.deliver(fake.eventFor(charge.id), { timestamp: String(Math.floor(Date.now() / 1000) - 600) })).status).toBe(401);
  expect(await balanceOf(t.app, player.id)).toBe(0);
  expect(await qrRow(qr.qrcodeId)).toMatchObject({ status: 'LIVE' });
});

test('Opn cannot be asked when the event comes: 503 and no credit; its next delivery credits', async () => {
  const player = await createPlayer(t.app);
  const qr = (await create(60, player)).json();
  const charge = fake.chargeFor(qr.qrcodeId)!;
  Object.assign(charge, { status: 'successful', paid: true });
  fake.mode = 'timeout';
  expect((await fake.deliver(fake.eventFor(charge.id))).status).toBe(503);
  expect(await balanceOf(t.app, player.id)).toBe(0);
  // The webhook's fetch of the charge is timed like the adapter's other calls, and counted as an error.
  expect(await t.app.metrics.registry.metrics()).toMatch(/wallet_provider_call_duration_seconds_count\{provider="payments",operation="readWebhook",outcome="error"\} [1-9]/);
  fake.reset();
  expect(await fake.deliver(fake.eventFor(charge.id))).toMatchObject({ status: 200, body: { outcome: 'CREDITED' } });
  expect(await balanceOf(t.app, player.id)).toBe(6000);
});

test('paid with another amount: not credited, the QR and the money go to review', async () => {
  const player = await createPlayer(t.app);
  const qr = (await create(100, player)).json();
  const charge = fake.chargeFor(qr.qrcodeId)!;
  expect(await fake.pay(charge.id, { amountSatang: 9000 })).toMatchObject({ status: 200, body: { outcome: 'AMOUNT_MISMATCH' } });
  expect(await balanceOf(t.app, player.id)).toBe(0);
  expect(await qrRow(qr.qrcodeId)).toMatchObject({ status: 'REVIEW', paid_amount: 9000 });
  expect(await reviews(qr.qrcodeId)).toMatchObject([{ kind: 'AMOUNT_MISMATCH', amount: 9000 }]);
});

test('a cancelled QR expires its charge at Opn', async () => {
  const player = await createPlayer(t.app);
  const qr = (await create(70, player)).json();
  expect((await t.app.inject({ method: 'DELETE', url: `/api/qrcode/${qr.qrcodeId}`, headers: player.headers })).statusCode).toBe(200);
  await new Promise((r) => setTimeout(r, 200)); // the expire is sent after the answer
  expect(fake.chargeFor(qr.qrcodeId)).toMatchObject({ status: 'expired' });
});

test('a timeout on the create: QR_FAIL, no QR, and one charge at Opn (never a second create)', async () => {
  const player = await createPlayer(t.app);
  const before = fake.creates();
  fake.mode = 'slow';
  fake.slowMs = 600; // over PAYMENT_GATEWAY_TIMEOUT_MS: the create arrives, its answer is too late
  const res = await create(80, player);
  expect([res.statusCode, res.json()]).toMatchObject([502, { hasQrcode: false, message: 'QR_FAIL' }]);
  await new Promise((r) => setTimeout(r, 800));
  expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/charges')).toHaveLength(1);
  expect(fake.creates() - before).toBe(1);
  expect((await get(player)).json()).toMatchObject({ hasQrcode: false });
});

test('Opn refusing the key: QR_FAIL; WW is not offered through Opn', async () => {
  fake.failWith('authentication_failure');
  expect([(await create(50)).statusCode, (await t.app.inject({ method: 'POST', url: '/api/qrcode/WW', headers: p.headers, payload: { amount: 150 } })).statusCode]).toEqual([502, 502]);
});

test('the breaker is registered and on /metrics', async () => {
  expect(circuitsOf(t.app).snapshot()).toMatchObject([{ provider: 'opn', state: 'closed' }]);
  expect(await t.app.metrics.registry.metrics()).toContain('wallet_provider_circuit_open{provider="opn"} 0');
});

describe('choosing the gateway', () => {
  const app = { config: { demo: false }, db: {}, metrics: undefined, log: { child: () => ({}) }, clock: { now: () => new Date() } } as unknown as Parameters<typeof createDepositAdapters>[0];
  const base = { SLIP_VERIFIER: 'simulator', GIFT_REDEEMER: 'simulator' };
  test('opn without its key or webhook secret refuses to start; an unknown one names the known ones', () => {
    expect(() => createDepositAdapters(app, { ...base, PAYMENT_GATEWAY: 'opn' }, {})).toThrow('OPN_SECRET_KEY is required with PAYMENT_GATEWAY=opn');
    expect(() => createDepositAdapters(app, { ...base, PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: 'skey_x' }, {})).toThrow('OPN_WEBHOOK_SECRET is required with PAYMENT_GATEWAY=opn');
    expect(() => createDepositAdapters(app, { ...base, PAYMENT_GATEWAY: 'gbprime' }, {})).toThrow('PAYMENT_GATEWAY "gbprime" is not available; known: simulator, opn');
    expect(() => createDepositAdapters(app, { ...base, PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: 'k', OPN_WEBHOOK_SECRET: 'c2VjcmV0', PAYMENT_GATEWAY_TIMEOUT_MS: '5' }, {})).toThrow('PAYMENT_GATEWAY_TIMEOUT_MS');
    expect(createDepositAdapters(app, { ...base, PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: 'k', OPN_WEBHOOK_SECRET: 'c2VjcmV0' }, {}).gateway).toBeInstanceOf(OpnGateway);
  });
});
