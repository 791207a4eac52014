import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { freshDb, testConfig, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { DEMO_PLAYER, disableDemoAccounts, seedDemo } from './index';
import { DEMO_PAYMENTS_STAFF, DEMO_STAFF, seedDemoStaff } from './staff';
import { createStaff, TEST_STAFF_PASSWORD } from '../test/support/staff';
import { hashPassword } from '../lib/password';
import { insertStaff } from '../plugins/staff/repository';
import { insertPlayer } from '../ledger';
import { down as unmark, up as mark } from '../db/migrations/202612010300_demo_accounts';

/**
 * Issue 39 row 5, demo never meets real money (docs/staff.md "Demo"): a database once started in demo mode keeps the
 * demo accounts, whose logins are published; with DEMO off they sign in no more, a start with DEMO off disables the
 * demo staff accounts (audited) and ends the demo sessions, and the demo `payments` account is made only on an empty
 * staff table. Accounts are told apart by their `demo` mark, not their names.
 */
const REAL = { PAYMENT_WEBHOOK_SECRET: 'a-real-webhook-secret-of-some-length-0123456789' };

// The adapters read their choice from the environment; with DEMO off it must be explicit (the simulators, for tests).
const ADAPTERS = ['GAME_PROVIDER', 'PAYOUT_PROVIDER', 'PAYMENT_GATEWAY', 'SLIP_VERIFIER', 'GIFT_REDEEMER'] as const;
const saved = ADAPTERS.map((k) => process.env[k]);
beforeAll(() => {
  for (const k of ADAPTERS) process.env[k] = 'simulator';
});
afterAll(() => {
  ADAPTERS.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
});

let db: TestDb;
const apps: FastifyInstance[] = [];
/** The app on the test database: DEMO on, or a real install's DEMO off (same key, so the TOTP secret opens). */
async function appWith(demo: boolean): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(db.dataDir, demo ? {} : { DEMO: 'off', ...REAL }), { database: db, logger: false });
  await app.ready();
  apps.push(app);
  return app;
}
const staffLogin = (app: FastifyInstance, username: string, password: string) => app.inject({ method: 'POST', url: '/api/staff/login', payload: { username, password } });
const playerLogin = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/login', payload: { username: DEMO_PLAYER.phone, password: DEMO_PLAYER.password } });
const answer = (res: { statusCode: number; json(): { message?: string } }) => `${res.statusCode} ${res.statusCode === 200 ? 'ok' : res.json().message}`;
const status = async (username: string) => (await db.db.selectFrom('staff_users').select('status').where('username', '=', username).executeTakeFirstOrThrow()).status;

beforeEach(async () => {
  db = await freshDb();
  await seedBase(db.db);
});
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  await db.dispose();
});

test('the issue: started once in demo mode, then DEMO=off: the demo staff and player no longer sign in, the start disables them (audited) and ends their sessions', async () => {
  const demo = await appWith(true);
  await seedDemoStaff(db.db, new Date(), demo.config.gameSecretKey);
  await seedDemo(db.db);
  expect(answer(await staffLogin(demo, DEMO_STAFF.username, DEMO_STAFF.password))).toBe('200 ok');
  const supportToken = (await staffLogin(demo, DEMO_STAFF.username, DEMO_STAFF.password)).json().token as string;
  expect((await staffLogin(demo, DEMO_PAYMENTS_STAFF.username, DEMO_PAYMENTS_STAFF.password)).json()).toHaveProperty('totpRequired', true);
  const playerToken = (await playerLogin(demo)).json().token as string;
  expect(playerToken).toEqual(expect.any(String));

  const real = await appWith(false);
  // Refused by their mark even before a start disables them (a process started another way, several processes).
  expect(answer(await staffLogin(real, DEMO_STAFF.username, DEMO_STAFF.password))).toBe('401 INACTIVE_USER');
  expect(answer(await staffLogin(real, DEMO_PAYMENTS_STAFF.username, DEMO_PAYMENTS_STAFF.password))).toBe('401 INACTIVE_USER');
  expect(answer(await playerLogin(real))).toBe('401 INACTIVE_USER');

  // What npm start does with DEMO off, before it serves.
  expect(await disableDemoAccounts(db.db)).toEqual({ staff: ['support', 'payments'], playerSessions: 1 });
  expect([await status('support'), await status('payments')]).toEqual(['disabled', 'disabled']);
  const audit = await db.db.selectFrom('staff_audit').innerJoin('staff_users', 'staff_users.id', 'staff_audit.staff_id').select(['username', 'action', 'subject_type', 'reason']).where('action', '=', 'demo.disabled').orderBy('staff_audit.id').execute();
  expect(audit).toEqual([
    { username: 'support', action: 'demo.disabled', subject_type: 'staff', reason: 'DEMO is off' },
    { username: 'payments', action: 'demo.disabled', subject_type: 'staff', reason: 'DEMO is off' },
  ]);
  expect(answer(await real.inject({ method: 'GET', url: '/api/staff/me', headers: { authorization: `Bearer ${supportToken}` } }))).toBe('401 invalid-token');
  expect(answer(await real.inject({ method: 'GET', url: '/api/account/profile', headers: { authorization: `Bearer ${playerToken}` } }))).toBe('401 invalid-token');
  // A second start changes nothing and writes no second row.
  expect(await disableDemoAccounts(db.db)).toEqual({ staff: [], playerSessions: 0 });
  expect(await db.db.selectFrom('staff_audit').select('id').where('action', '=', 'demo.disabled').execute()).toHaveLength(2);
});

