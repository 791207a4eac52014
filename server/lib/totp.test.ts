import { base32Decode, base32Encode, generateTotpSecret, hotp, otpauthUri, totpCode, totpStep, verifyTotp } from './totp';

/** RFC 6238 (appendix B) and RFC 4226 (appendix D) test vectors, base32 (RFC 4648 section 10), the window. */
const SHA1_KEY = Buffer.from('12345678901234567890', 'ascii');
const SHA256_KEY = Buffer.from('12345678901234567890123456789012', 'ascii');
const SHA512_KEY = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii');
const at = (seconds: number) => new Date(seconds * 1000);

describe('RFC 6238 test vectors (8 digits)', () => {
  const vectors: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  test.each(vectors)('T = %i s', (seconds, sha1, sha256, sha512) => {
    const step = totpStep(at(seconds));
    expect(hotp(SHA1_KEY, step, 8)).toBe(sha1);
    expect(hotp(SHA256_KEY, step, 8, 'sha256')).toBe(sha256);
    expect(hotp(SHA512_KEY, step, 8, 'sha512')).toBe(sha512);
  });
});

test('RFC 4226 HOTP vectors (6 digits, counters 0 to 9)', () => {
  const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
  expect(expected.map((_, counter) => hotp(SHA1_KEY, counter))).toEqual(expected);
});

test('base32: RFC 4648 vectors, round trips, and what people type', () => {
  const vectors: [string, string][] = [['', ''], ['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']];
  for (const [plain, encoded] of vectors) {
    expect(base32Encode(Buffer.from(plain))).toBe(encoded);
    expect(base32Decode(encoded).toString()).toBe(plain);
  }
  expect(base32Encode(SHA1_KEY)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  expect(base32Decode('gezd gnbv-gy3t qojq gezd gnbv gy3t qojq').equals(SHA1_KEY)).toBe(true);
  expect(base32Decode('MZXW6YQ=').toString()).toBe('foob');
  expect(() => base32Decode('MZXW1')).toThrow('not a base32 string');
});

test('the 6-digit code of a base32 secret is the RFC code cut to 6 digits', () => {
  expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', at(59))).toBe('287082');
  expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', at(1111111109))).toBe('081804');
});

test('generateTotpSecret: 20 random bytes in base32', () => {
  const secret = generateTotpSecret();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(base32Decode(secret)).toHaveLength(20);
  expect(generateTotpSecret()).not.toBe(secret);
});

test('verifyTotp accepts the previous, current and next step and answers which; nothing further, nothing malformed', () => {
  // A fixed secret and instant: the codes are fixed, so the checks below cannot pass or fail by chance.
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  const now = new Date('2026-11-26T12:00:10.000Z');
  const step = totpStep(now);
  const codeAt = (s: number) => totpCode(secret, at(s * 30));
  expect(new Set([-3, -2, -1, 0, 1, 2, 3].map((d) => codeAt(step + d))).size).toBe(7);
  for (const d of [-1, 0, 1]) expect(verifyTotp(secret, codeAt(step + d), now)).toBe(step + d);
  for (const d of [-3, -2, 2, 3]) expect(verifyTotp(secret, codeAt(step + d), now)).toBeNull();
  const right = codeAt(step);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
  expect(verifyTotp(secret, wrong, now)).toBeNull();
  for (const bad of ['', '12345', '1234567', 'abcdef', ` ${right.slice(1)}`, `${right} `]) expect(verifyTotp(secret, bad, now)).toBeNull();
  expect(verifyTotp(secret, right, new Date(now.getTime() + 5 * 60_000))).toBeNull();
});

test('otpauthUri names the issuer and account and carries the parameters', () => {
  const uri = otpauthUri('Player Wallet', 'anna@staff', 'JBSWY3DPEHPK3PXP');
  expect(uri).toBe('otpauth://totp/Player%20Wallet:anna%40staff?secret=JBSWY3DPEHPK3PXP&issuer=Player%20Wallet&algorithm=SHA1&digits=6&period=30');
  const u = new URL(uri);
  expect(u.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
});
