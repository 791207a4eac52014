import type { KeyObject } from 'node:crypto';
import type { ProviderCall } from '../../lib/request-context';
import { adapterClient, type AdapterHttpSettings, type HttpClient, type LogSink } from '../http';
import { signBody } from './signature';
import { AggregatorError, type GameUrlInput } from './types';

/**
 * Hub88's Games API, the one call we make to it (docs/providers/hub88.md): `POST {HUB88_BASE_URL}/operator/generic/v2/game/url`
 * with the documented body (user, token, platform, operator_id, game_code, currency, lang, lobby_url, ip, country, and
 * sub_partner_id when the operator has one), signed with our private key: RSA-SHA256 over the exact body, base64, in
 * `X-Hub88-Signature`. Hub88 answers `200 {url}`; errors are an HTTP status with `{error: <text>}` (its "Error codes"
 * page: 400 bad parameters, 401 signature, 403 game/currency/country not enabled, 404 unknown game/currency/country or
 * operator_id, 500).
 */
export const HUB88_GAME_URL_PATH = '/operator/generic/v2/game/url';
export const HUB88_SIGNATURE_HEADER = 'x-hub88-signature';

export interface Hub88Options extends AdapterHttpSettings {
  baseUrl: string;
  operatorId: number;
  /** Our private key: Hub88 verifies with the public key we registered for operatorId. */
  privateKey: KeyObject;
  /** A brand of ours at Hub88 (HUB88_SUB_PARTNER_ID), sent only when set. */
  subPartnerId?: string;
}

/** What each documented error status means for the operator, for the error line. */
const WHY: Record<number, { reason: AggregatorError['reason']; why: string }> = {
  400: { reason: 'AGGREGATOR_REFUSED', why: 'Hub88 refused the request parameters (check the game code and the player currency)' },
  401: { reason: 'AGGREGATOR_AUTH', why: 'Hub88 refused our signature: check SEAMLESS_PRIVATE_KEY and that its public key is registered for HUB88_OPERATOR_ID' },
  403: { reason: 'AGGREGATOR_REFUSED', why: 'the currency, country or game is not enabled for our operator at Hub88' },
  404: { reason: 'AGGREGATOR_REFUSED', why: 'Hub88 does not know the game, currency or country, or HUB88_OPERATOR_ID (check games.aggregator_game_code and HUB88_BASE_URL)' },
};

/** ISO 639-1, as Hub88 takes it: the app's `la` is Lao, `lo`. */
const HUB88_LANG: Record<GameUrlInput['lang'], string> = { th: 'th', la: 'lo', en: 'en' };

export class Hub88GamesApi {
  readonly http: HttpClient;
  private readonly log?: LogSink;

  constructor(private readonly opts: Hub88Options) {
    this.log = opts.log;
    // The session token opens the player's wallet to whoever holds it, and Hub88's URL carries its own: both are
    // secrets in the log; the player's address is personal data.
    this.http = adapterClient('hub88', opts.baseUrl, opts, { mask: { token: 'secret', url: 'secret', ip: 'account' }, secrets: [] });
  }

  /** The request body, in the documented field order (the signature covers exactly these bytes). */
  body(input: GameUrlInput): Record<string, unknown> {
    return {
      user: input.user,
      token: input.token,
      ...(this.opts.subPartnerId ? { sub_partner_id: this.opts.subPartnerId } : {}),
      platform: input.platform,
      operator_id: this.opts.operatorId,
      lobby_url: input.lobbyUrl,
      lang: HUB88_LANG[input.lang],
      ip: input.ip,
      game_code: input.gameCode,
      currency: input.currency,
      country: input.country,
    };
  }

  async gameUrl(input: GameUrlInput, call?: ProviderCall): Promise<string> {
    const body = this.body(input);
    // HttpClient sends JSON.stringify(json): the same bytes as signed here.
    const signature = signBody(JSON.stringify(body), this.opts.privateKey);
    const answer = await this.http.request({
      operation: 'gameUrl',
      method: 'POST',
      path: HUB88_GAME_URL_PATH,
      headers: { [HUB88_SIGNATURE_HEADER]: signature },
      json: body,
      // Safe to send twice: the game session is keyed by our token, a second call opens the same session.
      idempotent: true,
      call,
    });
    const url = (answer.body as { url?: unknown } | null)?.url;
    if (answer.status === 200 && typeof url === 'string' && /^https:\/\/\S+$/.test(url)) return url;
    const known = WHY[answer.status];
    this.log?.error(
      { provider: 'hub88', operation: 'gameUrl', reqId: call?.requestId, status: answer.status, game: input.gameCode },
      `Hub88 gave no game URL: ${known?.why ?? (answer.status === 200 ? 'a 200 answer without an https url' : 'an answer the adapter does not know')}`,
    );
    throw new AggregatorError(known?.reason ?? 'AGGREGATOR_REFUSED', answer.status);
  }
}
