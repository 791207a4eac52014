import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../app';
import { seedBase } from '../../db/seed';
import { freshDb, openSlipsAllDay, testConfig, type TestDb } from './helper';
import { PayoutSimulator } from '../../adapters/payouts';
import type { GameSimulator } from '../../adapters/games/simulator';
import { depositTo, insertPlayer } from './ledger';
import { runAudit } from '../../ledger';
import { parseDefinition, type DefinitionInput } from '../../plugins/bonus/definitions';
import { upsertDefinition } from '../../plugins/bonus/repository';
import { writeRefundSettings, type RefundSettings } from '../../plugins/bonus/settings';

const L = (s: string) => ({ th: `${s} th`, la: `${s} la`, en: `${s} en` });

export interface TestPlayer {
  id: number;
  headers: { authorization: string };
  username: string;
}

export interface BonusTestApp {
  app: FastifyInstance;
  db: TestDb;
  sim: GameSimulator;
  payouts: PayoutSimulator;
  player(opts?: { balance?: number; games?: string[] }): Promise<TestPlayer>;
  get(p: TestPlayer, url: string): Promise<LightMyRequestResponse>;
  /** Defines (or redefines) a bonus or promotion as the operator's file would, with test texts. */
  define(kind: 'bonus' | 'promotion', input: Partial<DefinitionInput> & { code: string }): Promise<void>;
  refund(settings: Partial<RefundSettings>): Promise<void>;
  /** Moves baht from the wallet to a game through the API. */
  toGame(p: TestPlayer, game: string, baht: number): Promise<void>;
  /** Plays rounds at the simulator's game page (bet in baht); `outcome` pins the slot: lose, or win x2. */
  play(p: TestPlayer, game: string, bet: number, outcome: 'lose' | 'win', rounds?: number): Promise<void>;
  /** Asserts the ledger audit is clean. */
  audit(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The app on a fresh migrated and seeded database: payouts settled by hand, the reconciler's timer and the
 * wagering poller's timer off (tests call app.bonus.pollNow()), no rate limit.
 */
export async function buildBonusTestApp(): Promise<BonusTestApp> {
  const db = await freshDb();
  await seedBase(db.db);
  await openSlipsAllDay(db.db);
  const payouts = new PayoutSimulator({ delayMs: null });
  // No per-address rate limit: the races and the property test send thousands of requests from one address.
  const app = await buildApp(testConfig(db.dataDir, { RATE_LIMIT_PER_MINUTE: '0' }), {
    database: db,
    logger: false,
    wallet: { payoutAdapter: payouts, wallet: { reconcileIntervalMs: 0, reconcileAtStart: false, reconcileAfterMs: 0, claimMs: 60_000 } },
    bonus: { pollIntervalMs: 0 },
  });
  await app.ready();
  const sim = app.gameSim;
  if (!sim) throw new Error('the test app needs the game simulator');
  const tokens = new Map<string, string>();
  const t: BonusTestApp = {
    app,
    db,
    sim,
    payouts,
    async player(opts = {}) {
      const id = await insertPlayer(db.db);
      if (opts.balance) await depositTo(db.db, id, opts.balance);
      const headers = { authorization: `Bearer ${await app.tokens.issue(id)}` };
      for (const g of opts.games ?? []) {
        const res = await app.inject({ method: 'GET', url: `/api/wallet/activate/${g}`, headers });
        if (res.statusCode !== 200) throw new Error(`activate ${g}: ${res.statusCode} ${res.body}`);
      }
      return { id, headers, username: `pw${id}` };
    },
    get: (p, url) => app.inject({ method: 'GET', url, headers: p.headers }),
    async define(kind, input) {
      const full = kind === 'bonus' ? { name: L(input.code), notice: L('notice %percentFail%'), type: 'limit', maxReceived: 1, ...input } : { description: L(input.code), ...input };
      const parsed = parseDefinition(full, kind);
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      await upsertDefinition(db.db, parsed.row);
    },
    async refund(settings) {
      await writeRefundSettings(db.db, settings);
    },
    async toGame(p, game, baht) {
      const res = await app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'WALLET', to: game, amount: baht } });
      if (res.statusCode !== 200) throw new Error(`transfer to ${game}: ${res.statusCode} ${res.body}`);
    },
    async play(p, game, bet, outcome, rounds = 1) {
      // The slot draws from roundRandom: below 0.35 (after the house edge) is a x2 win at 0.1, 0.99 is a loss.
      (sim as unknown as { roundRandom: () => number }).roundRandom = () => (outcome === 'win' ? 0.1 : 0.99);
      let token = tokens.get(`${p.id}:${game}`);
      if (!token) {
        const url = new URL(await sim.launchUrl(game, p.username), 'http://local');
        token = url.searchParams.get('t')!;
        tokens.set(`${p.id}:${game}`, token);
      }
      for (let i = 0; i < rounds; i++) {
        const res = await app.inject({ method: 'POST', url: `/sim/games/${game}/round`, payload: { t: token, bet } });
        if (res.statusCode !== 200) throw new Error(`round at ${game}: ${res.statusCode} ${res.body}`);
      }
    },
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
