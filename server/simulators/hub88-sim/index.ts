import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AddressInfo } from 'node:net';
import { keyFromPem } from '../../adapters/aggregator/signature';
import { SIM_AGGREGATOR_PRIVATE, SIM_OPERATOR_PUBLIC } from '../../adapters/aggregator/sim-keys';
import { seamlessSettings } from '../../plugins/seamless/settings';
import { errorBody as error } from '../../lib/wire-schemas';
import { Hub88Driver, httpSend, type Hub88SimOptions, type WalletSend } from './driver';
import { HUB88_PLAY_CSS, HUB88_PLAY_JS } from './assets';
import { HUB88_PAGE_CSP, renderHub88Expired, renderHub88Page } from './page';
import type { Hub88SimLang } from './texts';

export { Hub88Driver, playRound, httpSend, SIM_UNITS_PER_SATANG, type CallRecord, type Hub88SimOptions, type RoundInput, type RoundOutcome, type RoundResult, type WalletSend, type WireAnswer } from './driver';

declare module 'fastify' {
  interface FastifyInstance {
    /** The aggregator simulator's driver when app.aggregator is the simulator (bench, e2e, tests drive rounds with it); else null. */
    hub88Sim: Hub88Driver | null;
  }
}

/** The stakes the demo slot offers, satang (1, 5, 10, 50, 100 baht or kip). */
export const HUB88_SIM_STAKES = [100, 500, 1000, 5000, 10000] as const;

/** Names of the simulator's games by their aggregator game code (the seed's demo game); any other code shows its code. */
const SIM_GAME_NAMES: Record<string, string> = { sim_dragon_rising: 'Dragon Rising' };

/** A send through app.inject: the same routes, hooks and signatures as over HTTP, without a socket (tests, an app not listening). */
export function injectSend(app: FastifyInstance): WalletSend {
  return async (path, rawBody, headers) => {
    const res = await app.inject({ method: 'POST', url: path, payload: rawBody, headers });
    const sig = res.headers['x-hub88-signature'];
    return { status: res.statusCode, body: res.body, signature: typeof sig === 'string' ? sig : undefined };
  };
}

/** The server's own listening address, as a loopback URL (a wildcard bind is reached on loopback). */
function ownAddress(app: FastifyInstance): string | null {
  if (!app.server.listening) return null;
  const a = app.server.address() as AddressInfo | string | null;
  if (!a || typeof a === 'string') return null;
  const host = a.address === '0.0.0.0' ? '127.0.0.1' : a.address === '::' ? '[::1]' : a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return `http://${host}:${a.port}`;
}

/**
 * The simulator's settings (docs/seamless-wallet.md "Launch and the simulator"):
 *   HUB88_SIM_FAIL_RATE   share of Wallet API answers "lost" after the server processed them, retried with the same
 *                         transaction_uuid (a bet still unanswered after its retries is rolled back) [0], 0 .. 1
 *   HUB88_SIM_DELAY_MS    latency before each Wallet API call [0], 0 .. 10000
 *   HUB88_SIM_TIMEOUT_MS  the longest wait for an answer; a later one counts as lost [5000], 100 .. 60000
 *   HUB88_SIM_SEED        seed of the results and of the failures [random]
 */
export function hub88SimSettings(env: NodeJS.ProcessEnv = process.env): Pick<Hub88SimOptions, 'failRate' | 'delayMs' | 'timeoutMs' | 'seed'> {
  const num = (name: string, def: number, min: number, max: number, whole: boolean): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isSafeInteger(n))) throw new Error(`${name} must be ${whole ? 'a whole number' : 'a number'} ${min} .. ${max} (got ${raw})`);
    return n;
  };
  const seed = env.HUB88_SIM_SEED ? num('HUB88_SIM_SEED', 0, 0, 2 ** 31 - 1, true) : undefined;
  return { failRate: num('HUB88_SIM_FAIL_RATE', 0, 0, 1, false), delayMs: num('HUB88_SIM_DELAY_MS', 0, 0, 10_000, true), timeoutMs: num('HUB88_SIM_TIMEOUT_MS', 5000, 100, 60_000, true), seed };
}

const noStore = (reply: FastifyReply): FastifyReply =>
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-content-type-options', 'nosniff');

/** The lobby link, only when it is a path of this origin or an http(s) URL (never javascript: or another scheme). */
const safeLobby = (lobby: string | undefined): string | null => (lobby && (/^\/(?!\/)/.test(lobby) || /^https?:\/\/[^\s]+$/.test(lobby)) ? lobby : null);

const sessionFields = {
  token: { type: 'string', pattern: '^[A-Za-z0-9_-]{10,255}$' },
  user: { type: 'string', pattern: '^[A-Za-z0-9_-]{3,64}$' },
  game: { type: 'string', pattern: '^[a-z0-9_-]{1,128}$' },
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
} as const;

