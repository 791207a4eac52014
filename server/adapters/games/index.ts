import type { Kysely } from 'kysely';
import { ConfigError, type Config } from '../../config';
import type { Dialect } from '../../db';
import type { DB } from '../../db/schema';
import { openSimStore } from './sim-store';
import { GameSimulator, type GameSimulatorOptions, type SimTimeoutMode } from './simulator';
import type { GameProvider } from './types';

export type { GameProvider } from './types';
export { GameSimulator } from './simulator';

type Env = Record<string, string | undefined>;

export interface CreateGameProviderOptions {
  /** Defaults to process.env. */
  env?: Env;
  /** Overrides of the simulator's options (tests pin seed, rates, clock...). */
  simulator?: Partial<GameSimulatorOptions>;
  /** Where the simulator keeps its own tables (sim-store.ts: its own SQLite file); defaults to `db`. */
  simStore?: Kysely<DB>;
}

function rate(env: Env, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!/^\d*\.?\d+$/.test(v) || !(n >= 0 && n <= 1)) throw new ConfigError(`${name} must be a number between 0 and 1, got "${v}"`);
  return n;
}

function whole(env: Env, name: string, max: number): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v) || Number(v) > max) throw new ConfigError(`${name} must be a whole number up to ${max}, got "${v}"`);
  return Number(v);
}

/**
 * The simulator's knobs from the environment (docs/game-provider.md). Latency defaults to 150 ms in demo
 * mode so the app feels like it talks to a remote provider, and to 0 under jest (NODE_ENV=test).
 */
export function simulatorOptionsFromEnv(config: Config, env: Env): GameSimulatorOptions {
  const mode = env.GAME_SIM_TIMEOUT_MODE || 'mixed';
  if (!['mixed', 'after-apply', 'before-apply'].includes(mode)) {
    throw new ConfigError(`GAME_SIM_TIMEOUT_MODE must be mixed, after-apply or before-apply, got "${mode}"`);
  }
  const failureRate = rate(env, 'GAME_SIM_FAILURE_RATE') ?? 0;
  const timeoutRate = rate(env, 'GAME_SIM_TIMEOUT_RATE') ?? 0;
  if (failureRate + timeoutRate > 1) throw new ConfigError('GAME_SIM_FAILURE_RATE + GAME_SIM_TIMEOUT_RATE must not exceed 1');
  const houseEdge = env.GAME_SIM_HOUSE_EDGE ? Number(env.GAME_SIM_HOUSE_EDGE) : undefined;
  if (houseEdge !== undefined && !(houseEdge >= 0 && houseEdge <= 0.5)) {
    throw new ConfigError(`GAME_SIM_HOUSE_EDGE must be between 0 and 0.5, got "${env.GAME_SIM_HOUSE_EDGE}"`);
  }
  const prefix = env.GAME_SIM_USERNAME_PREFIX;
  if (prefix !== undefined && !/^[a-z][a-z0-9]{0,11}$/.test(prefix)) {
    throw new ConfigError(`GAME_SIM_USERNAME_PREFIX must be 1-12 lower-case letters or digits, got "${prefix}"`);
  }
  return {
    // Launch tokens are signed with a key derived from JWT_SECRET (the simulator derives a separate key from it).
    secret: config.jwtSecret,
    baseUrl: (env.PUBLIC_URL ?? '').replace(/\/+$/, ''),
    latencyMs: whole(env, 'GAME_SIM_LATENCY_MS', 60_000) ?? (config.demo && env.NODE_ENV !== 'test' ? 150 : 0),
    failureRate,
    timeoutRate,
    timeoutMode: mode as SimTimeoutMode,
    seed: whole(env, 'GAME_SIM_SEED', 2 ** 31),
    houseEdge,
    usernamePrefix: prefix,
    maxBet: whole(env, 'GAME_SIM_MAX_BET', 100_000_000),
    silentFile: silentFile(env),
    callTimeoutMs: whole(env, 'GAME_SIM_CALL_TIMEOUT_MS', 60_000) || undefined,
  };
}

/** GAME_SIM_SILENT_FILE: the bench's "provider silent" switch (simulator.ts), a fault injector never set in production. */
function silentFile(env: Env): string | undefined {
  const v = env.GAME_SIM_SILENT_FILE;
  if (!v) return undefined;
  if (env.NODE_ENV === 'production') throw new ConfigError('GAME_SIM_SILENT_FILE is a test switch (the game simulator stops answering while the file exists): unset it when NODE_ENV=production');
  return v;
}

/** GAME_PROVIDER, or the simulator in demo mode, or '' (none configured). */
export function gameProviderKind(config: Config, env: Env = process.env): string {
  return env.GAME_PROVIDER || (config.demo ? 'simulator' : '');
}

/**
 * The game provider the server talks to, chosen by configuration. This is the seam for real providers:
 * GAME_PROVIDER=simulator (the default in demo mode) gives the built-in simulator; a real provider is an
 * adapter implementing GameProvider (types.ts) over its HTTP API, added as another case here and selected
 * by GAME_PROVIDER with its own settings (API URL, agent id, secret) read from the environment.
 * Outside demo mode nothing is assumed: running real money against a simulator must be a deliberate choice.
 */
export function createGameProvider(config: Config, db: Kysely<DB>, opts: CreateGameProviderOptions = {}): GameProvider {
  const env = opts.env ?? process.env;
  const kind = gameProviderKind(config, env);
  switch (kind) {
    case 'simulator': {
      const options = { ...simulatorOptionsFromEnv(config, env), catalogue: db, ...opts.simulator };
      return new GameSimulator(opts.simStore ?? db, options);
    }
    case '':
      throw new ConfigError('GAME_PROVIDER is required when DEMO is off (set GAME_PROVIDER=simulator to use the built-in simulator deliberately)');
    default:
      throw new ConfigError(`GAME_PROVIDER "${kind}" is not available; known: simulator`);
  }
}

/** The app's game provider as configured, and the simulator itself when it is the one (tests force faults through it). */
export interface AppGameProvider {
  provider: GameProvider;
  sim: GameSimulator | null;
  /** Closes the simulator's own store; null when there is none. */
  close: (() => Promise<void>) | null;
}

/**
 * Chooses the app's game provider (the simulator in demo mode). The simulator keeps its state apart from the
 * wallet's (its own SQLite file and connection): a real provider is remote, and its commits must not take the
 * wallet's writer (sim-store.ts, docs/game-provider.md).
 */
export async function openGameProvider(config: Config, walletDb: Kysely<DB>, dialect: Dialect): Promise<AppGameProvider> {
  const store = gameProviderKind(config) !== 'simulator' ? null : await openSimStore({ dialect, dataDir: config.dataDir, walletDb });
  let provider: GameProvider;
  try {
    provider = createGameProvider(config, walletDb, { simStore: store?.db });
  } catch (e) {
    await store?.destroy();
    throw e;
  }
  return { provider, sim: provider instanceof GameSimulator ? provider : null, close: store ? () => store.destroy() : null };
}
