import crypto from 'node:crypto';

/**
 * Payment webhooks are signed by the gateway: header `X-Signature: sha256=<hex>` where hex is the
 * HMAC-SHA256 of the raw request body (the exact bytes, before any JSON parsing) with the shared secret.
 */
export const SIGNATURE_HEADER = 'x-signature';

export function signWebhook(rawBody: Buffer | string, secret: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of a received header against the body; any malformed header is simply false. */
export function verifyWebhookSignature(rawBody: Buffer | string, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!m) return false;
  const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(m[1], 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
