import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../errors';
import { callOf } from '../../lib/request-context';
import { errors } from '../../lib/wire-schemas';
import { nowIso } from '../../db';
import type { GameUrlInput } from '../../adapters/aggregator';
import { seamlessSettings } from './settings';
import { seamlessUserId } from './users';

/**
 * The player's launch of a seamless game (issue 42, docs/seamless-wallet.md "Launch and the simulator"):
 * `GET /api/seamless/launch/:code` -> `{ link }`, the aggregator's game URL for a new game session token.
 *
 * The token's row is written BEFORE the aggregator is asked for the URL: Hub88 may call our Wallet API with it
 * (user info, balance) while it prepares the game, before its answer reaches us. If the call fails, the row is deleted
 * again, so no token stays valid that no game was opened with; a row whose delete failed too only expires (it holds
 * no money and is refused once expires_at passes).
 */
const params = {
  type: 'object',
  required: ['code'],
  additionalProperties: false,
  properties: { code: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' } },
} as const;
const query = {
  type: 'object',
  additionalProperties: false,
  properties: {
    lang: { type: 'string', enum: ['th', 'la', 'en'] },
    platform: { type: 'string', enum: ['desktop', 'mobile'] },
  },
} as const;
const linkResponse = { type: 'object', required: ['link'], properties: { link: { type: 'string' } } } as const;

/** The lobby the game's "home" button returns to: the SPA's home, on the origin the player came from. */
const LOBBY_PATH = '/user/home';

/** The player's country for the aggregator (ISO 3166-1 alpha-2), from the wallet's currency. */
function countryOf(currency: string, market: 'th' | 'lao'): string {
  if (currency === 'LAK') return 'LA';
  if (currency === 'THB') return 'TH';
  return market === 'lao' ? 'LA' : 'TH';
}

export default async function launch(app: FastifyInstance): Promise<void> {
  const settings = seamlessSettings(process.env);
  const defaultLang: GameUrlInput['lang'] = app.config.market === 'lao' ? 'la' : 'th';

  app.get<{ Params: { code: string }; Querystring: { lang?: GameUrlInput['lang']; platform?: 'desktop' | 'mobile' } }>(
    '/api/seamless/launch/:code',
    {
      onRequest: app.authenticate,
      config: { play: true },
      schema: { params, querystring: query, response: { 200: linkResponse, ...errors } },
    },
    async (req) => {
      const aggregator = app.aggregator;
      if (!aggregator) throw new AppError(503, 'SEAMLESS_OFF');
      const game = await app.db
        .selectFrom('games')
        .select(['code', 'aggregator_game_code'])
        .where('code', '=', req.params.code)
        .where('active', '=', 1)
        .where('wallet_mode', '=', 'seamless')
        .where('aggregator', '=', aggregator.name)
        .executeTakeFirst();
      if (!game || !game.aggregator_game_code) throw notFound('NO_GAME');
      const player = await app.db.selectFrom('players').select(['currency']).where('id', '=', req.playerId).executeTakeFirst();
      if (!player) throw notFound('NO_USER');

      const now = app.clock.now();
      const token = crypto.randomBytes(32).toString('hex');
      await app.db
        .insertInto('seamless_sessions')
        .values({
          token,
          player_id: req.playerId,
          game_code: game.code,
          aggregator: aggregator.name,
          currency: player.currency,
          session_id: req.sessionId ?? null,
          created_at: nowIso(now),
          expires_at: nowIso(new Date(now.getTime() + settings.tokenTtlMs)),
        })
        .execute();

      const input: GameUrlInput = {
        user: seamlessUserId(req.playerId),
        token,
        gameCode: game.aggregator_game_code,
        currency: player.currency,
        lang: req.query.lang ?? defaultLang,
        platform: req.query.platform === 'mobile' ? 'GPL_MOBILE' : 'GPL_DESKTOP',
        lobbyUrl: lobbyUrlOf(req, aggregator.simulated),
        ip: req.ip,
        country: countryOf(player.currency, app.config.market),
      };
      try {
        return { link: await aggregator.gameUrl(input, callOf(req)) };
      } catch (e) {
        await app.db.deleteFrom('seamless_sessions').where('token', '=', token).execute().catch(() => undefined);
        // The adapter logged the call (masked); this line says which launch it failed and why, without the token.
        req.log.warn({ game: game.code, aggregator: aggregator.name, error: (e as Error).name, reason: (e as { reason?: string }).reason }, 'seamless launch: the aggregator gave no game URL');
        // Circuit open (nothing was sent): 503; any other failure of the call: 502. The code is the one the SPA already
        // shows for a game that would not open (the transfer games' auto-login), so the player gets a translated text.
        const unavailable = (e as Error).name === 'ProviderUnavailable';
        throw new AppError(unavailable ? 503 : 502, 'GAME_ACTIVATION_FAIL');
      }
    },
  );
}

/**
 * The simulator's page is on our own origin, so a path does; Hub88 needs an absolute URL. The origin is the request's
 * (behind a proxy, TRUST_PROXY makes it the player's), never a configured one that could be stale.
 */
function lobbyUrlOf(req: FastifyRequest, simulated: boolean): string {
  if (simulated) return LOBBY_PATH;
  return `${req.protocol}://${req.host}${LOBBY_PATH}`;
}
