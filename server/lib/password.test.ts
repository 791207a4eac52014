import { hashPassword, needsRehash, verifyPassword } from './password';

test('a hash verifies its own password and no other', async () => {
  const h = await hashPassword('demo1234');
  expect(h).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
  expect(h).not.toContain('demo1234');
  await expect(verifyPassword('demo1234', h)).resolves.toBe(true);
  await expect(verifyPassword('demo1235', h)).resolves.toBe(false);
  await expect(verifyPassword('', h)).resolves.toBe(false);
});

test('each hash has its own salt', async () => {
  const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
  expect(a).not.toBe(b);
  await expect(verifyPassword('same', b)).resolves.toBe(true);
});

test('a password verifies however the keyboard composed it (NFC)', async () => {
  const h = await hashPassword('cafe\u0301-ໄທ');
  await expect(verifyPassword('caf\u00e9-ໄທ', h)).resolves.toBe(true);
});

test('malformed or hostile stored values are rejected without throwing', async () => {
  const good = await hashPassword('pw123456');
  const parts = good.split('$');
  for (const bad of [
    '',
    'plain-text',
    'bcrypt$10$abc',
    ['scrypt', 2 ** 30, 8, 1, parts[4], parts[5]].join('$'), // absurd cost
    ['scrypt', 1000, 8, 1, parts[4], parts[5]].join('$'), // not a power of two
    ['scrypt', parts[1], parts[2], parts[3], parts[4], 'c2hvcnQ'].join('$'), // short key
  ]) {
    await expect(verifyPassword('pw123456', bad)).resolves.toBe(false);
  }
});

test('needsRehash flags weaker parameters', async () => {
  const h = await hashPassword('x');
  expect(needsRehash(h)).toBe(false);
  const weak = h.split('$');
  weak[1] = String(2 ** 14);
  expect(needsRehash(weak.join('$'))).toBe(true);
  expect(needsRehash('garbage')).toBe(true);
});
