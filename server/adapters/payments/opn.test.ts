import { GatewayError, OpnGateway, signOpn, verifyOpnSignature } from '.';
import { OPN_DOC_CHARGE, startOpnFake, type OpnFake } from '../../test/support/fakes/opn-fake';
import { capturedLog } from '../../test/support/fakes/fake-server';

/** The Opn PromptPay adapter over real HTTP against its contract fake (docs/providers/opn.md). */
let fake: OpnFake;
beforeAll(async () => {
  fake = await startOpnFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const logger = capturedLog;
const gateway = (over: Partial<ConstructorParameters<typeof OpnGateway>[0]> = {}) =>
  new OpnGateway({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, baseUrl: fake.url, timeoutMs: 300, ...over });
const inFiveMinutes = () => new Date(Date.now() + 5 * 60_000);
const reason = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return (e as GatewayError).reason ?? String(e);
  }
  throw new Error('resolved');
};

test('createQr: POST /charges with Basic auth, satang, thb, a promptpay source and our reference -> their QR image, no payload', async () => {
  const expiresAt = inFiveMinutes();
  const qr = await gateway().createQr({ channel: 'E2P', reference: 'qr_a1', amountSatang: 15025, expiresAt }, { requestId: 'r-1' });
  expect(fake.requests).toHaveLength(1);
  const [req] = fake.requests;
  expect(Object.keys(req.body as object).sort()).toEqual(['amount', 'currency', 'metadata', 'source']);
  expect(req).toMatchObject({ method: 'POST', path: '/charges', body: { amount: 15025, currency: 'thb', source: { type: 'promptpay' }, metadata: { reference: 'qr_a1' } } });
  expect(req.headers).toMatchObject({ authorization: `Basic ${Buffer.from(`${fake.secretKey}:`).toString('base64')}`, 'idempotency-key': 'qr_a1', 'x-request-id': 'r-1' });
  const charge = fake.chargeFor('qr_a1')!;
  expect(qr).toEqual({ payload: '', imageUrl: (charge.source as typeof OPN_DOC_CHARGE.source).scannable_code.image.download_uri, expiresAt });
  expect(qr.imageUrl).toMatch(/\/downloads\//);
});

test('their earlier expiry shortens ours; a later one does not lengthen it', async () => {
  const mine = new Date(Date.now() + 10 * 60_000);
  const sooner = new Date(Date.now() + 60_000);
  const g = gateway({
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      const body = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, expires_at: sooner.toISOString() }), { status: res.status, headers: { 'content-type': 'application/json' } });
    },
  });
  expect((await g.createQr({ channel: 'E2P', reference: 'qr_e1', amountSatang: 5000, expiresAt: mine })).expiresAt).toEqual(sooner);
  const short = new Date(Date.now() + 30_000);
  expect((await g.createQr({ channel: 'E2P', reference: 'qr_e2', amountSatang: 5000, expiresAt: short })).expiresAt).toEqual(short);
});

test('WW is not a PromptPay QR: refused without calling Opn', async () => {
  expect(await reason(gateway().createQr({ channel: 'WW', reference: 'qr_w', amountSatang: 5000, expiresAt: inFiveMinutes() }))).toBe('CHANNEL_UNSUPPORTED');
  expect(fake.requests).toHaveLength(0);
});

test('each documented error of the create to our reason, with an error line naming the setting; no secret in any line', async () => {
  const { sink, lines } = logger();
  const g = gateway({ log: sink });
  const before = fake.charges.size;
  const req = (reference: string) => ({ channel: 'E2P' as const, reference, amountSatang: 5000, expiresAt: inFiveMinutes() });
  fake.failWith('authentication_failure', 'invalid_charge', 'bad_request', 'not_found');
  expect(await reason(g.createQr(req('q1')))).toBe('GATEWAY_AUTH');
  expect(await reason(g.createQr(req('q2')))).toBe('GATEWAY_REFUSED');
  expect(await reason(g.createQr(req('q3')))).toBe('GATEWAY_REFUSED');
  expect(await reason(g.createQr(req('q4')))).toBe('GATEWAY_REFUSED');
  expect(lines.some((l) => l.includes('check OPN_SECRET_KEY'))).toBe(true);
  // A wrong key is the fake's own authentication_failure.
  expect(await reason(gateway({ secretKey: 'skey_test_wrong' }).createQr(req('q5')))).toBe('GATEWAY_AUTH');
  // Below PromptPay's minimum the fake refuses as documented.
  expect(await reason(g.createQr({ ...req('q6'), amountSatang: 1000 }))).toBe('GATEWAY_REFUSED');
  const all = lines.join('\n');
  expect(all).not.toContain(fake.secretKey);
  expect(all).not.toContain(fake.webhookSecret);
  expect(all).not.toContain(Buffer.from(`${fake.secretKey}:`).toString('base64'));
  expect(fake.charges.size).toBe(before); // none of these made a charge
});

test('down (5xx) is GATEWAY_UNAVAILABLE after one create; the create is never resent', async () => {
  fake.mode = 'down';
  expect(await reason(gateway().createQr({ channel: 'E2P', reference: 'qr_d', amountSatang: 5000, expiresAt: inFiveMinutes() }))).toBe('GATEWAY_UNAVAILABLE');
  expect(fake.requests.filter((r) => r.path === '/charges')).toHaveLength(1);
});

