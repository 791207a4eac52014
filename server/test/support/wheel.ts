import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../app';
import { nowIso } from '../../db';
import { seedBase } from '../../db/seed';
import { freshDb, openSlipsAllDay, testConfig, type TestDb } from './helper';
import { PayoutSimulator } from '../../adapters/payouts';
import { runAudit, walletBalance, insertPlayer } from '../../ledger';
import { depositTo } from './ledger';
import { issueVoucher, makeTransfer, payQr, slipFor } from '../../simulators/demo-bank/bank-service';
import { multipart } from './deposits';
import { makeSlipPng } from '../../plugins/deposits/domain/slip-image';
import { cryptoRandomInt, type RandomInt } from '../../plugins/wheel/draw';
import { parseWheel, writeWheel } from '../../plugins/wheel/config';

/** Helpers shared by the invite and wheel suites (not a test file itself). */
const L = (s: string) => ({ th: `${s} th`, la: `${s} la`, en: `${s} en` });

export interface TestPlayer {
  id: number;
  headers: { authorization: string };
  bankAccountNo: string;
}

export type DepositKind = 'qr' | 'slip' | 'gift';

/** A slice as a test writes it: the file format with test texts filled in. */
export interface TestSlice {
  code: string;
  weight: number;
  type: 'cash' | 'coin' | 'none';
  amount?: number;
  active?: boolean;
}

