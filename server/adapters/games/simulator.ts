import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { AppError } from '../../errors';
import { nowIso } from '../../db';
import { prepared } from '../../db/prepared';
import type { DB } from '../../db/schema';
import type { SimTransfersTable } from '../../db/schema-game-sim';
import { ProviderRejectedError } from './provider-errors';
import { CircuitBreaker } from '../http/breaker';
import { seededRandom } from './sim-rng';
import { signLaunchToken, verifyLaunchToken } from './sim-launch-token';
import { cryptoRandom, spin } from './sim-slot';
import {
  ProviderTimeoutError,
  type BetFeedRow,
  type GamePlayer,
  type GameProvider,
  type TransferOutcome,
  type TransferStatus,
} from './types';

export type SimOperation = 'createPlayer' | 'deposit' | 'withdraw' | 'balance' | 'transferStatus' | 'launchUrl' | 'resetPassword' | 'betFeed';
/**
 * reject: a definite failure before anything is applied (transfers only).
 * timeout-before-apply: the call throws ProviderTimeoutError and nothing was applied.
 * timeout-after-apply: the call is applied and committed, then throws ProviderTimeoutError (the nasty case).
 */
export type SimFault = 'reject' | 'timeout-before-apply' | 'timeout-after-apply';
export type SimTimeoutMode = 'after-apply' | 'before-apply' | 'mixed';

export interface GameSimulatorKnobs {
  /** Average added delay per adapter call, ms; half before applying, half after, each jittered. */
  latencyMs: number;
  /** Chance [0..1] that a deposit/withdraw is definitely rejected (recorded as failed, nothing applied). */
  failureRate: number;
  /** Chance [0..1] that a deposit/withdraw ends in ProviderTimeoutError; timeoutMode says whether it applied. */
  timeoutRate: number;
  timeoutMode: SimTimeoutMode;
}

export interface GameSimulatorOptions extends Partial<GameSimulatorKnobs> {
  /** Key that signs launch tokens (at least 32 bytes of secret material). */
  secret: string | Buffer;
  /** Prefix of launch URLs; '' gives a path on the same origin as the wallet. */
  baseUrl?: string;
  /** Seed of the PRNG behind random faults and jitter; fixed in tests. */
  seed?: number;
  /** House edge of the slot [0..0.5]; return to player is 1 - houseEdge. */
  houseEdge?: number;
  /** Username prefix at the provider: username = prefix + our player id. */
  usernamePrefix?: string;
  launchTtlSeconds?: number;
  /** Largest bet per round, satang. */
  maxBet?: number;
  /** Most rounds per betFeed page. */
  feedPageSize?: number;
  /** Games whose credentials carry an event object (spec §2: one provider does). */
  eventGames?: string[];
  /** Source of round outcomes in [0,1); node:crypto unless a test pins it. */
  roundRandom?: () => number;
  /** Clock, for token expiry tests. */
  now?: () => Date;
  /**
   * A file whose presence makes the simulator answer nothing (issue 43's "provider silent" fault): while it exists,
   * every adapter call waits `callTimeoutMs` and then fails as a call to a remote provider that never answered does
   * (ProviderTimeoutError, nothing applied). Set from outside the processes (the bench touches and removes it);
   * GAME_SIM_SILENT_FILE, refused in production. Unset: never silent.
   */
  silentFile?: string;
  /**
   * The caller's timeout of one adapter call while the simulator is silent, ms: what a real adapter's HTTP client
   * gives a provider (server/adapters/http, 8 s there). 2 s here: a game -> wallet transfer makes two calls in a row
   * (the balance, then the withdrawal), and both timed out must stay under the 5 s the load phase counts as hung
   * (3 s gave 6.5 s answers in the first fault run, 2026-12-02).
   */
  callTimeoutMs?: number;
  /**
   * The wallet's database, read for its games table (which games exist, which log in with a password); defaults
   * to the store. The simulator's own tables live in the store given to the constructor (sim-store.ts).
   */
  catalogue?: Kysely<DB>;
}

export const GAME_SIM_DEFAULTS = {
  latencyMs: 0,
  failureRate: 0,
  timeoutRate: 0,
  timeoutMode: 'mixed' as SimTimeoutMode,
  houseEdge: 0.04,
  usernamePrefix: 'pw',
  launchTtlSeconds: 4 * 3600,
  maxBet: 1_000_000,
  feedPageSize: 500,
  eventGames: ['huayhd'],
  callTimeoutMs: 2000,
};

