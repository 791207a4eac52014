import crypto from 'node:crypto';
import { isSealed, openSecret, sealSecret, SecretBoxError, secretKeyFrom } from './secret-box';

/** Issue 11: game account passwords are kept encrypted (AES-256-GCM) and opened only to show their owner. */
const key = crypto.randomBytes(32);

test('a sealed value opens to the same text, and is not that text', () => {
  for (const plain of ['Xy7-pQ2mZk', '', 'รหัสผ่าน ລະຫັດ 🎰', JSON.stringify({ formState: { username: 'pw1', password: 'a' } })]) {
    const sealed = sealSecret(key, plain);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    if (plain) expect(sealed).not.toContain(plain);
    expect(isSealed(sealed)).toBe(true);
    expect(openSecret(key, sealed)).toBe(plain);
  }
});

test('every seal draws a new IV: the same text never gives the same value', () => {
  const values = new Set(Array.from({ length: 50 }, () => sealSecret(key, 'same-password')));
  expect(values.size).toBe(50);
  const ivs = new Set([...values].map((v) => Buffer.from(v.slice(3), 'base64url').subarray(0, 12).toString('hex')));
  expect(ivs.size).toBe(50);
});

test('another key is refused', () => {
  const sealed = sealSecret(key, 'Xy7-pQ2mZk');
  expect(() => openSecret(crypto.randomBytes(32), sealed)).toThrow(SecretBoxError);
});

test('any altered byte (IV, tag or ciphertext) is refused', () => {
  const raw = Buffer.from(sealSecret(key, 'Xy7-pQ2mZk').slice(3), 'base64url');
  for (let i = 0; i < raw.length; i++) {
    const bad = Buffer.from(raw);
    bad[i] ^= 0x01;
    expect(() => openSecret(key, `v1:${bad.toString('base64url')}`)).toThrow(SecretBoxError);
  }
});

test('a value that is not a sealed one (plaintext, unknown version, truncated) is refused, not returned', () => {
  const sealed = sealSecret(key, 'Xy7-pQ2mZk');
  for (const v of ['Xy7-pQ2mZk', `v2:${sealed.slice(3)}`, sealed.slice(0, 20), 'v1:', 'v1:!!!!']) {
    expect(() => openSecret(key, v)).toThrow(SecretBoxError);
  }
  for (const v of ['Xy7-pQ2mZk', `v2:${sealed.slice(3)}`, 'v1:', 'v1:short']) expect(isSealed(v)).toBe(false);
});

test('keys: a base64 32-byte key is used as is; a passphrase of 32+ characters is stretched; shorter is refused', () => {
  const raw = crypto.randomBytes(32);
  expect(secretKeyFrom(raw.toString('base64'))).toEqual(raw);
  expect(secretKeyFrom(raw.toString('base64url'))).toEqual(raw);
  const phrase = 'a long operator passphrase of 32+ chars';
  const k = secretKeyFrom(phrase);
  expect(k).toHaveLength(32);
  expect(secretKeyFrom(phrase)).toEqual(k);
  expect(k).not.toEqual(Buffer.from(phrase).subarray(0, 32));
  expect(secretKeyFrom('x'.repeat(31))).toBeNull();
  expect(secretKeyFrom('')).toBeNull();
});