test('a timeout on the create asks for the charge by our reference and never creates a second one', async () => {
  // The create reaches Opn and makes the charge, but its answer is lost.
  const g = gateway({
    fetch: async (url, init) => {
      const res = await fetch(url, { ...init, signal: undefined });
      const text = await res.text();
      if (String(url).endsWith('/charges') && init?.method === 'POST') throw Object.assign(new Error('timed out'), { name: 'TimeoutError' });
      return new Response(text, { status: res.status, headers: res.headers });
    },
  });
  const before = fake.creates();
  const qr = await g.createQr({ channel: 'E2P', reference: 'qr_t1', amountSatang: 7000, expiresAt: inFiveMinutes() });
  expect(fake.creates() - before).toBe(1);
  expect(qr.imageUrl).toBe((fake.chargeFor('qr_t1')!.source as typeof OPN_DOC_CHARGE.source).scannable_code.image.download_uri);
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /charges', 'GET /search']);
  // Nothing reached Opn at all (it never answers): no charge found, GATEWAY_TIMEOUT, still one create sent.
  fake.reset();
  fake.mode = 'timeout';
  expect(await reason(gateway().createQr({ channel: 'E2P', reference: 'qr_t2', amountSatang: 7000, expiresAt: inFiveMinutes() }))).toBe('GATEWAY_TIMEOUT');
  expect(fake.requests.filter((r) => r.path === '/charges')).toHaveLength(1);
  expect(fake.chargeFor('qr_t2')).toBeUndefined();
});

test('cancelQr expires the charge made for that reference (or the one the search finds)', async () => {
  const g = gateway();
  await g.createQr({ channel: 'E2P', reference: 'qr_c1', amountSatang: 5000, expiresAt: inFiveMinutes() });
  await g.cancelQr('qr_c1');
  expect(fake.chargeFor('qr_c1')).toMatchObject({ status: 'expired', expired: true });
  await g.createQr({ channel: 'E2P', reference: 'qr_c2', amountSatang: 5000, expiresAt: inFiveMinutes() });
  await gateway().cancelQr('qr_c2'); // another process: found by the search
  expect(fake.chargeFor('qr_c2')).toMatchObject({ status: 'expired' });
  await expect(gateway().cancelQr('qr_none')).resolves.toBeUndefined();
});

test('the signature: HMAC-SHA256 hex over "<timestamp>.<body>" with the base64-decoded secret; a rotation pair; stale refused', () => {
  const raw = Buffer.from('{"object":"event"}');
  const now = new Date();
  const ts = String(Math.floor(now.getTime() / 1000));
  const good = signOpn(raw, ts, fake.webhookSecret);
  expect(verifyOpnSignature(raw, good, ts, fake.webhookSecret, now)).toBe(true);
  expect(verifyOpnSignature(raw, `${'0'.repeat(64)},${good}`, ts, fake.webhookSecret, now)).toBe(true);
  expect(verifyOpnSignature(Buffer.from('{"object":"evenT"}'), good, ts, fake.webhookSecret, now)).toBe(false);
  expect(verifyOpnSignature(raw, good, ts, Buffer.from('other').toString('base64'), now)).toBe(false);
  expect(verifyOpnSignature(raw, undefined, ts, fake.webhookSecret, now)).toBe(false);
  expect(verifyOpnSignature(raw, good, ts, fake.webhookSecret, new Date(now.getTime() + 301_000))).toBe(false);
});

test('readWebhook: trusts only the charge fetched by id', async () => {
  const g = gateway();
  await g.createQr({ channel: 'E2P', reference: 'qr_w1', amountSatang: 5000, expiresAt: inFiveMinutes() });
  const charge = fake.chargeFor('qr_w1')!;
  const read = (event: unknown, sig?: string) => {
    const raw = Buffer.from(JSON.stringify(event));
    const ts = String(Math.floor(Date.now() / 1000));
    return g.readWebhook(raw, { 'omise-signature': sig ?? fake.sign(raw.toString(), ts), 'omise-signature-timestamp': ts });
  };
  // The event claims it is paid; Opn says pending: not paid.
  expect(await read({ ...fake.eventFor(charge.id), data: { ...charge, status: 'successful', paid: true } })).toEqual({ kind: 'ignored', outcome: 'NOT_PAID' });
  charge.status = 'successful';
  charge.paid = true;
  fake.requests.length = 0;
  expect(await read(fake.eventFor(charge.id))).toEqual({ kind: 'paid', paymentId: charge.id, reference: 'qr_w1', amountSatang: 5000 });
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /charges/${charge.id}`]);
  // The event's amount is not what is credited: Opn's is.
  expect(await read({ ...fake.eventFor(charge.id), data: { ...charge, amount: 999999 } })).toMatchObject({ amountSatang: 5000 });
  expect(await read(fake.eventFor(charge.id), '00')).toEqual({ kind: 'forged' });
  expect(await read(fake.eventFor('chrg_test_unknown0000000'))).toEqual({ kind: 'ignored', outcome: 'UNKNOWN_CHARGE' });
  expect(await read({ object: 'event', key: 'charge.create', data: charge })).toEqual({ kind: 'ignored', outcome: 'IGNORED' });
  fake.mode = 'timeout';
  expect(await read(fake.eventFor(charge.id))).toEqual({ kind: 'unavailable' });
});
