import { buildTestApp, type TestApp } from '../../test/support/helper';
import { operatorSession } from '../../test/support/operator';
import { runOperator, USAGE } from '../../cli/operator-cli';
import { base32Decode, totpCode } from '../../lib/totp';
import { createStaff } from '../../test/support/staff';

/** `npm run operator -- staff ...` through the CLI's own entry, on the test app's database (docs/staff.md). */
jest.setTimeout(60_000);

let t: TestApp;
let env: Record<string, string | undefined> = {};
let prompt: ((q: string) => Promise<string>) | undefined;
let secretKey: Buffer | undefined;
const { run, out, err } = operatorSession(() => ({ db: t.db.db, config: t.app.config, env, prompt, secretKey }));

beforeAll(async () => {
  t = await buildTestApp();
});
beforeEach(() => {
  env = {};
  prompt = undefined;
  secretKey = t.app.config.gameSecretKey;
});
afterAll(() => t.close());

const login = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username, password } });
const staffRows = () => t.db.db.selectFrom('staff_users').select(['username', 'name', 'role', 'status']).orderBy('id').execute();

test('staff add takes the password from STAFF_PASSWORD; the new account logs in with it', async () => {
  env = { STAFF_PASSWORD: 'a-long-secret-1' };
  expect(await run('staff', 'add', 'Alice', '--name', '  Alice   Admin ', '--role', 'admin')).toBe(0);
  // Every new account gets its second factor at once: the sign-in asks for the code from the printed secret.
  expect(out[0]).toMatch(/^staff alice added \(id \d+, admin, with a second factor\): log in at \/staff$/);
  const res = await login('alice', 'a-long-secret-1');
  expect(res.statusCode).toBe(200);
  const { challenge } = res.json() as { totpRequired: boolean; challenge: string };
  expect(res.json()).toMatchObject({ totpRequired: true });
  const code = totpCode(printed(out).secret, t.app.clock.now());
  const signed = await t.app.inject({ method: 'POST', url: '/api/staff/login/totp', payload: { challenge, code } });
  expect(signed.statusCode).toBe(200);
  expect(signed.json().staff).toMatchObject({ username: 'alice', name: 'Alice Admin', role: 'admin' });
  const stored = await t.db.db.selectFrom('staff_users').select('password_hash').where('username', '=', 'alice').executeTakeFirstOrThrow();
  expect(stored.password_hash).toMatch(/^scrypt\$/);
});

test('a duplicate username is refused with one line, before any password is asked for', async () => {
  env = { STAFF_PASSWORD: 'another-secret-1' };
  await run('staff', 'add', 'bob', '--name=Bob', '--role=support');
  const asked: string[] = [];
  env = {};
  prompt = async (q) => {
    asked.push(q);
    return 'whatever-1234';
  };
  expect(await run('staff', 'add', 'BOB', '--name', 'Other Bob', '--role', 'payments')).toBe(1);
  expect(err).toEqual(['staff user bob already exists; nothing was written']);
  expect(asked).toEqual([]);
  expect((await staffRows()).filter((r) => r.username === 'bob')).toEqual([{ username: 'bob', name: 'Bob', role: 'support', status: 'active' }]);
});

