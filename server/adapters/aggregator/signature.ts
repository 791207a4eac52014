import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs';

/**
 * Hub88's request signing (its "Request signing" page): the raw body, signed with RSA-SHA256 (PKCS#1 v1.5) by the
 * sender's private key, base64 in the X-Hub88-Signature header; the receiver verifies with the sender's public key.
 * Answers are signed the same way with our key.
 */
export function signBody(body: string | Buffer, privateKey: KeyObject): string {
  return crypto.sign('sha256', typeof body === 'string' ? Buffer.from(body) : body, privateKey).toString('base64');
}

/**
 * signBody on libuv's thread pool (crypto.sign with a callback): an RSA signature is ~0.23 ms of CPU, a quarter of a
 * seamless callback's main-thread time, and the main thread is what limits the Wallet API's rate (docs/seamless-wallet.md
 * "Cost of a call"). Same bytes, same signature.
 */
export function signBodyAsync(body: string | Buffer, privateKey: KeyObject): Promise<string> {
  const data = typeof body === 'string' ? Buffer.from(body) : body;
  return new Promise((resolve, reject) => {
    crypto.sign('sha256', data, privateKey, (err, sig) => (err ? reject(err) : resolve(sig.toString('base64'))));
  });
}

export function verifyBody(body: string | Buffer, signature: string | undefined, publicKey: KeyObject): boolean {
  if (!signature || signature.length > 2048) return false;
  const sig = Buffer.from(signature, 'base64');
  if (!sig.length) return false;
  try {
    return crypto.verify('sha256', typeof body === 'string' ? Buffer.from(body) : body, publicKey, sig);
  } catch {
    return false;
  }
}

/** A key from PEM text, or from the file a path names (an operator keeps keys in files, docs/seamless-wallet.md). */
export function keyFromPem(pemOrPath: string, kind: 'private' | 'public'): KeyObject {
  const text = pemOrPath.includes('-----BEGIN') ? pemOrPath : fs.readFileSync(pemOrPath, 'utf8');
  return kind === 'private' ? crypto.createPrivateKey(text) : crypto.createPublicKey(text);
}
