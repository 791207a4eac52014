/**
 * The seamless wallet's settings (docs/seamless-wallet.md "Settings"), read once from the environment:
 *   SEAMLESS_PREFIX        where the Wallet API is served [/api/seamless/hub88]; the aggregator is given this base URL
 *   SEAMLESS_TOKEN_TTL_MS  how long a game session token takes bets after launch [14400000: 4 h]
 *   SEAMLESS_AGGREGATOR_ADDRESSES  the aggregator's published addresses (IPs or CIDRs, comma-separated) whose Wallet
 *                          API calls the per-address rate limit lets through [none]
 */
import net from 'node:net';
import type { FastifyRequest } from 'fastify';

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

/**
 * The rate limit's exemption for the aggregator (null when no address is set): a Wallet API request (under the prefix)
 * from one of SEAMLESS_AGGREGATOR_ADDRESSES. req.ip is the client address as trustProxy reads it, so behind the
 * proxy it is the aggregator's, not the proxy's. Every other request to the Wallet API keeps the per-address limit.
 */
export function aggregatorRateLimitExemption(env: NodeJS.ProcessEnv = process.env): ((req: FastifyRequest) => boolean) | null {
  const list = (env.SEAMLESS_AGGREGATOR_ADDRESSES ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  if (!list.length) return null;
  const allowed = new net.BlockList();
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const family = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : null;
    const prefix = bits === undefined ? null : Number(bits);
    const max = family === 'ipv6' ? 128 : 32;
    if (!family || extra !== undefined || (prefix !== null && (!Number.isInteger(prefix) || prefix < 0 || prefix > max || !/^\d+$/.test(bits!)))) {
      throw new Error(`SEAMLESS_AGGREGATOR_ADDRESSES: ${entry} is not an IP address or a CIDR`);
    }
    if (prefix === null) allowed.addAddress(address, family);
    else allowed.addSubnet(address, prefix, family);
  }
  const { prefix } = seamlessSettings(env);
  return (req) => {
    if (req.method !== 'POST' || !req.url.startsWith(`${prefix}/`)) return false;
    const ip = req.ip.startsWith('::ffff:') && net.isIPv4(req.ip.slice(7)) ? req.ip.slice(7) : req.ip;
    return allowed.check(ip, net.isIPv6(ip) ? 'ipv6' : 'ipv4');
  };
}
