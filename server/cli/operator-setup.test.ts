import { buildTestApp, freshDb, type TestApp, type TestDb } from '../test/support/helper';
import { runOperator, type OperatorContext } from './operator-cli';
import { totpCode } from '../lib/totp';
import { newSecretKey, secretKeyFrom } from '../lib/secret-box';
import { hashPassword } from '../lib/password';
import { insertStaff } from '../plugins/staff/repository';

/** `npm run operator -- setup` (docs/server.md "Operator CLI"): the first administrator, through the CLI's own entry. */
jest.setTimeout(60_000);

const key = secretKeyFrom(newSecretKey()) as Buffer;
let d: TestDb;
let out: string[];
let err: string[];

beforeEach(async () => {
  d = await freshDb();
  out = [];
  err = [];
});
afterEach(() => d.dispose());

const ctx = (over: Partial<OperatorContext> = {}): OperatorContext => ({
  db: d.db,
  config: { registerOtp: false, minPlayerAge: 20, demo: false },
  out: (l) => out.push(l),
  err: (l) => err.push(l),
  secretKey: key,
  ...over,
});
const setup = (over: Partial<OperatorContext> = {}) => runOperator(['setup'], ctx(over));
const AUTOMATED = { SETUP_USERNAME: 'Root.Admin', SETUP_NAME: '  Site   Owner ', STAFF_PASSWORD: 'first-admin-secret-1' };
const staffRows = () => d.db.selectFrom('staff_users').select(['username', 'name', 'role', 'status', 'totp_secret', 'totp_last_step']).orderBy('id').execute();
const auditRows = () => d.db.selectFrom('staff_audit').select(['staff_id', 'action', 'subject_type', 'subject_id', 'detail']).execute();
const printedSecret = () => (out.find((l) => l.startsWith('TOTP secret (base32): ')) ?? '').slice('TOTP secret (base32): '.length);
/** The QR code qrcode draws for a terminal: half-block characters, dozens of lines. */
const qrLines = () => out.join('\n').split('\n').filter((l) => /[▄▀█]{3}/.test(l));

test('from the environment on an empty staff table: an active admin with a sealed second factor, the URI, a QR block and an audit row', async () => {
  expect(await setup({ env: AUTOMATED })).toBe(0);
  expect(err).toEqual([]);
  const rows = await staffRows();
  expect(rows).toEqual([{ username: 'root.admin', name: 'Site Owner', role: 'admin', status: 'active', totp_secret: expect.any(String), totp_last_step: null }]);
  // Sealed: the printed secret is not what the database holds.
  expect(rows[0].totp_secret).not.toContain(printedSecret());
  expect(printedSecret()).toMatch(/^[A-Z2-7]{32}$/);
  expect(out).toContain(`otpauth URI: otpauth://totp/Player%20Wallet%20Staff:root.admin?secret=${printedSecret()}&issuer=Player%20Wallet%20Staff&algorithm=SHA1&digits=6&period=30`);
  expect(qrLines().length).toBeGreaterThan(15);
  expect(out).toContain('not on a terminal: the code was not confirmed here; the first sign-in at /staff asks for one');
  expect(out[out.length - 1]).toMatch(/^administrator root\.admin created \(id \d+, with a second factor\): sign in at \/staff$/);
  const audit = await auditRows();
  expect(audit).toEqual([{ staff_id: expect.anything(), action: 'staff.setup', subject_type: 'staff', subject_id: String(audit[0].staff_id), detail: JSON.stringify({ username: 'root.admin', confirmed: false }) }]);
});

test('on a terminal: asked for each field, the password twice, and one current code before anything is written', async () => {
  const asked: string[] = [];
  const passwords = ['typed-admin-pass-1', 'typed-admin-pass-1'];
  let rowsAtCode: number | null = null;
  const answers: Record<string, () => Promise<string>> = {
    'Username of the first administrator: ': async () => 'nok',
    'Display name (shown next to staff replies): ': async () => 'Nok',
    'Code the app shows now (6 digits): ': async () => {
      rowsAtCode = (await staffRows()).length;
      return totpCode(printedSecret(), new Date());
    },
  };
  const ask = (q: string) => {
    asked.push(q);
    return answers[q]();
  };
  const prompt = async (q: string) => {
    asked.push(q);
    return passwords.shift() as string;
  };
  expect(await setup({ env: {}, ask, prompt })).toBe(0);
  expect(asked).toEqual(['Username of the first administrator: ', 'Display name (shown next to staff replies): ', 'Password for nok: ', 'The same password again: ', 'Code the app shows now (6 digits): ']);
  expect(rowsAtCode).toBe(0);
  const [row] = await staffRows();
  expect(row).toMatchObject({ username: 'nok', role: 'admin', status: 'active' });
  // The code typed is spent: it does not sign in again.
  expect(row.totp_last_step).not.toBeNull();
  expect(out[out.length - 1]).toMatch(/^administrator nok created \(id \d+, with a second factor, confirmed\): sign in at \/staff$/);
  expect(JSON.parse(String((await auditRows())[0].detail))).toEqual({ username: 'nok', confirmed: true });
});

test('three wrong codes on a terminal write nothing', async () => {
  const ask = async (q: string) => (q.startsWith('Code') ? '000000' : q.startsWith('Username') ? 'nok' : 'Nok');
  expect(await setup({ env: { STAFF_PASSWORD: 'typed-admin-pass-1' }, ask })).toBe(1);
  expect(err).toContain('the second factor was not confirmed; nothing was written (run setup again for a new secret)');
  expect(await staffRows()).toEqual([]);
  expect(await auditRows()).toEqual([]);
});

