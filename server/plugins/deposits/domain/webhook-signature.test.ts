import { signWebhook, verifyWebhookSignature } from './webhook-signature';

const body = Buffer.from('{"id":"evt_1","type":"qr.paid","reference":"q1","amount":100}');

test('a signature made with the secret over the raw body verifies', () => {
  const sig = signWebhook(body, 's3cret');
  expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(verifyWebhookSignature(body, sig, 's3cret')).toBe(true);
  expect(verifyWebhookSignature(body.toString(), sig.toUpperCase().replace('SHA256', 'sha256'), 's3cret')).toBe(true);
});

test('another secret, another body, or a malformed header does not verify', () => {
  const sig = signWebhook(body, 's3cret');
  expect(verifyWebhookSignature(body, sig, 'other')).toBe(false);
  // Re-serialised JSON with a space is a different body: the HMAC is over the exact bytes.
  expect(verifyWebhookSignature(Buffer.from(body.toString().replace(':', ': ')), sig, 's3cret')).toBe(false);
  for (const h of [undefined, '', 'sha256=', sig.slice(7), `sha1=${sig.slice(7)}`, `${sig}00`, ['a', 'b']]) {
    expect(verifyWebhookSignature(body, h as string | undefined, 's3cret')).toBe(false);
  }
});
