import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { GAMES } from '../../db/seed';
import { keyFromPem, signBody, verifyBody } from '../../adapters/aggregator';
import { SIM_AGGREGATOR_PRIVATE, SIM_OPERATOR_PUBLIC } from '../../adapters/aggregator/sim-keys';
import { seamlessSettings } from '../../plugins/seamless/settings';
import { seamlessUserId } from '../../plugins/seamless/users';
import { UNITS_PER_SATANG } from '../../plugins/seamless/units';
import { depositTo, insertPlayer } from './ledger';

/**
 * Test support of the seamless Wallet API (issue 42): calls signed as the aggregator simulator signs them, a player
 * with a game session token, and the seamless game they play. Shared by the Wallet API's suites and the property
 * test (H5).
 */

/** Our game code of the test game, and Hub88's game_code for it (the one in Hub88's documented examples). */
export const SEAMLESS_GAME = 'hub88_dragon';
export const AGGREGATOR_GAME = 'clt_dragonrising';

const aggregatorKey = keyFromPem(SIM_AGGREGATOR_PRIVATE, 'private');
const operatorKey = keyFromPem(SIM_OPERATOR_PUBLIC, 'public');

/** Satang to Hub88 units. */
export const units = (satang: number) => satang * UNITS_PER_SATANG;

/** A seamless game of the aggregator (games.wallet_mode 'seamless'); made once per code. */
export async function ensureSeamlessGame(db: Kysely<DB>, opts: { code?: string; aggregatorGame?: string; active?: boolean } = {}): Promise<string> {
  const code = opts.code ?? SEAMLESS_GAME;
  await db
    .insertInto('games')
    .values({
      ...GAMES[0],
      code,
      name: `Seamless ${code}`,
      sort: 900,
      active: opts.active === false ? 0 : 1,
      wallet_mode: 'seamless',
      aggregator: 'hub88',
      aggregator_game_code: opts.aggregatorGame ?? AGGREGATOR_GAME,
    })
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  return code;
}

export interface SeamlessPlayer {
  id: number;
  /** Hub88's `user`. */
  user: string;
  /** The game session token (seamless_sessions). */
  token: string;
  /** The login session it was opened in (its age counts against the session limit). */
  sessionId: string;
  /** The player's Bearer header (for the player API). */
  headers: { authorization: string };
  currency: string;
}

/**
 * A player with `balance` satang in the wallet, logged in, and a game session token for the test game as the launch
 * writes it. `expiresInMs` (default 4 h) sets the token's life; the test game is made when missing.
 */
export async function seamlessPlayer(app: FastifyInstance, opts: { balance?: number; currency?: 'THB' | 'LAK'; expiresInMs?: number; game?: string } = {}): Promise<SeamlessPlayer> {
  const db = app.db;
  const game = opts.game ?? (await ensureSeamlessGame(db));
  const currency = opts.currency ?? 'THB';
  const id = await insertPlayer(db, { currency });
  if (opts.balance) await depositTo(db, id, opts.balance);
  const bearer = await app.tokens.issue(id);
  const { jti } = JSON.parse(Buffer.from(bearer.split('.')[1], 'base64url').toString()) as { jti: string };
  const token = crypto.randomBytes(32).toString('hex');
  const now = app.clock.now();
  await db
    .insertInto('seamless_sessions')
    .values({
      token,
      player_id: id,
      game_code: game,
      aggregator: 'hub88',
      currency,
      session_id: jti,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + (opts.expiresInMs ?? 4 * 3600_000)).toISOString(),
    })
    .execute();
  return { id, user: seamlessUserId(id), token, sessionId: jti, headers: { authorization: `Bearer ${bearer}` }, currency };
}

export interface SignedAnswer {
  /** The HTTP status (always 200 from the Wallet API). */
  statusCode: number;
  body: Record<string, unknown>;
  /** The answer's bytes as sent. */
  raw: string;
  /** Whether X-Hub88-Signature is our (the operator's) signature of exactly those bytes. */
  signatureOk: boolean;
}

/**
 * POSTs `body` to the Wallet API path (`/transaction/bet`...; under SEAMLESS_PREFIX), signed with the aggregator
 * simulator's key. A string body is sent as it is (Hub88's example text, a malformed body); `signature` replaces the
 * signature (null: none).
 */
export async function signedCall(app: FastifyInstance, path: string, body: unknown, opts: { signature?: string | null; contentType?: string } = {}): Promise<SignedAnswer> {
  const { prefix } = seamlessSettings(process.env);
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const signature = opts.signature === undefined ? signBody(text, aggregatorKey) : opts.signature;
  const res = await app.inject({
    method: 'POST',
    url: path.startsWith(prefix) ? path : `${prefix}${path}`,
    headers: { 'content-type': opts.contentType ?? 'application/json', ...(signature === null ? {} : { 'x-hub88-signature': signature }) },
    payload: text,
  });
  const sig = res.headers['x-hub88-signature'];
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    // not JSON: the test sees an empty body and the raw text
  }
  return { statusCode: res.statusCode, body: parsed, raw: res.body, signatureOk: verifyBody(res.body, typeof sig === 'string' ? sig : undefined, operatorKey) };
}

const uuid = () => crypto.randomUUID();

/** A bet of `satang` in a new round (or `round`), with Hub88's fields; `extra` overrides any. */
export function betBody(p: SeamlessPlayer, satang: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const transaction_uuid = uuid();
  return {
    user: p.user,
    transaction_uuid,
    supplier_transaction_id: `sup-${transaction_uuid}`,
    token: p.token,
    supplier_user: `sim_${p.user}`,
    round_closed: false,
    round: `r-${uuid()}`,
    reward_uuid: null,
    request_uuid: uuid(),
    is_free: false,
    is_aggregated: false,
    game_code: AGGREGATOR_GAME,
    currency: p.currency,
    bet: 'spin',
    amount: units(satang),
    meta: null,
    ...extra,
  };
}

/** The win of `satang` closing the round of `bet` (round_closed true unless `extra` says otherwise). */
export function winBody(p: SeamlessPlayer, bet: Record<string, unknown>, satang: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const transaction_uuid = uuid();
  return {
    ...bet,
    user: p.user,
    transaction_uuid,
    supplier_transaction_id: `sup-${transaction_uuid}`,
    request_uuid: uuid(),
    reference_transaction_uuid: bet.transaction_uuid,
    round_closed: true,
    amount: units(satang),
    ...extra,
  };
}

/** The rollback of `bet` (of any transaction: its transaction_uuid is the reference). */
export function rollbackBody(p: SeamlessPlayer, bet: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const transaction_uuid = uuid();
  return {
    user: p.user,
    transaction_uuid,
    supplier_transaction_id: `sup-${transaction_uuid}`,
    token: p.token,
    round_closed: true,
    round: bet.round,
    request_uuid: uuid(),
    reference_transaction_uuid: bet.transaction_uuid,
    game_code: bet.game_code ?? AGGREGATOR_GAME,
    meta: null,
    ...extra,
  };
}

/** /user/balance of the player. */
export function balanceBody(p: SeamlessPlayer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { user: p.user, token: p.token, request_uuid: uuid(), game_code: AGGREGATOR_GAME, ...extra };
}
