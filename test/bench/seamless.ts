/**
 * The bench's seamless phase (issue 42 "Performance": figures, not a timed test). The aggregator's hottest path: 50
 * players, each on a keep-alive connection of its own (50 connections), play rounds as a Hub88 game would, a signed
 * /transaction/bet and then the round's closing signed /transaction/win, one after the other, for
 * BENCH_SEAMLESS_SECONDS (12 s) per engine against the real app (`server/start.ts` on a fresh database, started as
 * test/bench/server.ts starts it), on SQLite and, with DATABASE_URL, on PostgreSQL. Printed: bets per second, p50/p99
 * of a callback (bets and wins apart too), the app's CPU per callback (its process's user + system time from /proc),
 * on PostgreSQL the ratio to pgbench TPC-B measured beside it (half a run before, half after, as the transfer's), and
 * the money check after: the players' wallets plus the seamless house accounts hold what they held before the load,
 * every wallet is its opening balance - its bets + its wins as the answers said, and the ledger audit is clean.
 * In that closed loop every player always has a call in flight, so a callback's latency is 50 / the callbacks per
 * second: a second, shorter run at half the pace (each player starting a round every period) gives p50/p99 below
 * saturation. On PostgreSQL the line after pgbench's has the database's own counts per callback (commits, rows,
 * sequential scans, rows fetched through indexes by table); BENCH_SEAMLESS_PROBE=1 adds the app's statements a
 * callback, their times, the waits for a pooled connection and the event loop's load (seamless-probe.cjs).
 *
 * The request bodies are signed before the timed load (RSA-SHA256 costs ~0.25 ms a body here, a quarter of a core at
 * 1,000 callbacks/s, which would be taken from the app on this two-core machine): a short warm-up measures the pace,
 * then enough rounds for the run are signed; a player who runs out signs on the fly (counted in the line).
 *
 * The goals (p99 < 50 ms, >= 0.3 x pgbench on PostgreSQL) are printed as met or below and not enforced, as the
 * transfer's issue 13 targets are (test/bench/server.ts); the money check is enforced.
 *
 * Alone: `node --import tsx test/bench/seamless.ts` (BENCH_ENGINES=sqlite or postgres for one engine).
 */
import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../../server/db';
import { migrateToLatest } from '../../server/db/migrate';
import { GAMES, seedBase } from '../../server/db/seed';
import { insertPlayer } from '../../server/ledger';
import { creditWallet } from '../../server/ledger/journal';
import { runAudit } from '../../server/ledger/audit';
import { keyFromPem, signBody, verifyBody } from '../../server/adapters/aggregator/signature';
import { SIM_AGGREGATOR_PRIVATE, SIM_OPERATOR_PUBLIC } from '../../server/adapters/aggregator/sim-keys';
import { seamlessUserId } from '../../server/plugins/seamless/users';
import { seamlessSettings } from '../../server/plugins/seamless/settings';
import { UNITS_PER_SATANG } from '../../server/plugins/seamless/units';
import { freePort } from '../e2e/harness';
import { cpuTimeMs, freshEngine, startChild, startPgbench, type Engine } from './server';

const PLAYERS = 50;
const DURATION_S = Number(process.env.BENCH_SEAMLESS_SECONDS || 12);
const WARMUP_S = 2;
const PACED_S = Math.max(3, Math.round(DURATION_S / 2));
const OPENING_SATANG = 10_000_00;
const BET_SATANG = 100;
/** The round's win, by round number: a loss (a win of 0 closes it), a small win, a win above the stake. */
const WIN_SATANG = [0, 50, 0, 250, 100];
const GAME = 'benchsl';
const AGGREGATOR_GAME = 'bench_slot';
const CURRENCY = 'THB';
const GOALS = { p99Ms: 50, pgbenchRatio: 0.3 };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface Player {
  id: number;
  user: string;
  token: string;
  agent: http.Agent;
  /** What the answers say it should hold: opening - bets + wins (each counted when answered RS_OK). */
  expected: number;
  round: number;
  /** Pre-signed rounds (bet and win), taken from the front. */
  signed: SignedRound[];
}

