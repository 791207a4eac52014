import { slipVerify } from 'promptparse/generate';
import { EasySlipVerifier, EASYSLIP_ERRORS } from './easyslip';
import { EASYSLIP_DOC_ERRORS, EASYSLIP_DOC_EXAMPLE, startEasySlipFake, type EasySlipError, type EasySlipFake } from '../../test/support/fakes/easyslip-fake';
import { capturedLog } from '../../test/support/fakes/fake-server';

let fake: EasySlipFake;
beforeAll(async () => {
  fake = await startEasySlipFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const logger = capturedLog;
const verifier = (over: Partial<ConstructorParameters<typeof EasySlipVerifier>[0]> = {}) => new EasySlipVerifier({ apiKey: fake.apiKey, baseUrl: fake.url, backoffMs: 1, ...over });

const transfer = {
  transRef: '0151234ABCD5678',
  sendingBank: '004',
  amount: 1234.56,
  at: '2026-11-25T10:00:00.000Z',
  sender: { bankShort: 'KBANK', name: 'SOMCHAI JAIDEE', account: '7012345678' },
  receiver: { bankCode: '014', bankShort: 'SCB', name: 'DEMO OPERATOR CO LTD', account: null, promptPayId: '0812345678' },
};
const payload = slipVerify({ sendingBank: transfer.sendingBank, transRef: transfer.transRef });
const query = { sendingBank: '004', transRef: transfer.transRef, payload };

test('the documented example answer maps to a verified transfer: exact satang, masked accounts, the date', async () => {
  const ex = EASYSLIP_DOC_EXAMPLE.data;
  const res = await verifier().verify({ sendingBank: '004', transRef: ex.transRef, payload: ex.payload }, { requestId: 'r-1' });
  expect(res).toEqual({
    ok: true,
    transfer: {
      transRef: '68370160657749I376388B35',
      amountSatang: 100000,
      sender: { bankCode: 'KBANK', accountNo: '1234xxxx5678', accountName: 'MR. EASY SLIP' },
      receiver: { bankCode: 'GSB', accountNo: '12xxxx3456', promptPayId: '123xxxxxxxx4567', accountName: 'MR. EASY SLIP' },
      transferredAt: new Date('2022-12-31T17:00:00Z'),
    },
  });
  // The documented request: GET /verify?payload=..., Bearer key, our request id; nothing else asked (no checkDuplicate).
  expect(fake.requests).toMatchObject([{ method: 'GET', path: '/verify', query: { payload: ex.payload } }]);
  expect(Object.keys(fake.requests[0].query)).toEqual(['payload']);
  expect(fake.requests[0].headers).toMatchObject({ authorization: `Bearer ${fake.apiKey}`, 'x-request-id': 'r-1' });
});

test('a registered transfer: satang from baht exactly, the PromptPay receiver masked as the bank shows it', async () => {
  fake.add(payload, transfer);
  const res = await verifier().verify(query);
  expect(res).toEqual({
    ok: true,
    transfer: {
      transRef: transfer.transRef,
      amountSatang: 123456,
      sender: { bankCode: 'KBANK', accountNo: 'xxx-x-x4567-x', accountName: 'SOMCHAI JAIDEE' },
      receiver: { bankCode: 'SCB', accountNo: null, promptPayId: 'xxx-xxx-5678', accountName: 'DEMO OPERATOR CO LTD' },
      transferredAt: new Date(transfer.at),
    },
  });
});

test.each(Object.keys(EASYSLIP_DOC_ERRORS) as EasySlipError[])('documented error %s maps to its reason', async (message) => {
  fake.add(payload, transfer);
  fake.failWith(message, message); // twice: a 5xx is retried once (the second is left unused otherwise)
  const { sink, lines } = logger();
  const res = await verifier({ log: sink }).verify(query);
  const expected = message === 'duplicate_slip' ? 'ok' : EASYSLIP_ERRORS[message].reason;
  // duplicate_slip carries the slip's data: still the bank's answer, our own reference claim decides duplicates.
  expect(res.ok ? 'ok' : res.reason).toBe(expected);
  if (EASYSLIP_ERRORS[message].operator) expect(lines.some((l) => l.includes('EasySlip refused our account'))).toBe(true);
});

test('an unknown slip, a payload that is not a slip, a wrong key', async () => {
  expect(await verifier().verify({ ...query, transRef: 'NOPE1234', payload: slipVerify({ sendingBank: '004', transRef: 'NOPE1234' }) })).toEqual({ ok: false, reason: 'TRANSACTION_NOT_FOUND' });
  expect(await verifier().verify({ ...query, payload: 'hello' })).toEqual({ ok: false, reason: 'TRANSACTION_NOT_FOUND' });
  expect(await verifier({ apiKey: 'wrong-key-wrong-key' }).verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
});

test('an answer about another reference is not this transfer; without the payload nothing is asked', async () => {
  fake.add(payload, transfer);
  expect(await verifier().verify({ ...query, transRef: 'OTHER0001' })).toEqual({ ok: false, reason: 'TRANSACTION_NOT_FOUND' });
  fake.requests.length = 0;
  expect(await verifier().verify({ sendingBank: '004', transRef: transfer.transRef })).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect(fake.requests).toHaveLength(0);
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

test('after repeated outages the breaker opens and refuses fast, without calling EasySlip', async () => {
  fake.add(payload, transfer);
  fake.mode = 'down';
  const v = verifier({ retries: 0, breaker: { failureThreshold: 3, coolDownMs: 60_000 } });
  for (let i = 0; i < 3; i++) expect(await v.verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect(v.http.breaker.state).toBe('open');
  fake.mode = 'ok';
  fake.requests.length = 0;
  const started = Date.now();
  expect(await v.verify(query)).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect(Date.now() - started).toBeLessThan(50);
  expect(fake.requests).toHaveLength(0);
});

test('the API key is never in a log line; accounts and names are masked there', async () => {
  fake.add(payload, transfer);
  const { sink, lines } = logger();
  await verifier({ log: sink }).verify(query, { requestId: 'r-2' });
  fake.failWith('unauthorized');
  await verifier({ log: sink }).verify(query);
  const all = lines.join('\n');
  expect(lines.length).toBeGreaterThanOrEqual(3);
  expect(all).not.toContain(fake.apiKey);
  expect(all).not.toContain('SOMCHAI');
  expect(all).not.toContain('DEMO OPERATOR');
  expect(all).toContain('"reqId":"r-2"');
});
