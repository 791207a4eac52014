import { keyFromPem, signBody, signBodyAsync, verifyBody } from './signature';
import { SIM_OPERATOR_PRIVATE, SIM_OPERATOR_PUBLIC, SIM_AGGREGATOR_PUBLIC } from './sim-keys';

const ours = keyFromPem(SIM_OPERATOR_PRIVATE, 'private');
const ourPublic = keyFromPem(SIM_OPERATOR_PUBLIC, 'public');

test('the thread-pool signature is the same signature (RSA PKCS#1 v1.5 is deterministic) and verifies', async () => {
  const body = '{"user":"u000042","status":"RS_OK","request_uuid":"583c985f-fee6-4c0e-bbf5-308aad6265af","currency":"THB","balance":100000}';
  const async = await signBodyAsync(body, ours);
  expect(async).toBe(signBody(body, ours));
  expect(verifyBody(body, async, ourPublic)).toBe(true);
  expect(verifyBody(`${body} `, async, ourPublic)).toBe(false);
  expect(verifyBody(body, async, keyFromPem(SIM_AGGREGATOR_PUBLIC, 'public'))).toBe(false);
});

test('a missing, empty, oversized or non-base64 signature is refused, never thrown', () => {
  for (const sig of [undefined, '', 'x'.repeat(4096), '%%%']) expect(verifyBody('{}', sig, ourPublic)).toBe(false);
});