interface SignedRound {
  bet: Signed;
  win: Signed;
  winSatang: number;
}

interface Signed {
  path: string;
  body: string;
  signature: string;
}

interface Tally {
  bets: number;
  wins: number;
  /** Callbacks answered with another status than RS_OK, by status. */
  refused: Map<string, number>;
  /** Network errors and non-200 answers. */
  errors: number;
  badSignatures: number;
  signedOnTheFly: number;
  betMs: number[];
  winMs: number[];
}

const emptyTally = (): Tally => ({ bets: 0, wins: 0, refused: new Map(), errors: 0, badSignatures: 0, signedOnTheFly: 0, betMs: [], winMs: [] });

/** Migrates, seeds, adds the bench's seamless game and PLAYERS players with OPENING_SATANG each and a game token each. */
async function seed(engine: Engine): Promise<Omit<Player, 'agent' | 'signed'>[]> {
  const database = createDb({ databaseUrl: engine.databaseUrl, dataDir: engine.dataDir });
  try {
    await migrateToLatest(database.db);
    await seedBase(database.db);
    // A game of the bench's own, not the demo's, so the phase does not depend on what the demo seeds.
    await database.db
      .insertInto('games')
      .values({ ...GAMES[0], code: GAME, name: 'Bench Seamless', sort: 999, wallet_mode: 'seamless', aggregator: 'hub88', aggregator_game_code: AGGREGATOR_GAME })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    const players: Omit<Player, 'agent' | 'signed'>[] = [];
    const now = new Date();
    for (let i = 0; i < PLAYERS; i++) {
      const id = await insertPlayer(database.db, {
        phone: `087${String(1_000_000 + i).slice(1)}1`.slice(0, 10), name: `Seamless ${i}`, password_hash: 'x', bank_code: 'SCB', bank_account_name: 'BENCH PLAYER',
        bank_account_no: String(6_000_000_000 + i), currency: CURRENCY, source_code: null, inviter_id: null, now: now.toISOString(),
      });
      await database.db.transaction().execute((trx) =>
        creditWallet(trx, { playerId: id, amount: OPENING_SATANG, from: 'demo_float', kind: 'demo_opening', reference: `bench:seamless:${id}` }),
      );
      // The row the launch (GET /api/seamless/launch/:code) writes: the bench plays the aggregator, not the player.
      const token = crypto.randomBytes(32).toString('hex');
      await database.db
        .insertInto('seamless_sessions')
        .values({ token, player_id: id, game_code: GAME, aggregator: 'hub88', currency: CURRENCY, session_id: null, created_at: now.toISOString(), expires_at: new Date(now.getTime() + 4 * 3600_000).toISOString() })
        .execute();
      players.push({ id, user: seamlessUserId(id), token, expected: OPENING_SATANG, round: 0 });
    }
    return players;
  } finally {
    await database.destroy();
  }
}

/** The money the load may only move between them: every wallet and every seamless house account, in satang. */
async function walletsAndHouse(engine: Engine): Promise<{ total: number; wallets: Map<number, number> }> {
  const database = createDb({ databaseUrl: engine.databaseUrl, dataDir: engine.dataDir });
  try {
    const rows = await database.db
      .selectFrom('ledger_accounts')
      .select(['code', 'kind', 'player_id', 'balance'])
      .where((eb) => eb.or([eb('kind', '=', 'wallet'), eb('code', 'like', 'seamless_house:%')]))
      .execute();
    const wallets = new Map<number, number>();
    let total = 0;
    for (const r of rows) {
      total += Number(r.balance);
      if (r.kind === 'wallet' && r.player_id !== null) wallets.set(Number(r.player_id), Number(r.balance));
    }
    return { total, wallets };
  } finally {
    await database.destroy();
  }
}

function signed(key: KeyObject, path: string, body: object): Signed {
  const text = JSON.stringify(body);
  return { path, body: text, signature: signBody(text, key) };
}