test('two adds of one username at the same time: one is written, the other refused', async () => {
  const lines: string[] = [];
  const ctx = { db: t.db.db, config: t.app.config, secretKey: t.app.config.gameSecretKey, env: { STAFF_PASSWORD: 'racing-secret-1' }, out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const codes = await Promise.all([
    runOperator(['staff', 'add', 'race', '--name', 'One', '--role', 'support'], ctx),
    runOperator(['staff', 'add', 'race', '--name', 'Two', '--role', 'support'], ctx),
  ]);
  expect(codes.sort()).toEqual([0, 1]);
  expect(lines).toContain('staff user race already exists; nothing was written');
  expect((await staffRows()).filter((r) => r.username === 'race')).toHaveLength(1);
});

test('on a terminal the password is asked twice; a mismatch or a short one writes nothing', async () => {
  const answers = ['typed-secret-12', 'typed-secret-12'];
  const asked: string[] = [];
  prompt = async (q) => {
    asked.push(q);
    return answers.shift() as string;
  };
  expect(await run('staff', 'add', 'carol', '--name', 'Carol', '--role', 'payments')).toBe(0);
  expect(asked).toEqual(['Password for carol: ', 'The same password again: ']);
  expect((await login('carol', 'typed-secret-12')).json()).toMatchObject({ totpRequired: true });

  answers.push('typed-secret-12', 'typed-secret-13');
  expect(await run('staff', 'add', 'dave', '--name', 'Dave', '--role', 'support')).toBe(2);
  expect(err).toEqual(['the two passwords differ; nothing was written']);

  answers.push('short-1', 'short-1');
  expect(await run('staff', 'add', 'dave', '--name', 'Dave', '--role', 'support')).toBe(2);
  expect(err).toEqual(['the password needs 10 to 128 characters; nothing was written']);
  expect((await staffRows()).map((r) => r.username)).not.toContain('dave');
});

test('without STAFF_PASSWORD and off a terminal, or with bad input, nothing is written (exit 2)', async () => {
  expect(await run('staff', 'add', 'erin', '--name', 'Erin', '--role', 'support')).toBe(2);
  expect(err).toEqual(['no password: set STAFF_PASSWORD, or run the command on a terminal to type it']);
  env = { STAFF_PASSWORD: 'short' };
  expect(await run('staff', 'add', 'erin', '--name', 'Erin', '--role', 'support')).toBe(2);
  env = { STAFF_PASSWORD: 'long-enough-secret' };
  expect(await run('staff', 'add', 'erin', '--name', 'Erin', '--role', 'boss')).toBe(2);
  expect(err).toEqual(['--role is one of support, payments, admin']);
  expect(await run('staff', 'add', 'e', '--name', 'Erin', '--role', 'support')).toBe(2);
  expect(await run('staff', 'add', 'erin', '--name', '   ', '--role', 'support')).toBe(2);
  expect(await run('staff', 'add', 'erin', '--role', 'support')).toBe(2);
  expect(err.join('\n')).toContain('Usage: npm run operator');
  expect(await run('staff', 'add', 'erin', '--name', 'Erin', '--role', 'support', '--color', 'red')).toBe(2);
  expect(err[0]).toBe('unknown option --color');
  expect(await run('staff', 'add', 'erin', '--name')).toBe(2);
  expect((await staffRows()).map((r) => r.username)).not.toContain('erin');
});

test('staff list shows every account with its role and status', async () => {
  await createStaff(t.app, { username: 'frank', name: 'Frank F', role: 'payments' });
  expect(await run('staff', 'list')).toBe(0);
  expect(out).toContainEqual(expect.stringMatching(/^frank \(id \d+, Frank F\): payments, active, since \d{4}-\d\d-\d\dT/));
  expect(out.length).toBe((await staffRows()).length);
  expect(await run('staff')).toBe(0);
});

test('staff disable refuses the logins and ends every session at once; an unknown username is reported', async () => {
  const s = await createStaff(t.app, { username: 'gina' });
  await t.app.staffTokens.issue(s.id);
  expect(await run('staff', 'disable', 'Gina')).toBe(0);
  expect(out).toEqual(['staff gina: disabled, 2 sessions ended']);
  const me = await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: { authorization: `Bearer ${s.token}` } });
  expect([me.statusCode, me.json()]).toEqual([401, { message: 'invalid-token' }]);
  const open = await t.db.db.selectFrom('staff_sessions').select('id').where('staff_id', '=', s.id).where('revoked_at', 'is', null).execute();
  expect(open).toEqual([]);

  expect(await run('staff', 'disable', 'nobody')).toBe(1);
  expect(err).toEqual(['no staff user nobody']);
  expect(await run('staff', 'enable', 'gina')).toBe(0);
  expect(out).toEqual(['staff gina: active']);
});

