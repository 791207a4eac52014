import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { nowIso } from '../../db';
import { seedBase } from '../../db/seed';
import { ProviderTimeoutError, type GameProvider } from '../../adapters/games/types';
import { PayoutSimulator } from '../../adapters/payouts';
import { insertPlayer } from '../../test/support/ledger';
import { freshDb, openSlipsAllDay, testConfig, type TestDb } from '../../test/support/helper';

/**
 * Issue 14 "Many processes": two apps on one database (two processes, as far as the database can tell). The timed
 * reconciler and bet-feed poller run in the one holding their leases only; the other runs them on demand only, and
 * takes the timed ones over as soon as the first closes.
 */

const TOKEN = 'job-lease-metrics-token-0123456789';
const TTL_MS = 3000;

type Calls = { transferStatus: number; betFeed: number };

/** A provider that counts the calls the timed jobs make: every status asked is unavailable, every feed empty. */
function countingProvider(calls: Calls): GameProvider {
  const unused = () => Promise.reject(new Error('not used by this test'));
  return {
    createPlayer: unused,
    deposit: unused,
    withdraw: unused,
    balance: unused,
    launchUrl: unused,
    resetPassword: unused,
    async transferStatus() {
      calls.transferStatus++;
      throw new ProviderTimeoutError('status unavailable');
    },
    async betFeed() {
      calls.betFeed++;
      return { rows: [], cursor: null };
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let db: TestDb;
const apps: FastifyInstance[] = [];

async function start(calls: Calls): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(db.dataDir, { JOB_LEASE_TTL_MS: String(TTL_MS), METRICS_TOKEN: TOKEN }), {
    database: db,
    logger: false,
    wallet: {
      gameProvider: countingProvider(calls),
      payoutAdapter: new PayoutSimulator({ delayMs: null }),
      // A pass every 50 ms over a transfer whose status never comes: each pass asks for it once (claims last 1 ms).
      wallet: { reconcileIntervalMs: 50, reconcileAtStart: true, reconcileAfterMs: 0, claimMs: 1 },
    },
    bonus: { pollIntervalMs: 50 },
  });
  apps.push(app);
  await app.ready();
  return app;
}

/** The jobs this file is about; the app's other leased jobs (upload retention, issue 39) are left out of its figures. */
const JOBS = ['reconciler', 'wagering-poller'];

async function leaseGauge(app: FastifyInstance): Promise<Record<string, number>> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  const out: Record<string, number> = {};
  for (const m of res.body.matchAll(/^wallet_job_lease_held\{job="([^"]+)"\} (\d+)$/gm)) if (JOBS.includes(m[1])) out[m[1]] = Number(m[2]);
  return out;
}

beforeEach(async () => {
  db = await freshDb();
  await seedBase(db.db);
  await openSlipsAllDay(db.db);
  const playerId = await insertPlayer(db.db);
  const at = nowIso(new Date(Date.now() - 60_000));
  await db.db
    .insertInto('game_transfers')
    .values({
      id: crypto.randomUUID(),
      player_id: playerId,
      game_code: 'pg',
      direction: 'to_game',
      amount: 1000,
      currency: 'THB',
      status: 'pending',
      claimed_until: null,
      attempts: 0,
      last_error: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await db.dispose();
});

test('a second app on the same database runs the timed jobs only after the first closes', async () => {
  const a: Calls = { transferStatus: 0, betFeed: 0 };
  const b: Calls = { transferStatus: 0, betFeed: 0 };
  const first = await start(a);
  await until(() => a.transferStatus >= 2 && a.betFeed >= 1);
  expect(await leaseGauge(first)).toEqual({ reconciler: 1, 'wagering-poller': 1 });
  const rows = await db.db.selectFrom('job_leases').select(['name', 'holder']).where('name', 'in', JOBS).orderBy('name').execute();
  expect(rows.map((r) => r.name)).toEqual(JOBS);

  const second = await start(b);
  expect(await leaseGauge(second)).toEqual({ reconciler: 0, 'wagering-poller': 0 });
  // The first keeps working; the second's timers run nothing.
  const seen = { ...a };
  await until(() => a.transferStatus >= seen.transferStatus + 5 && a.betFeed >= seen.betFeed + 5);
  expect(b).toEqual({ transferStatus: 0, betFeed: 0 });
  // On demand it runs anyway (a test, an operator): one pass each. The first still reconciles the same row every
  // 50 ms and claims it for 1 ms, so an on-demand pass can meet that claim and rightly skip the row (examined 0,
  // no provider call); it is asked again until it gets the row, and each pass that got it asked the provider once.
  await until(async () => (await second.wallet.reconcileNow()).examined === 1);
  expect(b.transferStatus).toBe(1);
  // Every transfer game's feed once (seamless games have none: server/jobs/poller.ts).
  const games = (await db.db.selectFrom('games').select('code').where('wallet_mode', '=', 'transfer').execute()).length;
  await second.bonus.pollNow();
  expect(b.betFeed).toBe(games);
  expect(await leaseGauge(second)).toEqual({ reconciler: 0, 'wagering-poller': 0 });

  // A graceful close releases the leases: the second takes the jobs over at its next renewal (every ttl / 3),
  // without waiting for the first's leases to expire.
  const closedAt = Date.now();
  await first.close();
  const stopped = { ...a };
  await until(() => b.transferStatus >= 3 && b.betFeed >= 3 * games);
  expect(Date.now() - closedAt).toBeLessThan(TTL_MS);
  expect(await leaseGauge(second)).toEqual({ reconciler: 1, 'wagering-poller': 1 });
  expect(a).toEqual(stopped);
});

test('after a holder dies (its leases left in place) a new app takes the jobs over when they expire, not before', async () => {
  // A process that crashed: its rows stay until they expire.
  const expiresAt = Date.now() + 5000; // well after the app below is ready, even on a busy machine
  for (const name of ['reconciler', 'wagering-poller'])
    await db.db.insertInto('job_leases').values({ name, holder: 'dead-host:1:0', expires_at: new Date(expiresAt).toISOString() }).execute();
  const b: Calls = { transferStatus: 0, betFeed: 0 };
  const app = await start(b);
  expect(await leaseGauge(app)).toEqual({ reconciler: 0, 'wagering-poller': 0 });
  expect(Date.now()).toBeLessThan(expiresAt);
  await until(() => b.transferStatus >= 1 && b.betFeed >= 1, 10_000);
  const tookOver = Date.now();
  expect(tookOver).toBeGreaterThanOrEqual(expiresAt);
  // Within the app's next renewal tick after the expiry (ttl / 3) and a pass.
  expect(tookOver - expiresAt).toBeLessThan(TTL_MS / 3 + 1000);
  expect(await leaseGauge(app)).toEqual({ reconciler: 1, 'wagering-poller': 1 });
  const rows = await db.db.selectFrom('job_leases').select('holder').execute();
  expect(new Set(rows.map((r) => r.holder)).has('dead-host:1:0')).toBe(false);
});
