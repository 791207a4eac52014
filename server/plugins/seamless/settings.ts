/**
 * The seamless wallet's settings (docs/seamless-wallet.md "Settings"), read once from the environment:
 *   SEAMLESS_PREFIX        where the Wallet API is served [/api/seamless/hub88]; the aggregator is given this base URL
 *   SEAMLESS_TOKEN_TTL_MS  how long a game session token takes bets after launch [14400000: 4 h]
 */
export interface SeamlessSettings {
  prefix: string;
  tokenTtlMs: number;
}

export function seamlessSettings(env: NodeJS.ProcessEnv = process.env): SeamlessSettings {
  const prefix = (env.SEAMLESS_PREFIX ?? '/api/seamless/hub88').replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._-]+)+$/.test(prefix)) throw new Error(`SEAMLESS_PREFIX must be a path like /api/seamless/hub88 (got ${env.SEAMLESS_PREFIX})`);
  const ttl = Number(env.SEAMLESS_TOKEN_TTL_MS ?? 4 * 3600_000);
  if (!Number.isSafeInteger(ttl) || ttl < 1000 || ttl > 7 * 24 * 3600_000) throw new Error('SEAMLESS_TOKEN_TTL_MS must be whole milliseconds, 1000 .. 7 days');
  return { prefix, tokenTtlMs: ttl };
}