export interface InviteWheelTestApp {
  app: FastifyInstance;
  db: TestDb;
  /** The draw's source from now on (the app was built with a switchable one; crypto randomInt by default). */
  setRandom(r: RandomInt): void;
  /** Stops the app clock at `at` (moves with advance); `null` gives real time back. */
  setNow(at: Date | null): void;
  advance(ms: number): void;
  player(opts?: { balance?: number; coins?: number; inviter?: number | null; currency?: 'THB' | 'LAK'; bankAccountNo?: string; status?: string }): Promise<TestPlayer>;
  /** A real deposit through the deposit routes (QR paid by the gateway webhook, an uploaded slip, a gift link). */
  deposit(p: TestPlayer, baht: number, kind?: DepositKind): Promise<void>;
  /**
   * Plays `baht` of losing bets at the simulator's pg game (moved there from the wallet first, in bets of at most
   * 100) and runs a wagering pass, so the rounds are stored and wager the player's deposits.
   */
  wager(p: TestPlayer, baht: number): Promise<void>;
  /** Requests a withdrawal of `baht` (payouts are settled by hand): the answer's status code. */
  withdraw(p: TestPlayer, baht: number): Promise<number>;
  /** Writes the wheel (active, 7-day coupons unless told) from test slices; throws on a wheel the checks refuse. */
  wheel(slices: TestSlice[], opts?: { isActive?: boolean; couponValidDays?: number }): Promise<void>;
  get(p: TestPlayer, url: string): Promise<LightMyRequestResponse>;
  post(p: TestPlayer, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  spin(p: TestPlayer): Promise<LightMyRequestResponse>;
  claim(p: TestPlayer, couponId: unknown): Promise<LightMyRequestResponse>;
  coins(p: TestPlayer): Promise<number>;
  balance(p: TestPlayer): Promise<number>;
  audit(): Promise<string[]>;
  close(): Promise<void>;
}

let seq = 0;

export function testSlice(s: TestSlice) {
  return {
    code: s.code,
    label: `${s.code} label`,
    bgColor: '#112233',
    textColor: '#ffffff',
    weight: s.weight,
    active: s.active ?? true,
    prize: { type: s.type, ...(s.type === 'none' ? {} : { amount: s.amount ?? 1 }), name: L(`${s.code} name`), htmlDescription: L(`<p>${s.code}</p>`) },
  };
}

/**
 * The app on a fresh migrated and seeded database: no rate limit (the races send hundreds of requests from one
 * address), payouts settled by hand, the reconciler and the wagering poller off, and the wheel drawing from a
 * source the test may switch.
 */
export async function buildInviteWheelTestApp(): Promise<InviteWheelTestApp> {
  const db = await freshDb();
  await seedBase(db.db);
  await openSlipsAllDay(db.db);
  let random: RandomInt = cryptoRandomInt;
  const app = await buildApp(testConfig(db.dataDir, { RATE_LIMIT_PER_MINUTE: '0' }), {
    database: db,
    logger: false,
    wallet: { payoutAdapter: new PayoutSimulator({ delayMs: null }), wallet: { reconcileIntervalMs: 0, reconcileAtStart: false, reconcileAfterMs: 0, claimMs: 60_000 } },
    bonus: { pollIntervalMs: 0 },
    wheel: { random: (max) => random(max) },
  });
  await app.ready();
  let frozen: number | null = null;
  app.clock.now = () => (frozen === null ? new Date() : new Date(frozen));
  const inject = (p: TestPlayer, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: p.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const t: InviteWheelTestApp = {
    app,
    db,
    setRandom(r) {
      random = r;
    },
    setNow(at) {
      frozen = at === null ? null : at.getTime();
    },
    advance(ms) {
      frozen = (frozen ?? Date.now()) + ms;
    },
    async player(opts = {}) {
      seq += 1;
      const bankAccountNo = opts.bankAccountNo ?? `9${String(process.pid % 1e4).padStart(4, '0')}${String(seq).padStart(5, '0')}`;
      const id = await insertPlayer(db.db, {
        phone: `09${String(process.pid % 1e3).padStart(3, '0')}${String(seq).padStart(5, '0')}`,
        name: `Friend ${seq}`,
        password_hash: 'not-used',
        bank_code: 'KBANK',
        bank_account_name: 'SOMCHAI JAIDEE',
        bank_account_no: bankAccountNo,
        currency: opts.currency ?? 'THB',
        source_code: null,
        inviter_id: opts.inviter ?? null,
        now: nowIso(),
      });
      if (opts.balance) await depositTo(db.db, id, opts.balance);
      if (opts.coins) await db.db.updateTable('players').set({ coin: opts.coins }).where('id', '=', id).execute();
      if (opts.status) await db.db.updateTable('players').set({ status: opts.status }).where('id', '=', id).execute();
      return { id, headers: { authorization: `Bearer ${await app.tokens.issue(id)}` }, bankAccountNo };
    },
    async deposit(p, baht, kind = 'qr') {
      if (kind === 'qr') {
        const made = await app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount: baht } });
        if (made.statusCode !== 200) throw new Error(`qr: ${made.statusCode} ${made.body}`);
        const paid = await payQr(app, made.json().qrcodeId as string);
        if (paid.outcome !== 'CREDITED') throw new Error(`qr paid: ${paid.outcome}`);
      } else if (kind === 'gift') {
        const v = issueVoucher(app, String(baht));
        if (!v.ok) throw new Error(v.error);
        const res = await app.inject({ method: 'POST', url: '/api/wallet/truelink', headers: p.headers, payload: { link: v.encrypted } });
        if (res.statusCode !== 200) throw new Error(`gift: ${res.statusCode} ${res.body}`);
      } else {
        const made = await makeTransfer(app, { playerId: p.id, amount: String(baht), receiver: 'account', minutesAgo: 0 });
        if (!made.ok) throw new Error(made.error);
        const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: makeSlipPng((await slipFor(app, made.transRef))!) }]);
        const res = await app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...p.headers, 'content-type': body.contentType }, payload: body.payload });
        if (res.statusCode !== 200 || res.json().slip?.status !== 'SUCCESS') throw new Error(`slip: ${res.statusCode} ${res.body}`);
      }
    },
    async wager(p, baht) {
      const sim = app.gameSim;
      if (!sim) throw new Error('the test app needs the game simulator');
      if (!(await db.db.selectFrom('game_accounts').select('username').where('player_id', '=', p.id).where('game_code', '=', 'pg').executeTakeFirst())) {
        const res = await inject(p, 'GET', '/api/wallet/activate/pg');
        if (res.statusCode !== 200) throw new Error(`activate pg: ${res.statusCode} ${res.body}`);
      }
      const moved = await inject(p, 'POST', '/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: baht });
      if (moved.statusCode !== 200) throw new Error(`transfer to pg: ${moved.statusCode} ${moved.body}`);
      const username = (await db.db.selectFrom('game_accounts').select('username').where('player_id', '=', p.id).where('game_code', '=', 'pg').executeTakeFirstOrThrow()).username;
      (sim as unknown as { roundRandom: () => number }).roundRandom = () => 0.99; // a loss
      const token = new URL(await sim.launchUrl('pg', username), 'http://local').searchParams.get('t')!;
      for (let left = baht; left > 0; left -= Math.min(100, left)) {
        const res = await app.inject({ method: 'POST', url: '/sim/games/pg/round', payload: { t: token, bet: Math.min(100, left) } });
        if (res.statusCode !== 200) throw new Error(`round at pg: ${res.statusCode} ${res.body}`);
      }
      await app.bonus.pollNow();
    },
    async withdraw(p, baht) {
      return (await inject(p, 'POST', '/api/wallet/withdrawAll', { amount: baht })).statusCode;
    },
    async wheel(slices, opts = {}) {
      const parsed = parseWheel({ isActive: opts.isActive ?? true, name: L('Wheel'), couponValidDays: opts.couponValidDays ?? 7, slices: slices.map(testSlice) });
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      await writeWheel(db.db, parsed.wheel);
    },
    get: (p, url) => inject(p, 'GET', url),
    post: (p, url, payload) => inject(p, 'POST', url, payload),
    spin: (p) => inject(p, 'POST', '/api/spinwheel/spin'),
    claim: (p, couponId) => inject(p, 'POST', '/api/spinwheel/coupon/claim', { couponId }),
    async coins(p) {
      const r = await db.db.selectFrom('players').select('coin').where('id', '=', p.id).executeTakeFirstOrThrow();
      return Number(r.coin);
    },
    balance: (p) => walletBalance(db.db, p.id),
    async audit() {
      return (await runAudit(db.db)).violations;
    },
    async close() {
      await app.close();
      await db.dispose();
    },
  };
  return t;
}

/** Satang of a baht amount. */
export const satang = (baht: number) => Math.round(baht * 100);

/** Answers by status and code, e.g. { '200': 1, '422 NO_COIN': 49 }. */
export function tally(answers: { statusCode: number; json(): { message?: string } }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.statusCode === 200 ? '200' : `${a.statusCode} ${a.json().message}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** A seeded generator (mulberry32) for the tests' own randomness: the same numbers on every run. */
export function seeded(seed: number): RandomInt {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return (max) => Math.floor(next() * max);
}
