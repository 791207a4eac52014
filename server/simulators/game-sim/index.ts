import fp from 'fastify-plugin';
import { circuitsOf } from '../../adapters/http';
import type { FastifyReply } from 'fastify';
import { badRequest, unauthorized } from '../../errors';
import { errorBody as error } from '../../lib/wire-schemas';
import type { SimSession } from '../../adapters/games/simulator';
import { PLAY_CSS, PLAY_JS } from './assets';
import { PAGE_CSP, renderExpiredPage, renderGamePage } from './page';
import type { SimLang } from './texts';

const codeParam = {
  type: 'object',
  required: ['code'],
  additionalProperties: false,
  properties: { code: { type: 'string', pattern: '^[a-z0-9_-]{1,32}$' } },
} as const;
const token = { type: 'string', minLength: 1, maxLength: 2048 } as const;
const QUICK_BETS = [1, 5, 10, 50, 100];

/** Baht with at most 2 decimals -> satang, or null. */
function toSatang(major: number): number | null {
  const s = Math.round(major * 100);
  return Number.isFinite(major) && Math.abs(s - major * 100) < 1e-6 ? s : null;
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-content-type-options', 'nosniff');
}

/**
 * When the app's game provider (app.ts) is the built-in simulator, serves the simulator's game outside the SPA:
 * the page at the launch URL, its script and stylesheet, and the round and balance calls the page makes
 * (authenticated by the launch token only, like a provider's page).
 */
export default fp(
  async (app) => {
    const sim = app.gameSim;
    if (!sim) return;
    // With the silence switch (GAME_SIM_SILENT_FILE, issue 43) the simulator's breaker is in /readyz/detail.
    if (sim.silentFile !== null) circuitsOf(app).add(sim.breaker);

    const defaultLang: SimLang = app.config.market === 'lao' ? 'la' : 'th';
    const langOf = (q: string | undefined): SimLang => (q === 'th' || q === 'la' || q === 'en' ? q : defaultLang);
    const session = async (code: string, t: string): Promise<SimSession> => {
      const s = await sim.authenticate(code, t);
      if (!s) throw unauthorized('invalid-token');
      return s;
    };

    app.get('/sim/games/play.js', { schema: { response: { 200: { type: 'string' } } } }, async (_req, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(PLAY_JS),
    );
    app.get('/sim/games/play.css', { schema: { response: { 200: { type: 'string' } } } }, async (_req, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(PLAY_CSS),
    );

    app.get<{ Params: { code: string }; Querystring: { t?: string; lang?: string } }>(
      '/sim/games/:code/play',
      {
        schema: {
          params: codeParam,
          querystring: { type: 'object', properties: { t: token, lang: { type: 'string', maxLength: 8 } } },
          response: { 200: { type: 'string' }, 401: { type: 'string' } },
        },
      },
      async (req, reply) => {
        const lang = langOf(req.query.lang);
        noStore(reply).type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP);
        const s = req.query.t ? await sim.authenticate(req.params.code, req.query.t) : null;
        if (!s) return reply.status(401).send(renderExpiredPage(lang));
        const [balance, game] = await Promise.all([
          sim.sessionBalance(s),
          app.db.selectFrom('games').select('name').where('code', '=', s.gameCode).executeTakeFirst(),
        ]);
        return reply.send(
          renderGamePage({ lang, gameCode: s.gameCode, gameName: game?.name ?? s.gameCode, username: s.username, balance, token: req.query.t!, quickBets: QUICK_BETS }),
        );
      },
    );

    app.post<{ Params: { code: string }; Body: { t: string } }>(
      '/sim/games/:code/balance',
      {
        schema: {
          params: codeParam,
          body: { type: 'object', required: ['t'], additionalProperties: false, properties: { t: token } },
          response: {
            200: { type: 'object', required: ['username', 'balance'], properties: { username: { type: 'string' }, balance: { type: 'number' } } },
            401: error,
          },
        },
      },
      async (req, reply) => {
        const s = await session(req.params.code, req.body.t);
        noStore(reply);
        return { username: s.username, balance: (await sim.sessionBalance(s)) / 100 };
      },
    );

    app.post<{ Params: { code: string }; Body: { t: string; bet: number } }>(
      '/sim/games/:code/round',
      {
        schema: {
          params: codeParam,
          body: { type: 'object', required: ['t', 'bet'], additionalProperties: false, properties: { t: token, bet: { type: 'number' } } },
          response: {
            200: {
              type: 'object',
              required: ['roundId', 'bet', 'win', 'balance', 'symbols'],
              properties: {
                roundId: { type: 'string' },
                bet: { type: 'number' },
                win: { type: 'number' },
                balance: { type: 'number' },
                symbols: { type: 'array', items: { type: 'string' } },
              },
            },
            400: error,
            401: error,
            422: error,
          },
        },
      },
      async (req, reply) => {
        const s = await session(req.params.code, req.body.t);
        const bet = toSatang(req.body.bet);
        if (bet === null || bet <= 0) throw badRequest('INVALID_BET');
        noStore(reply);
        const r = await sim.playRound(s, bet);
        return { roundId: r.roundId, bet: r.bet / 100, win: r.win / 100, balance: r.balance / 100, symbols: r.symbols };
      },
    );
  },
  { name: 'game-sim', dependencies: ['game-provider'] },
);
