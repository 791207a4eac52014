import crypto from 'node:crypto';
import { AggregatorError, Hub88GamesApi, HUB88_GAME_URL_PATH, openAggregator, signBody, verifyBody, type GameUrlInput } from '.';
import { ProviderCallError, ProviderTimeoutError, ProviderUnavailable } from '../http';
import { capturedLog } from '../../test/support/fakes/fake-server';
import { HUB88_DOC_ERRORS, startHub88Fake, type Hub88ErrorCode, type Hub88Fake } from '../../test/support/fakes/hub88';

/** Hub88's Games API adapter over real HTTP against its contract fake (docs/providers/hub88.md). */
const pair = (): { privatePem: string; publicPem: string } => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
};
const ours = pair();
const hub88s = pair();
let fake: Hub88Fake;
beforeAll(async () => {
  fake = await startHub88Fake({ operatorPublicKey: ours.publicPem, operatorId: 4242 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const api = (over: Partial<ConstructorParameters<typeof Hub88GamesApi>[0]> = {}) =>
  new Hub88GamesApi({ baseUrl: fake.url, operatorId: 4242, privateKey: crypto.createPrivateKey(ours.privatePem), timeoutMs: 300, backoffMs: 1, ...over });
const input = (over: Partial<GameUrlInput> = {}): GameUrlInput => ({
  user: 'u000042',
  token: 'a'.repeat(64),
  gameCode: 'clt_dragonrising',
  currency: 'THB',
  lang: 'th',
  platform: 'GPL_DESKTOP',
  lobbyUrl: 'https://wallet.example/user/home',
  ip: '203.0.113.45',
  country: 'TH',
  ...over,
});
const failure = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('resolved');
};

test('gameUrl: POST /operator/generic/v2/game/url with the documented body, signed with our key -> the url Hub88 answers', async () => {
  const url = await api().gameUrl(input({ lang: 'la', platform: 'GPL_MOBILE' }), { requestId: 'r-42' });
  expect(fake.requests).toHaveLength(1);
  const [req] = fake.requests;
  expect([req.method, req.path]).toEqual(['POST', HUB88_GAME_URL_PATH]);
  expect(req.body).toEqual({
    user: 'u000042',
    token: 'a'.repeat(64),
    platform: 'GPL_MOBILE',
    operator_id: 4242,
    lobby_url: 'https://wallet.example/user/home',
    lang: 'lo', // ISO 639-1 for Lao
    ip: '203.0.113.45',
    game_code: 'clt_dragonrising',
    currency: 'THB',
    country: 'TH',
  });
  // The signature is over exactly the bytes sent, and verifies with our public key.
  expect(verifyBody(req.raw, String(req.headers['x-hub88-signature']), crypto.createPublicKey(ours.publicPem))).toBe(true);
  expect(req.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': 'r-42' });
  expect(url).toBe(fake.launched.get('a'.repeat(64)));
  expect(url).toMatch(/^https:\/\/games\.hub88-fake\.example\/launch\/clt_dragonrising\?/);
});

test('sub_partner_id is sent only when HUB88_SUB_PARTNER_ID is set', async () => {
  await api().gameUrl(input());
  expect(fake.requests[0].body).not.toHaveProperty('sub_partner_id');
  await api({ subPartnerId: 'wallet-th' }).gameUrl(input());
  expect(fake.requests[1].body).toMatchObject({ sub_partner_id: 'wallet-th' });
});

test('each documented error to our reason, with an error line naming what to check; a 4xx is not retried', async () => {
  const { sink, lines } = capturedLog();
  const cases: [Hub88ErrorCode, AggregatorError['reason'], RegExp][] = [
    ['bad_request', 'AGGREGATOR_REFUSED', /request parameters/],
    ['signature', 'AGGREGATOR_AUTH', /SEAMLESS_PRIVATE_KEY/],
    ['not_enabled', 'AGGREGATOR_REFUSED', /not enabled/],
    ['not_found', 'AGGREGATOR_REFUSED', /aggregator_game_code/],
  ];
  for (const [code, reason, why] of cases) {
    fake.reset();
    fake.failWith(code);
    const e = await failure(api({ log: sink }).gameUrl(input()));
    expect([code, e]).toEqual([code, expect.any(AggregatorError)]);
    expect([code, (e as AggregatorError).reason, (e as AggregatorError).status]).toEqual([code, reason, HUB88_DOC_ERRORS[code].status]);
    expect(fake.requests).toHaveLength(1);
    expect(lines.at(-1)).toMatch(why);
  }
  // A key Hub88 does not have for us: the fake's own signature check.
  fake.reset();
  const wrongKey = await failure(api({ privateKey: crypto.createPrivateKey(hub88s.privatePem) }).gameUrl(input()));
  expect((wrongKey as AggregatorError).reason).toBe('AGGREGATOR_AUTH');
  // A game the operator has not enabled, an operator id Hub88 does not know.
  expect((await failure(api().gameUrl(input({ gameCode: 'nope_game' })))) as AggregatorError).toMatchObject({ reason: 'AGGREGATOR_REFUSED', status: 404 });
  expect((await failure(api({ operatorId: 1 }).gameUrl(input()))) as AggregatorError).toMatchObject({ reason: 'AGGREGATOR_REFUSED', status: 404 });
});

test('a 200 without an https url is refused, not handed to the player', async () => {
  for (const body of [{}, { url: 'javascript:alert(1)' }, { url: 'http://plain.example/x' }, { url: 42 }]) {
    const g = api({ fetch: async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }) });
    expect((await failure(g.gameUrl(input()))) as AggregatorError).toMatchObject({ reason: 'AGGREGATOR_REFUSED', status: 200 });
  }
});

test('timeouts and 5xx: retried once (same token, same session), then the shared client errors; five failed calls open the circuit', async () => {
  fake.mode = 'timeout';
  const g = api({ timeoutMs: 100 });
  expect(await failure(g.gameUrl(input()))).toBeInstanceOf(ProviderTimeoutError);
  expect(fake.requests).toHaveLength(2);
  expect(fake.requests[0].raw).toBe(fake.requests[1].raw);

  fake.reset();
  fake.mode = 'down';
  const e = await failure(g.gameUrl(input()));
  expect(e).toBeInstanceOf(ProviderCallError);
  expect((e as ProviderCallError).status).toBe(500);
  expect(fake.requests).toHaveLength(2);

  // Three more failed calls: five in a row open the breaker, and the next call is refused without being sent.
  for (let i = 0; i < 3; i++) await failure(g.gameUrl(input()));
  fake.reset();
  expect(await failure(g.gameUrl(input()))).toBeInstanceOf(ProviderUnavailable);
  expect(fake.requests).toHaveLength(0);
  expect(g.http.breaker.state).toBe('open');
});

test('the slow mode within the timeout still answers', async () => {
  fake.mode = 'slow';
  fake.slowMs = 50;
  expect(await api({ timeoutMs: 1000 }).gameUrl(input())).toMatch(/^https:/);
});

test('the log: one line per attempt, with neither the session token nor the game URL, and the address masked', async () => {
  const { sink, lines } = capturedLog();
  const url = await api({ log: sink }).gameUrl(input());
  const all = lines.join('\n');
  expect(lines.length).toBeGreaterThanOrEqual(1);
  expect(all).toContain('provider call');
  expect(all).not.toContain('a'.repeat(64));
  expect(all).not.toContain(url);
  expect(all).not.toContain('203.0.113.45');
  expect(all).toContain('[secret]');
});

describe('openAggregator(SEAMLESS_AGGREGATOR=hub88)', () => {
  const env = (over: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => ({
    SEAMLESS_AGGREGATOR: 'hub88',
    HUB88_OPERATOR_ID: '4242',
    HUB88_PUBLIC_KEY: hub88s.publicPem,
    SEAMLESS_PRIVATE_KEY: ours.privatePem,
    HUB88_BASE_URL: fake.url,
    HUB88_TIMEOUT_MS: '500',
    ...over,
  });

  test('the game URL goes through the real adapter, signed with SEAMLESS_PRIVATE_KEY; the breaker is exposed', async () => {
    const a = openAggregator(env())!;
    expect(a).toMatchObject({ name: 'hub88', operatorId: 4242, simulated: false });
    expect(a.breaker?.state).toBe('closed');
    const url = await a.gameUrl(input());
    expect(url).toBe(fake.launched.get('a'.repeat(64)));
    // The Wallet API side: Hub88's signatures verify with HUB88_PUBLIC_KEY; our answers are signed with our key.
    const body = '{"user":"u000042","request_uuid":"x"}';
    expect(a.verify(body, signBody(body, crypto.createPrivateKey(hub88s.privatePem)))).toBe(true);
    expect(a.verify(body, signBody(body, crypto.createPrivateKey(ours.privatePem)))).toBe(false);
    expect(verifyBody(body, await a.sign(body), crypto.createPublicKey(ours.publicPem))).toBe(true);
  });

  test('missing or malformed settings stop the start with the setting named', () => {
    for (const name of ['HUB88_OPERATOR_ID', 'HUB88_PUBLIC_KEY', 'SEAMLESS_PRIVATE_KEY', 'HUB88_BASE_URL']) {
      expect(() => openAggregator(env({ [name]: undefined }))).toThrow(name);
    }
    expect(() => openAggregator(env({ HUB88_BASE_URL: 'ftp://x' }))).toThrow('HUB88_BASE_URL');
    expect(() => openAggregator(env({ HUB88_TIMEOUT_MS: '5' }))).toThrow('HUB88_TIMEOUT_MS');
    expect(() => openAggregator(env({ HUB88_OPERATOR_ID: 'abc' }))).toThrow('HUB88_OPERATOR_ID');
  });
});
