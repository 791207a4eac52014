import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../app';
import { nowIso } from '../../db';
import { seedBase } from '../../db/seed';
import { freshDb, openSlipsAllDay, testConfig, type TestDb } from './helper';
import { insertPlayer } from '../../ledger';

/** Helpers of the play-limits suites (not a test file itself). */

export interface LimitsPlayer {
  id: number;
  headers: { authorization: string };
}

export interface LimitsTestApp {
  app: FastifyInstance;
  db: TestDb;
  /** Stops the app clock at `at`; advance() moves it. The clock starts stopped at the real time of the build. */
  setNow(at: Date): void;
  advance(ms: number): void;
  now(): Date;
  player(): Promise<LimitsPlayer>;
  /** A new session (token) of the same player. */
  login(p: LimitsPlayer): Promise<LimitsPlayer>;
  req(p: LimitsPlayer, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The URL of the test-only play route the suites register (config.play: true). */
export const PLAY_PROBE = '/api/test/play-probe';

let seq = 0;

/** The app on a fresh database, with a stopped clock and a test-only play route, GET {@link PLAY_PROBE}. */
export async function buildLimitsTestApp(env: Record<string, string> = {}): Promise<LimitsTestApp> {
  const db = await freshDb();
  await seedBase(db.db);
  await openSlipsAllDay(db.db);
  const app = await buildApp(testConfig(db.dataDir, { RATE_LIMIT_PER_MINUTE: '0', ...env }), { database: db, logger: false });
  app.get(PLAY_PROBE, { onRequest: app.authenticate, config: { play: true } }, async () => ({ ok: true }));
  await app.ready();
  let frozen = Date.now();
  app.clock.now = () => new Date(frozen);
  const t: LimitsTestApp = {
    app,
    db,
    setNow(at) {
      frozen = at.getTime();
    },
    advance(ms) {
      frozen += ms;
    },
    now: () => new Date(frozen),
    async player() {
      seq += 1;
      const n = `${String(process.pid % 1e3).padStart(3, '0')}${String(seq).padStart(5, '0')}`;
      const id = await insertPlayer(db.db, {
        phone: `06${n}`,
        name: `Limits ${seq}`,
        password_hash: 'not-used',
        bank_code: 'KBANK',
        bank_account_name: 'SOMCHAI JAIDEE',
        bank_account_no: `7${n}`,
        currency: 'THB',
        source_code: null,
        inviter_id: null,
        now: nowIso(),
      });
      return { id, headers: { authorization: `Bearer ${await app.tokens.issue(id)}` } };
    },
    async login(p) {
      const token = await app.tokens.issue(p.id);
      // The session starts at the test clock's time (tokens.issue stamps the real time).
      const { jti } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string };
      await db.db.updateTable('sessions').set({ created_at: new Date(frozen).toISOString() }).where('id', '=', jti).execute();
      return { id: p.id, headers: { authorization: `Bearer ${token}` } };
    },
    req: (p, method, url, payload) => app.inject({ method, url, headers: p.headers, ...(payload === undefined ? {} : { payload: payload as object }) }),
    async close() {
      await app.close();
      await db.dispose();
    },
  };
  return t;
}
