import type { KeyObject } from 'node:crypto';
import { keyFromPem, signBody, verifyBody } from './signature';
import { SIM_AGGREGATOR_PUBLIC, SIM_OPERATOR_PRIVATE } from './sim-keys';
import type { GameUrlInput, SeamlessAggregator } from './types';

export type { GameUrlInput, SeamlessAggregator } from './types';
export { signBody, verifyBody, keyFromPem } from './signature';

/**
 * Picks the seamless aggregator from the environment (docs/seamless-wallet.md "Settings"):
 *   SEAMLESS_AGGREGATOR = simulator (default outside production) | hub88 | off (default in production)
 *   hub88: HUB88_OPERATOR_ID, HUB88_PUBLIC_KEY (Hub88's key, PEM or a file), SEAMLESS_PRIVATE_KEY (ours), HUB88_BASE_URL.
 * Returns null when off: no seamless route answers and seamless games are not offered.
 */
export function openAggregator(env: NodeJS.ProcessEnv = process.env): SeamlessAggregator | null {
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
    need('HUB88_BASE_URL');
    // The Games API call (POST /operator/generic/v2/game/url) is built by the Hub88 adapter (hub88.ts).
    return keyedAggregator('hub88', operatorId, false, theirs, ours, async () => {
      throw new Error('the Hub88 Games API adapter is not built yet');
    });
  }
  throw new Error(`SEAMLESS_AGGREGATOR must be simulator, hub88 or off (got ${choice})`);
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
    sign: (body) => signBody(body, ours),
    gameUrl,
  };
}

/** The simulator's game page (server/simulators/hub88-sim), same origin. */
function simGameUrl(input: GameUrlInput): string {
  const q = new URLSearchParams({ token: input.token, game: input.gameCode, lang: input.lang, currency: input.currency, lobby: input.lobbyUrl });
  return `/sim/hub88/game?${q.toString()}`;
}