test('refused when an active admin exists: one line, nothing asked, nothing written', async () => {
  expect(await setup({ env: AUTOMATED })).toBe(0);
  const before = await staffRows();
  out = [];
  err = [];
  const asked: string[] = [];
  const ask = async (q: string) => {
    asked.push(q);
    return 'second';
  };
  expect(await setup({ env: { STAFF_PASSWORD: 'another-admin-pass-1' }, ask, prompt: ask })).toBe(1);
  expect(err[0]).toBe('an active administrator exists already (root.admin); setup only makes the first one: add more with staff add <username> --name "<name>" --role admin; nothing was written');
  expect(asked).toEqual([]);
  expect(out).toEqual([]);
  expect(await staffRows()).toEqual(before);
  expect(await auditRows()).toHaveLength(1);
});

test('other staff rows do not block it: support accounts, a disabled admin, disabled demo accounts', async () => {
  const hash = await hashPassword('some-password-1');
  const at = new Date().toISOString();
  await insertStaff(d.db, { username: 'support', name: 'Demo support', role: 'support', password_hash: hash, now: at });
  await insertStaff(d.db, { username: 'old.admin', name: 'Old', role: 'admin', password_hash: hash, now: at });
  await d.db.updateTable('staff_users').set({ status: 'disabled', demo: 1 }).where('username', '=', 'support').execute();
  await d.db.updateTable('staff_users').set({ status: 'disabled' }).where('username', '=', 'old.admin').execute();
  expect(await setup({ env: AUTOMATED })).toBe(0);
  expect((await staffRows()).map((r) => `${r.username} ${r.role} ${r.status}`)).toEqual(['support support disabled', 'old.admin admin disabled', 'root.admin admin active']);
});

test('a username taken by another account is refused before the password is asked', async () => {
  await insertStaff(d.db, { username: 'root.admin', name: 'Support', role: 'support', password_hash: await hashPassword('some-password-1'), now: new Date().toISOString() });
  const asked: string[] = [];
  expect(await setup({ env: { SETUP_USERNAME: 'root.admin', SETUP_NAME: 'X' }, prompt: async (q) => (asked.push(q), 'x') })).toBe(1);
  expect(err).toEqual(['staff user root.admin already exists; nothing was written']);
  expect(asked).toEqual([]);
});

test('a bad password is refused and nothing is written: too short, or the two typed differ', async () => {
  expect(await setup({ env: { ...AUTOMATED, STAFF_PASSWORD: 'short-1' } })).toBe(2);
  expect(err).toEqual(['the password needs 10 to 128 characters; nothing was written']);
  err.length = 0;
  const typed = ['typed-admin-pass-1', 'typed-admin-pass-2'];
  expect(await setup({ env: { SETUP_USERNAME: 'nok', SETUP_NAME: 'Nok' }, prompt: async () => typed.shift() as string })).toBe(2);
  expect(err).toEqual(['the two passwords differ; nothing was written']);
  expect(await staffRows()).toEqual([]);
  expect(out.filter((l) => l.startsWith('TOTP secret'))).toEqual([]);
});

test('bad input writes nothing: no username off a terminal, a bad username, no key', async () => {
  expect(await setup({ env: { STAFF_PASSWORD: 'first-admin-secret-1' } })).toBe(2);
  expect(err).toEqual(['no username: set SETUP_USERNAME, or run the command on a terminal to type it; nothing was written']);
  err.length = 0;
  expect(await setup({ env: { ...AUTOMATED, SETUP_USERNAME: '-x' } })).toBe(2);
  expect(err[0]).toMatch(/^a username is 3 to 32 letters/);
  err.length = 0;
  expect(await setup({ env: AUTOMATED, secretKey: undefined })).toBe(2);
  expect(err[0]).toMatch(/^no key to seal the TOTP secret with: set GAME_SECRET_KEY/);
  expect(await staffRows()).toEqual([]);
  expect(await runOperator(['setup', 'extra'], ctx({ env: AUTOMATED }))).toBe(2);
});

test('two setups at the same time make one admin', async () => {
  const codes = await Promise.all([
    setup({ env: { ...AUTOMATED, SETUP_USERNAME: 'first.one' } }),
    setup({ env: { ...AUTOMATED, SETUP_USERNAME: 'second.one' } }),
  ]);
  expect(codes.sort()).toEqual([0, 1]);
  expect((await staffRows()).filter((r) => r.role === 'admin' && r.status === 'active')).toHaveLength(1);
  expect(err.some((l) => l.startsWith('an active administrator exists already'))).toBe(true);
});

describe('the admin it makes signs in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  test('with its password and a code of the printed secret (the server opens the sealed secret with its key)', async () => {
    expect(await runOperator(['setup'], { ...ctx({ env: AUTOMATED }), db: t.db.db, secretKey: t.app.config.gameSecretKey })).toBe(0);
    const res = await t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username: 'root.admin', password: AUTOMATED.STAFF_PASSWORD } });
    expect(res.json()).toMatchObject({ totpRequired: true });
    const signed = await t.app.inject({ method: 'POST', url: '/api/staff/login/totp', payload: { challenge: res.json().challenge, code: totpCode(printedSecret(), t.app.clock.now()) } });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().staff).toMatchObject({ username: 'root.admin', name: 'Site Owner', role: 'admin' });
  });
});
