import { signBody, keyFromPem } from '../../adapters/aggregator';
import { SIM_AGGREGATOR_PRIVATE } from '../../adapters/aggregator/sim-keys';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { balanceBody, seamlessPlayer, type SeamlessPlayer } from '../../test/support/seamless';
import { aggregatorRateLimitExemption } from './settings';

/**
 * The aggregator sends every player's bets from a few published addresses, so the per-address rate limit would stop the
 * game for everyone at RATE_LIMIT_PER_MINUTE calls a minute. SEAMLESS_AGGREGATOR_ADDRESSES lets its Wallet API calls
 * through (docs/seamless-wallet.md "Settings"); nothing else changes.
 */
const LIMIT = 300;
const key = keyFromPem(SIM_AGGREGATOR_PRIVATE, 'private');
let t: TestApp;
let p: SeamlessPlayer;
const saved = process.env.SEAMLESS_AGGREGATOR_ADDRESSES;

beforeAll(async () => {
  process.env.SEAMLESS_AGGREGATOR_ADDRESSES = '10.1.0.0/16, 2001:db8::7';
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  p = await seamlessPlayer(t.app, { balance: 1000 });
});
afterAll(async () => {
  if (saved === undefined) delete process.env.SEAMLESS_AGGREGATOR_ADDRESSES;
  else process.env.SEAMLESS_AGGREGATOR_ADDRESSES = saved;
  await t?.close();
});

const balance = (remoteAddress: string) => {
  const text = JSON.stringify(balanceBody(p));
  return t.app.inject({
    method: 'POST',
    url: '/api/seamless/hub88/user/balance',
    remoteAddress,
    headers: { 'content-type': 'application/json', 'x-hub88-signature': signBody(text, key) },
    payload: text,
  });
};

async function statuses(n: number, send: () => Promise<{ statusCode: number }>): Promise<Map<number, number>> {
  const seen = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const { statusCode } = await send();
    seen.set(statusCode, (seen.get(statusCode) ?? 0) + 1);
  }
  return seen;
}

test("the aggregator's listed addresses are not held to the per-address limit on the Wallet API", async () => {
  expect(await statuses(LIMIT + 20, () => balance('10.1.200.3'))).toEqual(new Map([[200, LIMIT + 20]]));
  expect(await statuses(LIMIT + 5, () => balance('2001:db8::7'))).toEqual(new Map([[200, LIMIT + 5]]));
});

test('an address not on the list keeps the limit on the Wallet API, and a listed one keeps it on every other route', async () => {
  const other = await statuses(LIMIT + 5, () => balance('10.2.0.1'));
  expect(other.get(200)).toBe(LIMIT);
  expect(other.get(429)).toBe(5);
  const lookups = await statuses(LIMIT + 5, () => t.app.inject({ method: 'GET', url: '/api/lookup/info', remoteAddress: '10.1.0.9' }));
  expect(lookups.get(429)).toBe(5);
});

test('SEAMLESS_AGGREGATOR_ADDRESSES is read strictly: no list, no exemption; a bad entry stops the start', () => {
  expect(aggregatorRateLimitExemption({})).toBeNull();
  for (const bad of ['10.1.0.0/33', 'hub88.com', '10.1.0.0/16/2', '10.1.0.0/x', '::1/129']) {
    expect(() => aggregatorRateLimitExemption({ SEAMLESS_AGGREGATOR_ADDRESSES: bad })).toThrow(/SEAMLESS_AGGREGATOR_ADDRESSES/);
  }
  const exempt = aggregatorRateLimitExemption({ SEAMLESS_AGGREGATOR_ADDRESSES: '203.0.113.5' })!;
  const req = (method: string, url: string, ip: string) => ({ method, url, ip }) as never;
  expect(exempt(req('POST', '/api/seamless/hub88/transaction/bet', '203.0.113.5'))).toBe(true);
  expect(exempt(req('POST', '/api/seamless/hub88/transaction/bet', '::ffff:203.0.113.5'))).toBe(true);
  expect(exempt(req('POST', '/api/seamless/hub88/transaction/bet', '203.0.113.6'))).toBe(false);
  expect(exempt(req('GET', '/api/wallet', '203.0.113.5'))).toBe(false);
  expect(exempt(req('POST', '/api/seamless/hub88x/transaction/bet', '203.0.113.5'))).toBe(false);
});
