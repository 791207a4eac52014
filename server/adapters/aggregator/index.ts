import type { KeyObject } from 'node:crypto';
import { keyFromPem, signBodyAsync, verifyBody } from './signature';
import { SIM_AGGREGATOR_PUBLIC, SIM_OPERATOR_PRIVATE } from './sim-keys';
import type { GameUrlInput, SeamlessAggregator } from './types';
import { Hub88GamesApi } from './hub88';
import type { AdapterHttpSettings } from '../http';

export type { GameUrlInput, SeamlessAggregator } from './types';
export { AggregatorError } from './types';
export { signBody, signBodyAsync, verifyBody, keyFromPem } from './signature';
export { Hub88GamesApi, HUB88_GAME_URL_PATH, HUB88_SIGNATURE_HEADER, type Hub88Options } from './hub88';

/** What the app gives the real adapter's HTTP client: its log, its breaker's gauge, a fetch (tests). */
export type AggregatorDeps = Pick<AdapterHttpSettings, 'log' | 'breaker' | 'fetch'>;

/**
 * Picks the seamless aggregator from the environment (docs/seamless-wallet.md "Settings"):
 *   SEAMLESS_AGGREGATOR = simulator (default outside production) | hub88 | off (default in production)
 *   hub88: HUB88_OPERATOR_ID, HUB88_PUBLIC_KEY (Hub88's key, PEM or a file), SEAMLESS_PRIVATE_KEY (ours), HUB88_BASE_URL;
 *          optional HUB88_SUB_PARTNER_ID, HUB88_TIMEOUT_MS (the game URL call, per attempt, default 8000) (docs/providers/hub88.md).
 * Returns null when off: no seamless route answers and seamless games are not offered.
 */
/** The names SEAMLESS_AGGREGATOR takes (the operator check lists the same: server/cli/operator-check.ts). */
export const SEAMLESS_AGGREGATORS = ['simulator', 'hub88', 'off'] as const;

export function openAggregator(env: NodeJS.ProcessEnv = process.env, deps: AggregatorDeps = {}): SeamlessAggregator | null {
  const production = env.NODE_ENV === 'production';
  const choice = env.SEAMLESS_AGGREGATOR ?? (production ? 'off' : 'simulator');
  if (choice === 'off') return null;
  if (choice === 'simulator') {
    if (production) throw new Error('SEAMLESS_AGGREGATOR=simulator is refused with NODE_ENV=production: its keys are public');
    return keyedAggregator('hub88', 1, true, keyFromPem(SIM_AGGREGATOR_PUBLIC, 'public'), keyFromPem(SIM_OPERATOR_PRIVATE, 'private'), async (input) => simGameUrl(input));
  }
  if (choice === 'hub88') {
    const need = (name: string) => {
      const v = env[name];
      if (!v) throw new Error(`SEAMLESS_AGGREGATOR=hub88 needs ${name}`);
      return v;
    };
    const operatorId = Number(need('HUB88_OPERATOR_ID'));
    if (!Number.isSafeInteger(operatorId) || operatorId <= 0) throw new Error('HUB88_OPERATOR_ID must be a positive integer');
    const theirs = keyFromPem(need('HUB88_PUBLIC_KEY'), 'public');
    const ours = keyFromPem(need('SEAMLESS_PRIVATE_KEY'), 'private');
    const baseUrl = need('HUB88_BASE_URL');
    if (!/^https?:\/\/[^/\s]+/.test(baseUrl)) throw new Error(`HUB88_BASE_URL must be an http(s) URL (got ${baseUrl})`);
    const timeoutMs = env.HUB88_TIMEOUT_MS === undefined ? undefined : Number(env.HUB88_TIMEOUT_MS);
    if (timeoutMs !== undefined && (!Number.isSafeInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000)) throw new Error('HUB88_TIMEOUT_MS must be whole milliseconds, 100 .. 60000');
    const games = new Hub88GamesApi({ ...deps, baseUrl, operatorId, privateKey: ours, subPartnerId: env.HUB88_SUB_PARTNER_ID || undefined, timeoutMs });
    return { ...keyedAggregator('hub88', operatorId, false, theirs, ours, (input, call) => games.gameUrl(input, call)), breaker: games.http.breaker };
  }
  throw new Error(`SEAMLESS_AGGREGATOR "${choice}" is not available; known: ${SEAMLESS_AGGREGATORS.join(', ')}`);
}

function keyedAggregator(
  name: string,
  operatorId: number,
  simulated: boolean,
  theirs: KeyObject,
  ours: KeyObject,
  gameUrl: SeamlessAggregator['gameUrl'],
): SeamlessAggregator {
  return {
    name,
    operatorId,
    simulated,
    verify: (raw, signature) => verifyBody(raw, signature, theirs),
    sign: (body) => signBodyAsync(body, ours),
    gameUrl,
  };
}

/**
 * The simulator's game page (server/simulators/hub88-sim), same origin. It keeps no sessions of its own (every process
 * of a cluster must open any game), so the URL carries what Hub88 would have kept from our game URL call: the user too.
 */
function simGameUrl(input: GameUrlInput): string {
  const q = new URLSearchParams({ token: input.token, user: input.user, game: input.gameCode, lang: input.lang, currency: input.currency, lobby: input.lobbyUrl });
  return `/sim/hub88/game?${q.toString()}`;
}
