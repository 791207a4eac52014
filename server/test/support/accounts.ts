import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * Shared by the accounts and OTP tests: the reference rows they rely on (inserted when the seed lacks
 * them), valid payloads, and a clock the tests move by hand.
 */
export async function ensureReference(db: Kysely<DB>): Promise<void> {
  const banks: DB['banks'][] = [
    { code: 'SCB', name_th: 'ธนาคารไทยพาณิชย์', name_en: 'Siam Commercial Bank', bank_type: 'BANK', english_name_only: 0, sort: 10, market: 'th' },
    { code: 'KBANK', name_th: 'ธนาคารกสิกรไทย', name_en: 'Kasikornbank', bank_type: 'BANK', english_name_only: 0, sort: 20, market: 'th' },
    { code: 'KTB', name_th: 'ธนาคารกรุงไทย', name_en: 'Krungthai Bank', bank_type: 'BANK', english_name_only: 1, sort: 30, market: 'th' },
    { code: 'TMB', name_th: 'ธนาคารทหารไทยธนชาต', name_en: 'TMBThanachart Bank', bank_type: 'BANK', english_name_only: 1, sort: 40, market: 'th' },
    { code: 'BBL', name_th: 'ธนาคารกรุงเทพ', name_en: 'Bangkok Bank', bank_type: 'BANK', english_name_only: 1, sort: 50, market: 'th' },
    { code: 'BCEL', name_th: 'ธนาคารการค้าต่างประเทศลาว', name_en: 'BCEL', bank_type: 'BANK', english_name_only: 0, sort: 80, market: 'lao' },
    { code: 'WW', name_th: 'WW', name_en: 'WW', bank_type: 'PAYMENT', english_name_only: 0, sort: 90, market: 'th' },
  ];
  for (const b of banks) await db.insertInto('banks').values(b).onConflict((oc) => oc.column('code').doNothing()).execute();
  for (const s of [
    { code: 'facebook', description: 'Facebook', sort: 10 },
    { code: 'friend', description: 'Friend', sort: 40 },
  ]) {
    await db.insertInto('sources').values(s).onConflict((oc) => oc.column('code').doNothing()).execute();
  }
}

let seq = 0;
/** A distinct valid Thai phone and bank account number on every call (unique per test file run). */
export function uniqueIds(): { phone: string; bankAccountNo: string } {
  seq += 1;
  const n = String(seq).padStart(4, '0');
  return { phone: `08${String(process.pid % 10000).padStart(4, '0')}${n}`, bankAccountNo: `12345${n}${String(process.pid % 100000).padStart(5, '0')}` };
}

export interface Registration {
  name: string; username: string; password: string; sourceCode: string; inviteCode: string;
  bankCode: string; bankAccountName: string; bankAccountNo: string; currency: string; ageConfirmed: unknown;
}

export function registration(overrides: Partial<Registration> = {}): Registration {
  const ids = uniqueIds();
  return {
    name: 'Somchai',
    username: ids.phone,
    password: 'secret1',
    sourceCode: 'facebook',
    inviteCode: '',
    bankCode: 'SCB',
    bankAccountName: 'somchai jaidee',
    bankAccountNo: ids.bankAccountNo,
    currency: 'BAHT',
    ageConfirmed: true,
    ...overrides,
  };
}

export async function register(app: FastifyInstance, body: object) {
  return app.inject({ method: 'POST', url: '/api/account', payload: body });
}

export async function login(app: FastifyInstance, username: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
}

/** Registers a player and logs in; returns the phone, password and token. */
export async function playerWithToken(app: FastifyInstance, overrides: Partial<Registration> = {}) {
  const body = registration(overrides);
  const r = await register(app, body);
  if (r.statusCode !== 200) throw new Error(`register failed: ${r.statusCode} ${r.body}`);
  const l = await login(app, body.username, body.password);
  if (l.statusCode !== 200) throw new Error(`login failed: ${l.statusCode} ${l.body}`);
  return { ...body, token: (l.json() as { token: string }).token };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Replaces app.clock.now with a clock that stands still until advanced. */
export function manualClock(app: FastifyInstance, start = new Date('2026-11-26T03:00:00.000Z')) {
  let t = start.getTime();
  app.clock.now = () => new Date(t);
  return {
    advance(seconds: number) {
      t += seconds * 1000;
    },
    now: () => new Date(t),
  };
}

/** Row counts of every table these routes write, to prove that a failure wrote nothing. */
export async function counts(db: Kysely<DB>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['players', 'sessions', 'otp_requests', 'guess_counters', 'guess_attempts', 'sms_outbox'] as const) {
    const r = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    out[table] = Number(r.n);
  }
  return out;
}