/** One round of a player: the bet, and the win closing it (Hub88's field names, docs/seamless-wallet.md). */
function signRound(key: KeyObject, prefix: string, p: Omit<Player, 'agent' | 'signed'>, round: number): SignedRound {
  const roundId = `bench-${p.id}-${round}-${crypto.randomUUID().slice(0, 8)}`;
  const betUuid = crypto.randomUUID();
  const winSatang = WIN_SATANG[round % WIN_SATANG.length];
  const common = { user: p.user, token: p.token, game_code: AGGREGATOR_GAME, currency: CURRENCY, round: roundId, is_free: false, meta: {} };
  return {
    bet: signed(key, `${prefix}/transaction/bet`, {
      ...common, request_uuid: crypto.randomUUID(), transaction_uuid: betUuid, supplier_transaction_id: `s-${betUuid}`,
      round_closed: false, bet: 'spin', amount: BET_SATANG * UNITS_PER_SATANG,
    }),
    win: signed(key, `${prefix}/transaction/win`, {
      ...common, request_uuid: crypto.randomUUID(), transaction_uuid: crypto.randomUUID(), supplier_transaction_id: `s-w-${betUuid}`,
      reference_transaction_uuid: betUuid, round_closed: true, bet: 'spin', amount: winSatang * UNITS_PER_SATANG,
    }),
    winSatang,
  };
}

interface Answer {
  status: number;
  body: { status?: string; balance?: number };
  signatureOk: boolean;
}

function post(url: URL, agent: http.Agent, s: Signed, operatorKey: KeyObject): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: s.path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s.body), 'x-hub88-signature': s.signature } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          let body: Answer['body'] = {};
          try {
            body = JSON.parse(raw.toString('utf8')) as Answer['body'];
          } catch {
            // not JSON: counted as an error by the caller (status or body)
          }
          const sig = res.headers['x-hub88-signature'];
          resolve({ status: res.statusCode ?? 0, body, signatureOk: verifyBody(raw, typeof sig === 'string' ? sig : undefined, operatorKey) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(s.body);
  });
}

/**
 * Each player plays rounds until `until` (ms since the epoch): its bet, then its win, one at a time, as one game
 * session would. Only RS_OK answers move `expected`; the latencies of every answered callback are kept. With
 * `periodMs`, each player starts a round every periodMs (the players spread over the period), else at once.
 */
async function play(url: URL, players: Player[], until: number, ctx: { key: KeyObject; operatorKey: KeyObject; prefix: string }, periodMs = 0): Promise<Tally> {
  const t = emptyTally();
  const call = async (p: Player, s: Signed, times: number[]): Promise<boolean> => {
    const start = process.hrtime.bigint();
    try {
      const a = await post(url, p.agent, s, ctx.operatorKey);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (!a.signatureOk) t.badSignatures++;
      if (a.status !== 200) {
        t.errors++;
        return false;
      }
      if (a.body.status !== 'RS_OK') {
        const k = String(a.body.status);
        t.refused.set(k, (t.refused.get(k) ?? 0) + 1);
        return false;
      }
      return true;
    } catch {
      t.errors++;
      return false;
    }
  };
  await Promise.all(
    players.map(async (p, i) => {
      let next = Date.now() + (periodMs * i) / players.length;
      while (Date.now() < until) {
        if (periodMs) {
          const wait = next - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          next += periodMs;
          if (Date.now() >= until) break;
        }
        let r = p.signed.shift();
        if (!r) {
          r = signRound(ctx.key, ctx.prefix, p, p.round);
          t.signedOnTheFly++;
        }
        p.round++;
        if (!(await call(p, r.bet, t.betMs))) continue;
        t.bets++;
        p.expected -= BET_SATANG;
        if (!(await call(p, r.win, t.winMs))) continue;
        t.wins++;
        p.expected += r.winSatang;
      }
    }),
  );
  return t;
}

const pct = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);
const ms = (n: number) => (n < 10 ? n.toFixed(1) : String(Math.round(n)));