test('a real account is known by its mark, not its name: an operator-made `support` signs in with DEMO off and is left alone', async () => {
  const real = await appWith(false);
  await insertStaff(db.db, { username: 'support', name: 'Nok', role: 'support', password_hash: await hashPassword(TEST_STAFF_PASSWORD), now: new Date().toISOString() });
  expect(await disableDemoAccounts(db.db)).toEqual({ staff: [], playerSessions: 0 });
  expect(answer(await staffLogin(real, 'support', TEST_STAFF_PASSWORD))).toBe('200 ok');
});

test('the demo payments account is made only on an empty staff table, like support', async () => {
  const app = await appWith(true);
  await createStaff(app, { username: 'nok', role: 'support' });
  expect(await seedDemoStaff(db.db, new Date(), app.config.gameSecretKey)).toBe(false);
  const names = (await db.db.selectFrom('staff_users').select('username').execute()).map((r) => r.username);
  expect(names).toEqual(['nok']);
});

test('demo mode: both demo staff accounts, marked, on an empty table; they sign in while DEMO is on', async () => {
  const app = await appWith(true);
  expect(await seedDemoStaff(db.db, new Date(), app.config.gameSecretKey)).toBe(true);
  const rows = await db.db.selectFrom('staff_users').select(['username', 'demo']).orderBy('id').execute();
  expect(rows.map((r) => [r.username, Number(r.demo)])).toEqual([['support', 1], ['payments', 1]]);
  expect(answer(await staffLogin(app, DEMO_STAFF.username, DEMO_STAFF.password))).toBe('200 ok');
  await seedDemo(db.db);
  expect(Number((await db.db.selectFrom('players').select('demo').where('phone', '=', DEMO_PLAYER.phone).executeTakeFirstOrThrow()).demo)).toBe(1);
  expect(answer(await playerLogin(app))).toBe('200 ok');
});

test('the migration marks the accounts of a database seeded before it by their published logins only', async () => {
  await unmark(db.db);
  const hash = (p: string) => hashPassword(p);
  const now = new Date().toISOString();
  await db.db.insertInto('staff_users').values([
    { username: 'support', name: 'Demo support', role: 'support', status: 'active', password_hash: await hash(DEMO_STAFF.password), totp_secret: null, created_at: now },
    { username: 'payments', name: 'Real payments', role: 'payments', status: 'active', password_hash: await hash('a private password'), totp_secret: null, created_at: now },
  ] as never).execute();
  const p = DEMO_PLAYER; // as the old seed made it, without the column
  await insertPlayer(db.db, { phone: p.phone, name: p.name, password_hash: await hash(p.password), bank_code: p.bankCode, bank_account_name: p.bankAccountName, bank_account_no: p.bankAccountNo, currency: 'THB', source_code: p.sourceCode, inviter_id: null, now });
  await insertPlayer(db.db, { phone: '0899999999', name: 'Real', password_hash: await hash(p.password), bank_code: p.bankCode, bank_account_name: 'REAL', bank_account_no: '5556667778', currency: 'THB', source_code: null, inviter_id: null, now });
  await mark(db.db);
  const staff = await db.db.selectFrom('staff_users').select(['username', 'demo']).orderBy('id').execute();
  expect(staff.map((r) => [r.username, Number(r.demo)])).toEqual([['support', 1], ['payments', 0]]);
  const players = await db.db.selectFrom('players').select(['phone', 'demo']).orderBy('id').execute();
  expect(players.map((r) => [r.phone, Number(r.demo)])).toEqual([[DEMO_PLAYER.phone, 1], ['0899999999', 0]]);
});
