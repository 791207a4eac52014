import crypto, { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { hs256, JwtError, VERIFIED_TOKENS_KEPT } from './hs256';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const key = new TextEncoder().encode(SECRET);
const NOW = 1_800_000_000;

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(JwtError);
    return (e as JwtError).code;
  }
  return 'accepted';
};

describe('hs256', () => {
  const jwt = hs256(SECRET);

  test('reads what jose signs, and jose reads what it signs', async () => {
    const fromJose = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('42').setJti('j-1').setIssuedAt(NOW).setExpirationTime(NOW + 60).sign(key);
    expect(jwt.verify(fromJose, NOW)).toEqual({ sub: '42', jti: 'j-1', iat: NOW, exp: NOW + 60 });

    const ours = jwt.sign({ sub: '7', jti: 'j-2', iat: NOW, exp: NOW + 60 });
    const { payload } = await jwtVerify(ours, key, { algorithms: ['HS256'], currentDate: new Date(NOW * 1000) });
    expect(payload).toEqual({ sub: '7', jti: 'j-2', iat: NOW, exp: NOW + 60 });
  });

  test('a token is expired from its exp second on, as jose has it', () => {
    const token = jwt.sign({ sub: '1', jti: 'j', exp: NOW });
    expect(codeOf(() => jwt.verify(token, NOW - 1))).toBe('accepted');
    expect(codeOf(() => jwt.verify(token, NOW))).toBe('ERR_JWT_EXPIRED');
  });

  test('a token used before its nbf is refused', () => {
    const token = jwt.sign({ sub: '1', nbf: NOW + 10 });
    expect(codeOf(() => jwt.verify(token, NOW))).toBe('ERR_JWT_INVALID');
    expect(codeOf(() => jwt.verify(token, NOW + 10))).toBe('accepted');
  });

  test('another key, a changed payload, a changed or non-canonical signature are refused', () => {
    const token = jwt.sign({ sub: '1', jti: 'j', exp: NOW + 60 });
    const [h, p, s] = token.split('.');
    expect(codeOf(() => hs256(`${SECRET}x`).verify(token, NOW))).toBe('ERR_JWT_INVALID');
    const otherPayload = Buffer.from(JSON.stringify({ sub: '2', jti: 'j', exp: NOW + 60 })).toString('base64url');
    expect(codeOf(() => jwt.verify(`${h}.${otherPayload}.${s}`, NOW))).toBe('ERR_JWT_INVALID');
    expect(codeOf(() => jwt.verify(`${h}.${p}.${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`, NOW))).toBe('ERR_JWT_INVALID');
    // base64url of 32 bytes leaves 2 spare bits in its last character: a decoder may ignore them, the check may not.
    const last = s[s.length - 1];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(s.slice(0, -1) + sibling, 'base64url')).toEqual(Buffer.from(s, 'base64url'));
    expect(codeOf(() => jwt.verify(`${h}.${p}.${s.slice(0, -1)}${sibling}`, NOW))).toBe('ERR_JWT_INVALID');
    expect(codeOf(() => jwt.verify(`${token}=`, NOW))).toBe('ERR_JWT_INVALID');
    expect(codeOf(() => jwt.verify(`${h}.${p}`, NOW))).toBe('ERR_JWT_INVALID');
  });

  test('only HS256 is accepted, whatever else the header asks for', async () => {
    const hs512 = await new SignJWT({ sub: '1' }).setProtectedHeader({ alg: 'HS512' }).sign(key);
    expect(codeOf(() => jwt.verify(hs512, NOW))).toBe('ERR_JWT_INVALID');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}.`;
    expect(codeOf(() => jwt.verify(none, NOW))).toBe('ERR_JWT_INVALID');
    // Well signed with our key, but with a header we do not understand: refused.
    for (const header of ['{"alg":"HS256","crit":["x"],"x":1}', '{"alg":"HS256","b64":false}', '{"alg":"HS256"']) {
      const input = `${Buffer.from(header).toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}`;
      expect(codeOf(() => jwt.verify(`${input}.${createHmac('sha256', key).update(input).digest('base64url')}`, NOW))).toBe('ERR_JWT_INVALID');
    }
  });

  test('claims of the wrong type are refused', () => {
    for (const claims of [{ exp: '9999999999' }, { iat: 'x' }, { sub: 1 }, { jti: ['a'] }, { nbf: null }]) {
      expect(codeOf(() => jwt.verify(jwt.sign(claims as never), NOW))).toBe('ERR_JWT_INVALID');
    }
    const notObject = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('[1]').toString('base64url')}`;
    expect(codeOf(() => jwt.verify(`${notObject}.${createHmac('sha256', key).update(notObject).digest('base64url')}`, NOW))).toBe('ERR_JWT_INVALID');
  });

  describe('verified tokens are kept', () => {
    afterEach(() => jest.restoreAllMocks());

    test('a token seen before costs no HMAC, and its times are checked on every use', () => {
      const own = hs256(SECRET);
      const token = own.sign({ sub: '5', jti: 'j-5', exp: NOW + 60 });
      const hmacs = jest.spyOn(crypto, 'createHmac');
      expect(own.verify(token, NOW)).toEqual({ sub: '5', jti: 'j-5', exp: NOW + 60 });
      expect(own.verify(token, NOW + 1)).toEqual({ sub: '5', jti: 'j-5', exp: NOW + 60 });
      expect(hmacs).toHaveBeenCalledTimes(1);
      expect(codeOf(() => own.verify(token, NOW + 60))).toBe('ERR_JWT_EXPIRED');
      expect(Object.isFrozen(own.verify(token, NOW))).toBe(true);
    });

    test('a refused token is not kept, and the oldest goes when the store is full', () => {
      const own = hs256(SECRET);
      const first = own.sign({ sub: '1', exp: NOW + 60 });
      const [h, p] = first.split('.');
      const forged = `${h}.${p}.${createHmac('sha256', 'another-key').update(`${h}.${p}`).digest('base64url')}`;
      expect(codeOf(() => own.verify(forged, NOW))).toBe('ERR_JWT_INVALID');
      expect(codeOf(() => own.verify(forged, NOW))).toBe('ERR_JWT_INVALID');
      own.verify(first, NOW);
      for (let i = 0; i < VERIFIED_TOKENS_KEPT; i++) own.verify(own.sign({ sub: String(i), jti: 'filler', exp: NOW + 60 }), NOW);
      const hmacs = jest.spyOn(crypto, 'createHmac');
      own.verify(first, NOW);
      expect(hmacs).toHaveBeenCalledTimes(1);
    });
  });
});