/**
 * The aggregator simulator (issue 42): when app.aggregator is the simulator, serves the game page the launch link opens
 * (GET /sim/hub88/game) and plays its rounds (POST /sim/hub88/spin) by driving our own Wallet API like Hub88 would,
 * signed with the simulator's key, over real HTTP to this server's listening address (app.inject when it is not
 * listening, as in tests).
 */
export default fp(
  async (app: FastifyInstance, opts: { send?: WalletSend }) => {
    if (!app.aggregator?.simulated) {
      app.decorate('hub88Sim', null);
      return;
    }

    const inject = injectSend(app);
    let http: { base: string; send: WalletSend } | null = null;
    const send: WalletSend =
      opts.send ??
      ((path, raw, headers) => {
        const base = ownAddress(app);
        if (!base) return inject(path, raw, headers);
        if (http?.base !== base) http = { base, send: httpSend(base) };
        return http.send(path, raw, headers);
      });
    const driver = new Hub88Driver({
      send,
      prefix: seamlessSettings(process.env).prefix,
      privateKey: keyFromPem(SIM_AGGREGATOR_PRIVATE, 'private'),
      operatorPublicKey: keyFromPem(SIM_OPERATOR_PUBLIC, 'public'),
      ...hub88SimSettings(process.env),
    });
    app.decorate('hub88Sim', driver);

    const defaultLang: Hub88SimLang = app.config.market === 'lao' ? 'la' : 'th';
    const langOf = (q: string | undefined): Hub88SimLang => (q === 'th' || q === 'la' || q === 'en' ? q : defaultLang);

    app.get('/sim/hub88/play.js', { schema: { response: { 200: { type: 'string' } } } }, async (_req, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(HUB88_PLAY_JS),
    );
    app.get('/sim/hub88/play.css', { schema: { response: { 200: { type: 'string' } } } }, async (_req, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(HUB88_PLAY_CSS),
    );

    app.get<{ Querystring: { token: string; user: string; game: string; currency: string; lang?: string; lobby?: string } }>(
      '/sim/hub88/game',
      {
        schema: {
          querystring: {
            type: 'object',
            required: ['token', 'user', 'game', 'currency'],
            properties: { ...sessionFields, lang: { type: 'string', maxLength: 8 }, lobby: { type: 'string', maxLength: 512 } },
          },
          response: { 200: { type: 'string' }, 401: { type: 'string' } },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const lang = langOf(q.lang);
        const lobby = safeLobby(q.lobby);
        noStore(reply).type('text/html; charset=utf-8').header('content-security-policy', HUB88_PAGE_CSP);
        // Like Hub88 opening a game: the balance first, which also tells whether the token is ours.
        const b = await driver.balance(q.user, q.token, q.game);
        if (b.status === 'RS_ERROR_INVALID_TOKEN' || b.status === 'RS_ERROR_TOKEN_EXPIRED') return reply.status(401).send(renderHub88Expired(lang, lobby));
        return reply.send(
          renderHub88Page({ lang, gameName: SIM_GAME_NAMES[q.game] ?? q.game, game: q.game, user: q.user, token: q.token, currency: q.currency, balance: b.balance, stakes: [...HUB88_SIM_STAKES], lobby }),
        );
      },
    );

    const roundAnswer = {
      type: 'object',
      required: ['round', 'outcome', 'stake', 'win', 'balance', 'symbols', 'status'],
      properties: {
        round: { type: 'string' },
        outcome: { type: 'string', enum: ['settled', 'refused', 'rolled_back', 'unsettled', 'failed'] },
        stake: { type: 'integer' },
        win: { type: 'integer' },
        balance: { type: ['integer', 'null'] },
        symbols: { type: 'array', items: { type: 'string' } },
        status: { type: ['string', 'null'] },
      },
    } as const;
    app.post<{ Body: { token: string; user: string; game: string; currency: string; stake: number } }>(
      '/sim/hub88/spin',
      {
        schema: {
          body: {
            type: 'object',
            required: ['token', 'user', 'game', 'currency', 'stake'],
            additionalProperties: false,
            properties: { ...sessionFields, stake: { type: 'integer', enum: [...HUB88_SIM_STAKES] } },
          },
          response: { 200: roundAnswer, 400: error },
        },
      },
      async (req, reply) => {
        noStore(reply);
        const b = req.body;
        const r = await driver.playRound({ user: b.user, token: b.token, game: b.game, currency: b.currency, stake: b.stake });
        // Amounts in satang; the page formats them. The call log stays on the server (it names transaction ids).
        return { round: r.round, outcome: r.outcome, stake: r.stake, win: r.win, balance: r.balance, symbols: r.symbols, status: r.status };
      },
    );
  },
  { name: 'hub88-sim', dependencies: ['seamless'] },
);