/**
 * The simulator's breaker, as a real provider's client has one (docs/providers/README.md "Circuit breaker"): after
 * 5 unanswered calls in a minute the calls fail at once, and one probe goes through every 3 s (a remote provider's
 * is 30 s; the simulator's is short so the wallet is back within seconds of the provider, issue 43's goal). Only the
 * silence counts: the per-call faults (failureRate, timeoutRate, failNext) model a provider that answers badly, and a
 * breaker opened by them would change what the transfer suites test.
 */
export const GAME_SIM_BREAKER = { failureThreshold: 5, windowMs: 60_000, coolDownMs: 3000 } as const;

/** An authenticated game page: the provider account behind a valid launch token. */
export interface SimSession {
  gameCode: string;
  username: string;
  passwordVersion: number;
}

export interface RoundResult {
  roundId: string;
  bet: number;
  win: number;
  balance: number;
  symbols: string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function checkRate(name: string, v: number): void {
  if (!(v >= 0 && v <= 1)) throw new RangeError(`${name} must be between 0 and 1, got ${v}`);
}

const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 10 characters from an unambiguous alphabet, from the OS CSPRNG. */
function randomPassword(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += PASSWORD_ALPHABET[crypto.randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

function sameText(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

/**
 * A game provider that lives inside this server: its own players, balances, transfers and rounds in sim_
 * tables, reached only through the GameProvider interface (plus the game page it serves). It behaves like a
 * remote provider, failures and delays included, so the wallet's transfer protocol is exercised for real.
 */

// A transfer's statements, compiled once (server/db/prepared.ts): the simulator stands in for a remote provider, and
// building them on every call was CPU of ours, and on PostgreSQL a parse and plan each of its server's (issue 13).
const claimTransfer = prepared((db, a: { game_code: string; transfer_id: string; kind: 'deposit' | 'withdraw'; username: string; amount: number; created_at: string }) =>
  db
    .insertInto('sim_transfers')
    .values({ game_code: a.game_code, transfer_id: a.transfer_id, kind: a.kind, username: a.username, amount: a.amount, status: 'failed', reason: 'CLAIMED', balance_after: null, created_at: a.created_at })
    .onConflict((oc) => oc.columns(['game_code', 'transfer_id']).doNothing())
    .returning('transfer_id'),
);
const transferOutcome = prepared((db, a: { game_code: string; transfer_id: string }) =>
  db.selectFrom('sim_transfers').select(['status', 'reason']).where('game_code', '=', a.game_code).where('transfer_id', '=', a.transfer_id),
);
const depositInto = prepared((db, a: { amount: number; updated_at: string; game_code: string; username: string }) =>
  db
    .updateTable('sim_players')
    .set((eb) => ({ balance: eb('balance', '+', a.amount), updated_at: a.updated_at }))
    .where('game_code', '=', a.game_code)
    .where('username', '=', a.username)
    .returning('balance'),
);
const withdrawFrom = prepared((db, a: { amount: number; updated_at: string; game_code: string; username: string }) =>
  db
    .updateTable('sim_players')
    .set((eb) => ({ balance: eb('balance', '-', a.amount), updated_at: a.updated_at }))
    .where('game_code', '=', a.game_code)
    .where('username', '=', a.username)
    .where('balance', '>=', a.amount)
    .returning('balance'),
);
const playerByUsername = prepared((db, a: { game_code: string; username: string }) =>
  db.selectFrom('sim_players').select('id').where('game_code', '=', a.game_code).where('username', '=', a.username),
);
const recordOutcome = prepared((db, a: { status: 'settled' | 'failed'; reason: string | null; balance_after: number | null; game_code: string; transfer_id: string }) =>
  db
    .updateTable('sim_transfers')
    .set({ status: a.status, reason: a.reason, balance_after: a.balance_after })
    .where('game_code', '=', a.game_code)
    .where('transfer_id', '=', a.transfer_id),
);

export class GameSimulator implements GameProvider {
  private readonly knobs: GameSimulatorKnobs;
  private readonly rng: () => number;
  private readonly key: Buffer;
  private readonly faults = new Map<SimOperation, SimFault[]>();
  readonly houseEdge: number;
  readonly maxBet: number;
  private readonly baseUrl: string;
  private readonly usernamePrefix: string;
  private readonly launchTtlSeconds: number;
  private readonly feedPageSize: number;
  private readonly eventGames: ReadonlySet<string>;
  private readonly roundRandom: () => number;
  private readonly now: () => Date;
  private readonly catalogue: Kysely<DB>;
  readonly silentFile: string | null;
  private readonly callTimeoutMs: number;
  /** Open while the simulator has been silent (issue 43); registered for /readyz/detail by the game-sim plugin. */
  readonly breaker: CircuitBreaker;

  /** @param store where the simulator's own sim_ tables live: its own SQLite file, or the wallet's PostgreSQL database (sim-store.ts). */
  constructor(
    readonly store: Kysely<DB>,
    options: GameSimulatorOptions,
  ) {
    // An option given as undefined (e.g. an unset environment variable) means "the default".
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as GameSimulatorOptions;
    const o = { ...GAME_SIM_DEFAULTS, ...given };
    this.knobs = { latencyMs: o.latencyMs, failureRate: o.failureRate, timeoutRate: o.timeoutRate, timeoutMode: o.timeoutMode };
    this.configure({});
    if (!(o.houseEdge >= 0 && o.houseEdge <= 0.5)) throw new RangeError(`houseEdge must be between 0 and 0.5, got ${o.houseEdge}`);
    if (!Number.isSafeInteger(o.maxBet) || o.maxBet <= 0) throw new RangeError('maxBet must be a positive whole number of satang');
    if (!o.secret || o.secret.length < 16) throw new RangeError('the launch-token secret is too short');
    this.houseEdge = o.houseEdge;
    this.maxBet = o.maxBet;
    this.baseUrl = o.baseUrl ?? '';
    this.usernamePrefix = o.usernamePrefix;
    this.launchTtlSeconds = o.launchTtlSeconds;
    this.feedPageSize = o.feedPageSize;
    this.eventGames = new Set(o.eventGames);
    this.rng = seededRandom(o.seed ?? crypto.randomInt(2 ** 31));
    this.key = crypto.createHmac('sha256', o.secret).update('game-sim launch token v1').digest();
    this.roundRandom = o.roundRandom ?? cryptoRandom;
    this.now = o.now ?? (() => new Date());
    this.catalogue = o.catalogue ?? store;
    this.silentFile = o.silentFile || null;
    if (!Number.isSafeInteger(o.callTimeoutMs) || o.callTimeoutMs <= 0) throw new RangeError(`callTimeoutMs must be a positive whole number, got ${o.callTimeoutMs}`);
    this.callTimeoutMs = o.callTimeoutMs;
    this.breaker = new CircuitBreaker('game-simulator', GAME_SIM_BREAKER);
  }

  /** True while the silence file exists (checked on every call: one stat, only when GAME_SIM_SILENT_FILE is set). */
  silent(): boolean {
    return this.silentFile !== null && fs.existsSync(this.silentFile);
  }

  // ---- knobs and deterministic faults -------------------------------------------------------------

  /** Changes latency, failure and timeout behaviour at run time (e.g. a test or an operator toggle). */
  configure(knobs: Partial<GameSimulatorKnobs>): void {
    const k = { ...this.knobs, ...knobs };
    if (!Number.isFinite(k.latencyMs) || k.latencyMs < 0) throw new RangeError(`latencyMs must be >= 0, got ${k.latencyMs}`);
    checkRate('failureRate', k.failureRate);
    checkRate('timeoutRate', k.timeoutRate);
    if (k.failureRate + k.timeoutRate > 1) throw new RangeError('failureRate + timeoutRate must not exceed 1');
    if (!['after-apply', 'before-apply', 'mixed'].includes(k.timeoutMode)) throw new RangeError(`unknown timeoutMode ${k.timeoutMode}`);
    Object.assign(this.knobs, k);
  }

  get settings(): Readonly<GameSimulatorKnobs> {
    return { ...this.knobs };
  }

  /**
   * Forces the outcome of the next call of `op` (queued: two calls queue two faults), ahead of the random
   * rates. Only transfers can be rejected; any call can time out before or after applying.
   */
  failNext(op: 'deposit' | 'withdraw', fault: SimFault): void;
  failNext(op: SimOperation, fault: 'timeout-before-apply' | 'timeout-after-apply'): void;
  failNext(op: SimOperation, fault: SimFault): void {
    if (fault === 'reject' && op !== 'deposit' && op !== 'withdraw') throw new RangeError('only transfers can be rejected');
    const q = this.faults.get(op) ?? [];
    q.push(fault);
    this.faults.set(op, q);
  }

  /** Drops every forced fault not yet used. */
  clearFaults(): void {
    this.faults.clear();
  }

  private nextFault(op: SimOperation): SimFault | null {
    const forced = this.faults.get(op)?.shift();
    if (forced) return forced;
    if (op !== 'deposit' && op !== 'withdraw') return null;
    const { failureRate, timeoutRate, timeoutMode } = this.knobs;
    if (failureRate === 0 && timeoutRate === 0) return null;
    const r = this.rng();
    if (r < failureRate) return 'reject';
    if (r < failureRate + timeoutRate) {
      if (timeoutMode === 'mixed') return this.rng() < 0.5 ? 'timeout-after-apply' : 'timeout-before-apply';
      return timeoutMode === 'after-apply' ? 'timeout-after-apply' : 'timeout-before-apply';
    }
    return null;
  }

  private async delay(): Promise<void> {
    if (this.knobs.latencyMs <= 0) return;
    await sleep((this.knobs.latencyMs / 2) * (0.5 + this.rng()));
  }

  /**
   * Runs one adapter call the way a remote call behaves: latency, the work, latency, and the chosen fault. While
   * silent: no answer until the caller's timeout, nothing applied; with the breaker open, refused at once.
   */
  private async remote<T>(op: SimOperation, work: (fault: SimFault | null) => Promise<T>): Promise<T> {
    if (this.silentFile !== null) {
      if (!this.breaker.allow()) throw new ProviderTimeoutError(`game simulator: ${op} not sent, circuit open (not applied)`);
      if (this.silent()) {
        await sleep(this.callTimeoutMs);
        this.breaker.failure('timeout');
        throw new ProviderTimeoutError(`game simulator: ${op} got no answer within ${this.callTimeoutMs} ms (not applied)`);
      }
      this.breaker.success();
    }
    const fault = this.nextFault(op);
    await this.delay();
    if (fault === 'timeout-before-apply') throw new ProviderTimeoutError(`game simulator: ${op} timed out (not applied)`);
    const result = await work(fault);
    await this.delay();
    if (fault === 'timeout-after-apply') throw new ProviderTimeoutError(`game simulator: ${op} timed out (applied)`);
    return result;
  }

  // ---- GameProvider ---------------------------------------------------------------------------------

  async createPlayer(gameCode: string, playerId: number): Promise<GamePlayer> {
    return this.remote('createPlayer', async () => {
      const game = await this.catalogue.selectFrom('games').select('code').where('code', '=', gameCode).executeTakeFirst();
      if (!game) throw new ProviderRejectedError('NO_GAME');
      const now = nowIso(this.now());
      await this.store
        .insertInto('sim_players')
        .values({
          game_code: gameCode,
          player_id: playerId,
          username: `${this.usernamePrefix}${playerId}`,
          password: randomPassword(),
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['game_code', 'player_id']).doNothing())
        .execute();
      const row = await this.store
        .selectFrom('sim_players')
        .select(['username', 'password'])
        .where('game_code', '=', gameCode)
        .where('player_id', '=', playerId)
        .executeTakeFirstOrThrow();
      return this.credentials(gameCode, row.username, row.password);
    });
  }

  private credentials(gameCode: string, username: string, password: string): GamePlayer {
    return this.eventGames.has(gameCode) ? { username, password, event: { formState: { username, password } } } : { username, password };
  }

  deposit(gameCode: string, username: string, transferId: string, amount: number): Promise<TransferOutcome> {
    return this.transfer('deposit', gameCode, username, transferId, amount);
  }

  withdraw(gameCode: string, username: string, transferId: string, amount: number): Promise<TransferOutcome> {
    return this.transfer('withdraw', gameCode, username, transferId, amount);
  }

  private async transfer(kind: 'deposit' | 'withdraw', gameCode: string, username: string, transferId: string, amount: number): Promise<TransferOutcome> {
    // A malformed request is refused like an HTTP 400: definitely not applied, and nothing recorded.
    if (!Number.isSafeInteger(amount) || amount <= 0) return { status: 'failed', reason: 'INVALID_AMOUNT' };
    if (typeof transferId !== 'string' || transferId.length === 0 || transferId.length > 128) return { status: 'failed', reason: 'INVALID_TRANSFER_ID' };
    return this.remote(kind, (fault) => this.applyTransfer(kind, gameCode, username, transferId, amount, fault === 'reject'));
  }

  /**
   * Claims the transferId and applies the transfer in one transaction. A transferId seen before (by any
   * caller, concurrently or after a restart) is answered with its recorded outcome and applies nothing.
   */
  private applyTransfer(
    kind: 'deposit' | 'withdraw',
    gameCode: string,
    username: string,
    transferId: string,
    amount: number,
    reject: boolean,
  ): Promise<TransferOutcome> {
    return this.store.transaction().execute(async (trx) => {
      const now = nowIso(this.now());
      // On PostgreSQL a concurrent claim of the same id waits here for the first to commit, then does nothing.
      const claimed = await claimTransfer.first(trx, { game_code: gameCode, transfer_id: transferId, kind, username, amount, created_at: now });
      if (!claimed) {
        const first = await transferOutcome.first(trx, { game_code: gameCode, transfer_id: transferId });
        if (!first) throw new Error(`game simulator: transfer ${transferId} was claimed but is not there`);
        return outcomeOf(first);
      }

      let result: { status: 'settled' | 'failed'; reason: string | null; balanceAfter: number | null };
      if (reject) {
        result = { status: 'failed', reason: 'REJECTED', balanceAfter: null };
      } else {
        const move = kind === 'deposit' ? depositInto : withdrawFrom;
        const row = await move.first(trx, { amount, updated_at: now, game_code: gameCode, username });
        if (row) {
          result = { status: 'settled', reason: null, balanceAfter: Number(row.balance) };
        } else {
          const exists = await playerByUsername.first(trx, { game_code: gameCode, username });
          result = { status: 'failed', reason: exists ? 'INSUFFICIENT' : 'NO_PLAYER', balanceAfter: null };
        }
      }
      await recordOutcome.run(trx, { status: result.status, reason: result.reason, balance_after: result.balanceAfter, game_code: gameCode, transfer_id: transferId });
      return outcomeOf(result);
    });
  }

  async balance(gameCode: string, username: string): Promise<number> {
    return this.remote('balance', async () => {
      const row = await this.player(gameCode, username);
      return row.balance;
    });
  }

  async transferStatus(gameCode: string, transferId: string): Promise<TransferStatus> {
    return this.remote('transferStatus', async () => {
      const row = await this.store
        .selectFrom('sim_transfers')
        .select('status')
        .where('game_code', '=', gameCode)
        .where('transfer_id', '=', transferId)
        .executeTakeFirst();
      return row ? row.status : 'unknown';
    });
  }

  async launchUrl(gameCode: string, username: string, password?: string): Promise<string> {
    return this.remote('launchUrl', async () => {
      const p = await this.player(gameCode, username);
      const game = await this.catalogue.selectFrom('games').select('login_with_password').where('code', '=', gameCode).executeTakeFirst();
      if (!game) throw new ProviderRejectedError('NO_GAME');
      if (Number(game.login_with_password) === 1 && (password === undefined || !sameText(password, p.password))) {
        throw new ProviderRejectedError('WRONG_PASSWORD');
      }
      const token = signLaunchToken(this.key, {
        g: gameCode,
        u: username,
        v: p.passwordVersion,
        exp: Math.floor(this.now().getTime() / 1000) + this.launchTtlSeconds,
      });
      return `${this.baseUrl}/sim/games/${encodeURIComponent(gameCode)}/play?t=${encodeURIComponent(token)}`;
    });
  }

  async resetPassword(gameCode: string, username: string): Promise<string> {
    return this.remote('resetPassword', async () => {
      const password = randomPassword();
      const res = await this.store
        .updateTable('sim_players')
        .set((eb) => ({ password, password_version: eb('password_version', '+', 1), updated_at: nowIso(this.now()) }))
        .where('game_code', '=', gameCode)
        .where('username', '=', username)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw new ProviderRejectedError('SLOT_NO_ACCOUNT');
      return password;
    });
  }

  async betFeed(gameCode: string, cursor: string | null): Promise<{ rows: BetFeedRow[]; cursor: string | null }> {
    return this.remote('betFeed', async () => {
      if (cursor !== null && !/^\d{1,15}$/.test(cursor)) throw new ProviderRejectedError('BAD_CURSOR');
      const after = cursor === null ? 0 : Number(cursor);
      const rows = await this.store
        .selectFrom('sim_rounds')
        .select(['seq', 'username', 'bet', 'win', 'created_at'])
        .where('game_code', '=', gameCode)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(this.feedPageSize)
        .execute();
      if (rows.length === 0) return { rows: [], cursor };
      return {
        rows: rows.map((r) => ({ roundId: `${gameCode}-${r.seq}`, username: r.username, bet: Number(r.bet), win: Number(r.win), at: r.created_at })),
        cursor: String(rows[rows.length - 1].seq),
      };
    });
  }

  private async player(gameCode: string, username: string): Promise<{ balance: number; password: string; passwordVersion: number }> {
    const row = await this.store
      .selectFrom('sim_players')
      .select(['balance', 'password', 'password_version'])
      .where('game_code', '=', gameCode)
      .where('username', '=', username)
      .executeTakeFirst();
    if (!row) throw new ProviderRejectedError('SLOT_NO_ACCOUNT');
    return { balance: Number(row.balance), password: row.password, passwordVersion: Number(row.password_version) };
  }

  // ---- the provider's own game (served by server/simulators/game-sim) -----------------------------------

  /** The account behind a launch token, or null when the token is forged, expired, for another game or outdated by a password reset. */
  async authenticate(gameCode: string, token: string): Promise<SimSession | null> {
    const claims = verifyLaunchToken(this.key, token, gameCode, this.now());
    if (!claims) return null;
    const row = await this.store
      .selectFrom('sim_players')
      .select('password_version')
      .where('game_code', '=', gameCode)
      .where('username', '=', claims.u)
      .executeTakeFirst();
    if (!row || Number(row.password_version) !== claims.v) return null;
    return { gameCode, username: claims.u, passwordVersion: claims.v };
  }

  async sessionBalance(session: SimSession): Promise<number> {
    return (await this.player(session.gameCode, session.username)).balance;
  }

  /**
   * One spin: the bet leaves the balance and the win comes back in the same transaction that records the
   * round, so the balance always equals deposits - withdrawals - bets + wins and never goes below zero.
   */
  async playRound(session: SimSession, bet: number): Promise<RoundResult> {
    if (!Number.isSafeInteger(bet) || bet <= 0 || bet > this.maxBet) throw new AppError(400, 'INVALID_BET');
    const outcome = spin(this.houseEdge, this.roundRandom);
    const win = bet * outcome.multiplier;
    const { gameCode, username } = session;
    return this.store.transaction().execute(async (trx) => {
      const now = nowIso(this.now());
      const row = await trx
        .updateTable('sim_players')
        .set((eb) => ({ balance: eb(eb('balance', '-', bet), '+', win), updated_at: now }))
        .where('game_code', '=', gameCode)
        .where('username', '=', username)
        .where('password_version', '=', session.passwordVersion)
        .where('balance', '>=', bet)
        .returning('balance')
        .executeTakeFirst();
      if (!row) {
        const p = await trx
          .selectFrom('sim_players')
          .select('password_version')
          .where('game_code', '=', gameCode)
          .where('username', '=', username)
          .executeTakeFirst();
        if (!p || Number(p.password_version) !== session.passwordVersion) throw new AppError(401, 'invalid-token');
        throw new AppError(422, 'MONEY_NOT_ENOUGH');
      }
      await trx.insertInto('sim_round_counters').values({ game_code: gameCode }).onConflict((oc) => oc.column('game_code').doNothing()).execute();
      const counter = await trx
        .updateTable('sim_round_counters')
        .set((eb) => ({ last_seq: eb('last_seq', '+', 1) }))
        .where('game_code', '=', gameCode)
        .returning('last_seq')
        .executeTakeFirstOrThrow();
      const seq = Number(counter.last_seq);
      const balance = Number(row.balance);
      await trx
        .insertInto('sim_rounds')
        .values({ game_code: gameCode, seq, username, bet, win, balance_after: balance, symbols: outcome.symbols.join(' '), created_at: now })
        .execute();
      return { roundId: `${gameCode}-${seq}`, bet, win, balance, symbols: outcome.symbols };
    });
  }
}

function outcomeOf(row: Pick<SimTransfersTable, 'status' | 'reason'>): TransferOutcome {
  return row.status === 'settled' ? { status: 'settled' } : { status: 'failed', reason: row.reason ?? 'FAILED' };
}