test('the usage lists the staff commands', async () => {
  expect(USAGE).toContain('staff add <username> --name "<name>" --role support|payments|admin');
  expect(USAGE).toContain('its second\n                               factor is enrolled at once');
  expect(USAGE).toContain('staff totp <username>');
  expect(await run('staff', 'frobnicate')).toBe(2);
  expect(err).toEqual([USAGE]);
});

/** The secret and URI a totp command printed. */
function printed(lines: string[]): { secret: string; uri: URL } {
  const secret = /^TOTP secret \(base32\): ([A-Z2-7]{32})$/.exec(lines.find((l) => l.startsWith('TOTP secret')) ?? '')?.[1];
  const uri = /^otpauth URI: (otpauth:\/\/totp\/\S+)$/.exec(lines.find((l) => l.startsWith('otpauth URI')) ?? '')?.[1];
  if (!secret || !uri) throw new Error(`no enrolment printed: ${lines.join(' | ')}`);
  return { secret, uri: new URL(uri) };
}

async function signInWith(username: string, password: string, secret: string) {
  const first = await login(username, password);
  const { challenge } = first.json() as { challenge?: string };
  expect(challenge).toEqual(expect.any(String));
  return t.app.inject({ method: 'POST', url: '/api/staff/login/totp', payload: { challenge, code: totpCode(secret, t.app.clock.now()) } });
}

test('staff totp enrols a second factor: prints the secret and URI once, stores it sealed, ends the sessions; the next login needs a code', async () => {
  const s = await createStaff(t.app, { username: 'hanna' });
  expect(await run('staff', 'totp', 'HANNA')).toBe(0);
  expect(out[0]).toBe('staff hanna: second factor enrolled, 1 session ended');
  const { secret, uri } = printed(out);
  expect(base32Decode(secret)).toHaveLength(20);
  expect(uri.href.startsWith('otpauth://totp/Player%20Wallet%20Staff:hanna?')).toBe(true);
  expect(uri.searchParams.get('secret')).toBe(secret);
  const stored = await t.db.db.selectFrom('staff_users').select('totp_secret').where('id', '=', s.id).executeTakeFirstOrThrow();
  expect(stored.totp_secret).toMatch(/^v1:/);
  expect(stored.totp_secret).not.toContain(secret);
  const me = await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: { authorization: `Bearer ${s.token}` } });
  expect(me.statusCode).toBe(401);
  const res = await signInWith('hanna', 'staff-test-pass-1', secret);
  expect(res.statusCode).toBe(200);

  // A reset: a new secret; the old one no longer signs in.
  expect(await run('staff', 'totp', 'hanna')).toBe(0);
  const again = printed(out);
  expect(again.secret).not.toBe(secret);
  expect((await signInWith('hanna', 'staff-test-pass-1', secret)).json()).toEqual({ message: 'WRONG_TOTP' });
  expect((await signInWith('hanna', 'staff-test-pass-1', again.secret)).statusCode).toBe(200);

  expect(await run('staff', 'totp', 'nobody')).toBe(1);
  expect(err).toEqual(['no staff user nobody']);
});

test('staff add enrols the second factor at creation (--totp is still accepted); without a key to seal with, nothing is written', async () => {
  env = { STAFF_PASSWORD: 'ivan-secret-123' };
  expect(await run('staff', 'add', 'ivan', '--totp', '--name', 'Ivan', '--role', 'payments')).toBe(0);
  expect(out[0]).toMatch(/^staff ivan added \(id \d+, payments, with a second factor\): log in at \/staff$/);
  const { secret } = printed(out);
  expect((await signInWith('ivan', 'ivan-secret-123', secret)).statusCode).toBe(200);

  secretKey = undefined;
  expect(await run('staff', 'add', 'jana', '--name', 'Jana', '--role', 'support', '--totp')).toBe(2);
  expect(err[0]).toMatch(/^no key to seal the TOTP secret with/);
  expect(await run('staff', 'totp', 'ivan')).toBe(2);
  expect((await staffRows()).map((r) => r.username)).not.toContain('jana');
});
