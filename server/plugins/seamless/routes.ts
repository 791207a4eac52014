import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { seamlessSettings } from './settings';
import { keepRawBody, rawBody } from './raw-body';
import { RS, type RsStatus } from './statuses';
import { balanceRequest, betRequest, infoRequest, rollbackRequest, walletAnswerSchema, winRequest, type Checked } from './schemas';
import { bet, rollback, userBalance, userInfo, win, type SeamlessDeps } from './service';

/**
 * The aggregator's Wallet API (Hub88's Operator "Wallet API", docs/seamless-wallet.md): POST under SEAMLESS_PREFIX,
 * every request signed by the aggregator and every answer by us (X-Hub88-Signature), every answer HTTP 200 with a
 * Hub88 status. Not registered when no aggregator is chosen (SEAMLESS_AGGREGATOR=off): the paths are 404.
 * No player token: the aggregator's signature is the authentication.
 */
export default async function walletApi(app: FastifyInstance): Promise<void> {
  const aggregator = app.aggregator;
  if (!aggregator) return;
  const { prefix } = seamlessSettings(process.env);
  keepRawBody(app);
  const deps: SeamlessDeps = { db: app.db, aggregator, now: () => app.clock.now(), minuteMs: app.config.playMinuteMs, log: app.log };

  /** The answer as the very text we sign: the signature covers these bytes. */
  const send = async (reply: FastifyReply, body: object) => {
    const text = JSON.stringify(body);
    const signature = await aggregator.sign(text);
    return reply.code(200).header('x-hub88-signature', signature).type('application/json; charset=utf-8').send(text);
  };

  // Whatever goes wrong here is still a Hub88 answer (HTTP 200, signed): a body over the size limit cannot be read,
  // anything else is RS_ERROR_UNKNOWN (its transaction rolled back: nothing was written; Hub88 retries or rolls back).
  app.setErrorHandler((err, req, reply) => {
    // The app-wide rate limit answers as it does everywhere (429 REQUEST_LIMIT, the app's handler): a refusal before
    // the call is read, which Hub88 treats as a failed call (it retries or rolls back).
    if ((err as { statusCode?: number }).statusCode === 429) throw err;
    const tooLarge = (err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    if (!tooLarge) req.log.error({ err }, 'seamless wallet call failed');
    return send(reply, { status: tooLarge ? RS.WRONG_SYNTAX : RS.UNKNOWN });
  });

  const route = <T extends { user: string; request_uuid: string }>(path: string, check: (body: unknown) => Checked<T>, run: (r: T) => Promise<object>) =>
    app.post(`${prefix}${path}`, { schema: { response: { 200: walletAnswerSchema } } }, async (req: FastifyRequest, reply: FastifyReply) => {
      const raw = rawBody(req);
      const signature = req.headers['x-hub88-signature'];
      // Verified first, over the bytes as they came; nothing of a body that fails it is used (but its request_uuid, echoed).
      if (!aggregator.verify(raw, typeof signature === 'string' ? signature : undefined)) return send(reply, refusal(RS.INVALID_SIGNATURE, echoOf(raw)));
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return send(reply, refusal(RS.WRONG_SYNTAX, {}));
      }
      const checked = check(body);
      if (!checked.ok) return send(reply, refusal(checked.status, stringsOf(body)));
      try {
        return send(reply, await run(checked.value));
      } catch (err) {
        req.log.error({ err, path }, 'seamless wallet call failed');
        return send(reply, refusal(RS.UNKNOWN, { user: checked.value.user, request_uuid: checked.value.request_uuid }));
      }
    });

  route('/user/info', infoRequest, (r) => userInfo(deps, r));
  route('/user/balance', balanceRequest, (r) => userBalance(deps, r));
  route('/transaction/bet', betRequest, (r) => bet(deps, r));
  route('/transaction/win', winRequest, (r) => win(deps, r));
  route('/transaction/rollback', rollbackRequest, (r) => rollback(deps, r));
}

function refusal(status: RsStatus, known: { user?: string; request_uuid?: string }) {
  return { ...(known.user !== undefined ? { user: known.user } : {}), status, ...(known.request_uuid !== undefined ? { request_uuid: known.request_uuid } : {}) };
}

/** user and request_uuid of a parsed body when they are strings (echoed in a refusal). */
function stringsOf(body: unknown): { user?: string; request_uuid?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const b = body as Record<string, unknown>;
  return { ...(typeof b.user === 'string' ? { user: b.user } : {}), ...(typeof b.request_uuid === 'string' ? { request_uuid: b.request_uuid } : {}) };
}

/** The request_uuid of an unverified body, for Hub88 to match the refusal to its call; nothing else of it is read. */
function echoOf(raw: Buffer): { request_uuid?: string } {
  try {
    const { request_uuid } = stringsOf(JSON.parse(raw.toString('utf8')));
    return request_uuid !== undefined && request_uuid.length <= 255 ? { request_uuid } : {};
  } catch {
    return {};
  }
}