/**
 * PostgreSQL's own counts for the bench's database (per callback after the load): commits, rows written and read,
 * and per table the sequential scans and the rows they read (`seq:{table}`, `seqrows:{table}`). Its statistics reach
 * these views within a second or so of a transaction, so the last moment of a load may be missing.
 */
async function pgCounters(engine: Engine): Promise<Record<string, number> | null> {
  if (!engine.databaseUrl) return null;
  const database = createDb({ databaseUrl: engine.databaseUrl, dataDir: engine.dataDir });
  try {
    const r = await sql<Record<string, string>>`SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_fetched, tup_returned FROM pg_stat_database WHERE datname = current_database()`.execute(database.db);
    const out: Record<string, number> = Object.fromEntries(Object.entries(r.rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
    const tables = await sql<{ relname: string; seq_scan: string; seq_tup_read: string; idx_tup_fetch: string | null }>`SELECT relname, seq_scan, seq_tup_read, idx_tup_fetch FROM pg_stat_user_tables`.execute(database.db);
    for (const t of tables.rows) {
      out[`seq:${t.relname}`] = Number(t.seq_scan);
      out[`seqrows:${t.relname}`] = Number(t.seq_tup_read);
      out[`idxrows:${t.relname}`] = Number(t.idx_tup_fetch ?? 0);
    }
    return out;
  } finally {
    await database.destroy();
  }
}

/** The phase on one engine. */
async function benchSeamless(kind: 'sqlite' | 'postgres', tmp: string): Promise<{ lines: string[]; ok: boolean }> {
  const engine = await freshEngine(kind, tmp);
  const lines: string[] = [];
  try {
    const seeded = await seed(engine);
    const port = await freePort();
    // BENCH_SEAMLESS_PROBE=1: the app's statements, pool waits and event loop timed in the run (seamless-probe.cjs).
    const probeFile = process.env.BENCH_SEAMLESS_PROBE === '1' ? path.join(tmp, `probe-${kind}.json`) : null;
    const app = await startChild(
      ['server/start.ts'],
      {
        ...process.env,
        ...engine.env,
        ...(kind === 'sqlite' ? { DATABASE_URL: '' } : {}),
        PORT: String(port),
        HOST: '127.0.0.1',
        REDIS_URL: '',
        DEMO: '1',
        SKIP_SPA_BUILD: '1',
        RATE_LIMIT_PER_MINUTE: '0',
        GAME_SIM_LATENCY_MS: '0',
        LOG_LEVEL: 'warn',
        SEAMLESS_AGGREGATOR: 'simulator',
        ...(probeFile ? { BENCH_PROBE_FILE: probeFile } : {}),
      },
      /listening on/,
      `the app (${engine.name})`,
      [...(process.env.BENCH_APP_NODE_ARGS || '').split(' ').filter(Boolean), ...(probeFile ? ['--require', path.join(__dirname, 'seamless-probe.cjs')] : [])],
    );
    const url = new URL(`http://127.0.0.1:${port}`);
    const key = keyFromPem(SIM_AGGREGATOR_PRIVATE, 'private');
    const operatorKey = keyFromPem(SIM_OPERATOR_PUBLIC, 'public');
    const prefix = seamlessSettings({ SEAMLESS_PREFIX: process.env.SEAMLESS_PREFIX }).prefix;
    const ctx = { key, operatorKey, prefix };
    // One connection per player: a game session's calls come one after the other.
    const players: Player[] = seeded.map((p) => ({ ...p, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), signed: [] }));
    try {
      const before = await walletsAndHouse(engine);
      // The warm-up: the app's code paths compiled, connections open, and the pace for the signing below.
      const warm = await play(url, players, Date.now() + WARMUP_S * 1000, ctx);
      const signFor = (betsPerSecond: number, seconds: number) => {
        const perPlayer = Math.ceil((betsPerSecond * seconds * 3) / PLAYERS) + 2;
        for (const p of players) for (let i = p.signed.length; i < perPlayer; i++) p.signed.push(signRound(key, prefix, p, p.round + i));
      };
      signFor(warm.bets / WARMUP_S, DURATION_S);

      const pgbench = kind === 'postgres' ? await startPgbench(tmp) : null;
      let t: Tally;
      let cpuMs: number | null;
      let pgBefore = 0;
      let pgAfter = 0;
      const counters: { before: Record<string, number> | null; after: Record<string, number> | null } = { before: null, after: null };
      try {
        const half = Math.max(1, Math.round(DURATION_S / 2));
        if (pgbench) pgBefore = await pgbench.perSecond(half);
        counters.before = await pgCounters(engine);
        const cpuStart = cpuTimeMs(app.proc.pid);
        if (probeFile) app.proc.kill('SIGUSR2');
        t = await play(url, players, Date.now() + DURATION_S * 1000, ctx);
        if (probeFile) app.proc.kill('SIGUSR2');
        const cpuEnd = cpuTimeMs(app.proc.pid);
        cpuMs = cpuStart === null || cpuEnd === null ? null : cpuEnd - cpuStart;
        counters.after = await pgCounters(engine);
        if (pgbench) pgAfter = await pgbench.perSecond(half);
      } finally {
        await pgbench?.stop();
      }
      // Below saturation: the same players at half the pace just measured, each starting a round every period, as
      // players who bet every few seconds spread over the load do. In the closed loop above every player always has
      // a call in flight, so its latency is 50 / the callbacks per second, whatever the app does.
      const pacedBets = t.bets / DURATION_S / 2;
      const periodMs = pacedBets > 0 ? (PLAYERS / pacedBets) * 1000 : 1000;
      signFor(pacedBets, PACED_S);
      const paced = await play(url, players, Date.now() + PACED_S * 1000, ctx, periodMs);
      for (const p of players) p.agent.destroy();

      const callbacks = t.betMs.length + t.winMs.length;
      const all = [...t.betMs, ...t.winMs].sort((a, b) => a - b);
      const bets = [...t.betMs].sort((a, b) => a - b);
      const wins = [...t.winMs].sort((a, b) => a - b);
      const betsPerSecond = t.bets / DURATION_S;
      const p99 = pct(all, 0.99);
      const cpu = cpuMs === null || callbacks === 0 ? 'n/a' : `${(cpuMs / callbacks).toFixed(2)} ms`;
      const refused = t.refused.size ? [...t.refused].map(([k, v]) => `${v} x ${k}`).join(', ') : 'none';
      lines.push(
        `seamless bet + win (${engine.name}, ${PLAYERS} players on ${PLAYERS} connections, ${DURATION_S} s): ${fmt(betsPerSecond)} bets/s (${fmt(callbacks / DURATION_S)} callbacks/s); ` +
          `a callback p50 ${ms(pct(all, 0.5))} ms, p99 ${ms(p99)} ms (bet p50 ${ms(pct(bets, 0.5))} / p99 ${ms(pct(bets, 0.99))}, win p50 ${ms(pct(wins, 0.5))} / p99 ${ms(pct(wins, 0.99))}); ` +
          `the app's CPU ${cpu} a callback; refused ${refused}; errors ${t.errors}; answers with a bad signature ${t.badSignatures}` +
          `${t.signedOnTheFly ? `; ${t.signedOnTheFly} rounds signed on the fly (the pre-signed ran out)` : ''}; goal p99 < ${GOALS.p99Ms} ms -> ${p99 < GOALS.p99Ms ? 'meets issue 42 goal' : 'below issue 42 goal'}`,
      );
      if (pgbench) {
        const base = pgBefore && pgAfter ? (pgBefore + pgAfter) / 2 : 0;
        const r = base ? betsPerSecond / base : 0;
        lines.push(
          `  ${pgbench.name} beside it: ${base ? fmt(base) : 'n/a'} tps (${fmt(pgBefore)} before, ${fmt(pgAfter)} after) -> bets/s = ${r.toFixed(2)} x ` +
            `(callbacks/s, each one ledger transaction as a TPC-B transaction is: ${(base ? callbacks / DURATION_S / base : 0).toFixed(2)} x); goal ${GOALS.pgbenchRatio} x for bets/s -> ${r >= GOALS.pgbenchRatio ? 'meets issue 42 goal' : 'below issue 42 goal'}`,
        );
      }
      if (counters.before && counters.after && callbacks) {
        const delta = (k: string) => (counters.after![k] ?? 0) - (counters.before![k] ?? 0);
        const per = (k: string) => (delta(k) / callbacks).toFixed(1);
        const fetchedBy = Object.keys(counters.after)
          .filter((k) => k.startsWith('idxrows:') && delta(k) > 0)
          .map((k) => ({ t: k.slice('idxrows:'.length), rows: delta(k) / callbacks }))
          .sort((a, b) => b.rows - a.rows)
          .slice(0, 4)
          .map((x) => `${x.t} ${fmt(x.rows)}`);
        const scans = Object.keys(counters.after)
          .filter((k) => k.startsWith('seqrows:') && delta(k) > 0)
          .map((k) => k.slice('seqrows:'.length))
          .map((t) => ({ t, rows: delta(`seqrows:${t}`) / callbacks, n: delta(`seq:${t}`) / callbacks }))
          .sort((a, b) => b.rows - a.rows)
          .slice(0, 4)
          .map((x) => `${x.t} ${x.n.toFixed(2)} scans reading ${fmt(x.rows)} rows`);
        lines.push(
          `  PostgreSQL per callback (pg_stat_database): ${per('xact_commit')} commits, ${per('tup_inserted')} rows inserted, ${per('tup_updated')} updated, ${per('tup_fetched')} fetched; ` +
            `sequential scans: ${scans.length ? scans.join(', ') : 'none'}; rows fetched through indexes, most: ${fetchedBy.join(', ') || 'none'}`,
        );
      }

      const pacedAll = [...paced.betMs, ...paced.winMs].sort((a, b) => a - b);
      const pacedP99 = pct(pacedAll, 0.99);
      lines.push(
        `  at half that pace (each player a round every ${fmt(periodMs)} ms, ${PACED_S} s): ${fmt(paced.bets / PACED_S)} bets/s; a callback p50 ${ms(pct(pacedAll, 0.5))} ms, p99 ${ms(pacedP99)} ms; ` +
          `refused ${paced.refused.size ? [...paced.refused].map(([k, v]) => `${v} x ${k}`).join(', ') : 'none'}; errors ${paced.errors}; goal p99 < ${GOALS.p99Ms} ms -> ${pacedP99 < GOALS.p99Ms ? 'meets issue 42 goal' : 'below issue 42 goal'}`,
      );
      if (probeFile && callbacks) lines.push(...(await probeLines(probeFile, callbacks)));

      const money = await moneyCheck(engine, before, players);
      lines.push(money.line);
      return { lines, ok: money.ok };
    } finally {
      for (const p of players) p.agent.destroy();
      await app.stop();
    }
  } finally {
    await engine.cleanup();
  }
}

interface Probe {
  statements: { family: string; n: number; ms: number; max: number }[];
  poolWaits: { n: number; p50: number; p99: number; max: number };
  eventLoop: { utilization: number; delayP50: number; delayP99: number; delayMax: number };
}

/** The probe's figures for the timed window, per callback. */
async function probeLines(file: string, callbacks: number): Promise<string[]> {
  for (let i = 0; i < 50 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  if (!fs.existsSync(file)) return ['  probe: no figures written'];
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Probe;
  const n = p.statements.reduce((s, x) => s + x.n, 0);
  const total = p.statements.reduce((s, x) => s + x.ms, 0);
  const top = p.statements
    .slice(0, 12)
    .map((x) => `${x.family} ${(x.n / callbacks).toFixed(2)}/cb ${(x.ms / x.n).toFixed(2)} ms (max ${ms(x.max)})`)
    .join('; ');
  return [
    `  probe (in the app): ${(n / callbacks).toFixed(1)} statements a callback, ${(total / callbacks).toFixed(2)} ms of them a callback (sent to answered, so waits included); ` +
      `event loop ${(p.eventLoop.utilization * 100).toFixed(0)} % busy, its delay p50 ${ms(p.eventLoop.delayP50)} ms, p99 ${ms(p.eventLoop.delayP99)} ms, max ${ms(p.eventLoop.delayMax)} ms` +
      (p.poolWaits.n ? `; a pooled connection waited for ${(p.poolWaits.n / callbacks).toFixed(2)}/cb: p50 ${ms(p.poolWaits.p50)} ms, p99 ${ms(p.poolWaits.p99)} ms, max ${ms(p.poolWaits.max)} ms` : ''),
    `  probe, by statement (per callback, mean time each): ${top}`,
  ];
}

/** After the load: wallets + house as before, each wallet as its answers said, the ledger audit clean. */
async function moneyCheck(engine: Engine, before: { total: number }, players: Player[]): Promise<{ ok: boolean; line: string }> {
  const after = await walletsAndHouse(engine);
  const wrong = players.filter((p) => after.wallets.get(p.id) !== p.expected);
  const database = createDb({ databaseUrl: engine.databaseUrl, dataDir: engine.dataDir });
  const audit = await runAudit(database.db).finally(() => database.destroy());
  const conserved = after.total === before.total;
  const ok = conserved && wrong.length === 0 && audit.ok;
  const played = players.reduce((s, p) => s + (OPENING_SATANG - p.expected), 0);
  return {
    ok,
    line:
      `  money after the load: wallets + seamless house ${conserved ? `unchanged (${fmt(before.total / 100)} baht)` : `MOVED from ${before.total} to ${after.total} satang`}; ` +
      `${wrong.length === 0 ? `every wallet = opening - bets + wins as answered (the house won ${fmt(played / 100)} baht)` : `${wrong.length} of ${players.length} wallets differ from their answers (e.g. player ${wrong[0].id}: ${after.wallets.get(wrong[0].id)} != ${wrong[0].expected})`}; ` +
      `ledger audit ${audit.ok ? 'clean' : `FAILED: ${audit.violations.slice(0, 3).join('; ')}`} -> ${ok ? 'ok' : 'MONEY DOES NOT ADD UP'}`,
  };
}

/** The section: each engine in turn (BENCH_ENGINES=sqlite or postgres for one). */
export async function measureSeamless(): Promise<{ lines: string[]; ok: boolean }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-bench-seamless-'));
  const lines = [`Seamless wallet (issue 42: signed bet + win pairs, ${PLAYERS} players at ${PLAYERS} connections, ${DURATION_S} s per engine after a ${WARMUP_S} s warm-up):`];
  let ok = true;
  try {
    const engines = (process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)).filter(
      (e) => !process.env.BENCH_ENGINES || process.env.BENCH_ENGINES.split(',').includes(e),
    );
    for (const kind of engines) {
      const r = await benchSeamless(kind, tmp);
      lines.push(...r.lines);
      ok &&= r.ok;
    }
    if (!process.env.DATABASE_URL) lines.push('PostgreSQL: not measured (set DATABASE_URL to a server the bench may create databases on)');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { lines: lines.map((l, i) => (i === 0 ? l : `  ${l}`)), ok };
}

/** In `npm run bench` (BENCH_PHASES, when set, must name `seamless`): prints the section and answers whether its money check held. */
export async function printSeamless(): Promise<boolean> {
  if (process.env.BENCH_PHASES && !process.env.BENCH_PHASES.split(',').map((s) => s.trim()).includes('seamless')) return true;
  const r = await measureSeamless();
  console.log(r.lines.join('\n'));
  return r.ok;
}

if (require.main === module) {
  measureSeamless().then(
    (r) => {
      console.log(r.lines.join('\n'));
      process.exit(r.ok ? 0 : 1);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
