import { slipVerify } from 'promptparse/generate';
import { SlipOkVerifier, SLIPOK_ERRORS } from './slipok';
import { SLIPOK_DOC_ERRORS, SLIPOK_DOC_EXAMPLE, SLIPOK_DOC_PAYLOAD, startSlipOkFake, type SlipOkCode, type SlipOkFake } from '../../test/support/fakes/slipok-fake';
import { capturedLog } from '../../test/support/fakes/fake-server';

let fake: SlipOkFake;
beforeAll(async () => {
  fake = await startSlipOkFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const logger = capturedLog;
const verifier = (over: Partial<ConstructorParameters<typeof SlipOkVerifier>[0]> = {}) =>
  new SlipOkVerifier({ apiKey: fake.apiKey, branchId: fake.branchId, baseUrl: fake.url, backoffMs: 1, ...over });

const transfer = {
  transRef: '0151234ABCD5678',
  sendingBank: '004',
  amount: 0.1,
  at: '2026-11-25T10:00:00.000Z',
  sender: { bankShort: 'KBANK', name: 'SOMCHAI JAIDEE', account: '7012345678' },
  receiver: { bankCode: '014', bankShort: 'SCB', name: 'DEMO OPERATOR CO LTD', account: '4021234567', promptPayId: null },
};
const payload = slipVerify({ sendingBank: transfer.sendingBank, transRef: transfer.transRef });
const query = { sendingBank: '004', transRef: transfer.transRef, payload };

test('the documented example maps to a verified transfer: satang, masked accounts, the timestamp', async () => {
  const ex = SLIPOK_DOC_EXAMPLE.data;
  const res = await verifier().verify({ sendingBank: '004', transRef: ex.transRef, payload: SLIPOK_DOC_PAYLOAD }, { requestId: 'r-1' });
  expect(res).toEqual({
    ok: true,
    transfer: {
      transRef: '010092101507665143',
      amountSatang: 100000,
      sender: { bankCode: '004', accountNo: 'xxx-x-x1234-x', accountName: 'Mr. Kasikorn R' },
      receiver: { bankCode: '006', accountNo: 'xxx-x-x9876-x', promptPayId: null, accountName: 'EXAMPLE CO' },
      transferredAt: new Date('2020-04-01T03:15:07.000Z'),
    },
  });
  // The documented request: POST /api/line/apikey/<branch>, x-authorization, {data}; neither log nor amount sent.
  expect(fake.requests).toMatchObject([{ method: 'POST', path: `/api/line/apikey/${fake.branchId}`, body: { data: SLIPOK_DOC_PAYLOAD } }]);
  expect(Object.keys(fake.requests[0].body as object)).toEqual(['data']);
  expect(fake.requests[0].headers).toMatchObject({ 'x-authorization': fake.apiKey, 'x-request-id': 'r-1', 'content-type': 'application/json' });
});

test('a registered transfer: 0.1 baht is 10 satang exactly; a sending bank other than the mini-QR is BANK_MISMATCH', async () => {
  fake.add(payload, transfer);
  expect(await verifier().verify(query)).toEqual({
    ok: true,
    transfer: {
      transRef: transfer.transRef,
      amountSatang: 10,
      sender: { bankCode: '004', accountNo: 'xxx-x-x4567-x', accountName: 'SOMCHAI JAIDEE' },
      receiver: { bankCode: '014', accountNo: 'xxx-x-x3456-x', promptPayId: null, accountName: 'DEMO OPERATOR CO LTD' },
      transferredAt: new Date(transfer.at),
    },
  });
  expect(await verifier().verify({ ...query, sendingBank: '014' })).toEqual({ ok: false, reason: 'BANK_MISMATCH' });
});

test.each(Object.keys(SLIPOK_DOC_ERRORS).map(Number) as SlipOkCode[])('documented code %s maps to its reason', async (code) => {
  fake.add(payload, transfer);
  fake.failWith(code);
  const { sink, lines } = logger();
  const res = await verifier({ log: sink }).verify(query);
  // 1012-1014 answer options we never send; they carry the slip's data, which is still the bank's answer.
  const expected = SLIPOK_ERRORS[String(code)].withData ? 'ok' : SLIPOK_ERRORS[String(code)].reason;
  expect(res.ok ? 'ok' : res.reason).toBe(expected);
  if (SLIPOK_ERRORS[String(code)].operator) expect(lines.some((l) => l.includes('SlipOK refused our account'))).toBe(true);
});

test('an unknown transfer, a QR that is not a slip, a wrong key or branch', async () => {
  expect(await verifier().verify({ ...query, transRef: 'NOPE1234', payload: slipVerify({ sendingBank: '004', transRef: 'NOPE1234' }) })).toEqual({ ok: false, reason: 'TRANSACTION_NOT_FOUND' });
  expect(await verifier().verify({ ...query, payload: 'hello' })).toEqual({ ok: false, reason: 'TRANSACTION_NOT_FOUND' });
  expect(await verifier({ apiKey: 'WRONGKEYWRONGKEY' }).verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect(await verifier({ branchId: '999' }).verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
});

test('a timeout is retried once, then SERVICE_UNAVAILABLE; a slow answer within the timeout is fine', async () => {
  fake.add(payload, transfer);
  fake.mode = 'timeout';
  const started = Date.now();
  expect(await verifier({ timeoutMs: 150 }).verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect(fake.requests).toHaveLength(2);
  expect(Date.now() - started).toBeLessThan(1_000);
  fake.mode = 'slow';
  fake.slowMs = 50;
  expect((await verifier({ timeoutMs: 1_000 }).verify(query)).ok).toBe(true);
});

test('after repeated outages the breaker opens and refuses fast, without calling SlipOK', async () => {
  fake.add(payload, transfer);
  fake.mode = 'down';
  const v = verifier({ retries: 0, breaker: { failureThreshold: 3, coolDownMs: 60_000 } });
  for (let i = 0; i < 3; i++) expect(await v.verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect(v.http.breaker.state).toBe('open');
  fake.reset();
  const started = Date.now();
  expect(await v.verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect(Date.now() - started).toBeLessThan(50);
  expect(fake.requests).toHaveLength(0);
});

test('the API key is never in a log line; names and accounts are masked there', async () => {
  fake.add(payload, transfer);
  const { sink, lines } = logger();
  await verifier({ log: sink }).verify(query, { requestId: 'r-2' });
  await verifier({ log: sink, apiKey: `${fake.apiKey}X` }).verify(query);
  const all = lines.join('\n');
  expect(lines.length).toBeGreaterThanOrEqual(3);
  expect(all).not.toContain(fake.apiKey);
  expect(all).not.toContain('SOMCHAI');
  expect(all).not.toContain('DEMO OPERATOR');
  expect(all).toContain('"reqId":"r-2"');
});
