import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db/schema';
import { nowIso } from '../db';
import { prepared } from '../db/prepared';
import { AppError, badRequest, conflict } from '../errors';

/** Canonical JSON (keys sorted) so that the same body always hashes the same. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * The key's statements, compiled once (db/prepared.ts): every transfer the SPA sends carries a key, so they run twice
 * per money movement. On PostgreSQL they run as named statements, parsed and planned once per connection.
 */
const claimKey = prepared((db, a: { player_id: number; idem_key: string; request_hash: string; now: string }) =>
  db
    .insertInto('idempotency_keys')
    .values({ player_id: a.player_id, idem_key: a.idem_key, request_hash: a.request_hash, state: 'processing', status_code: null, response_body: null, created_at: a.now, updated_at: a.now })
    .onConflict((oc) => oc.columns(['player_id', 'idem_key']).doNothing()),
);
const storeAnswer = prepared((db, a: { player_id: number; idem_key: string; status_code: number; response_body: string; now: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'done', status_code: a.status_code, response_body: a.response_body, updated_at: a.now })
    .where('player_id', '=', a.player_id)
    .where('idem_key', '=', a.idem_key),
);

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_SHAPE = /^[\x21-\x7e]{1,128}$/;

interface Answer {
  status: number;
  body: unknown;
}

/**
 * Runs a money-moving handler at most once per (player, Idempotency-Key):
 * - no header: the handler just runs (the header is accepted, not required);
 * - a new key: the handler runs; its answer, success or a 4xx AppError, is stored with a hash of method, path
 *   and body, and returned;
 * - the same key and the same request again: the first answer (status and body) is returned, nothing runs;
 * - the same key with another request, or while the first is still running: 409 KEY_INVALID.
 * An unexpected failure (5xx) or a rate limit (429) forgets the key, so a retry can run: neither is the request's
 * answer (the failure rolled its transaction back; the limit refused before any work), only its timing.
 */
export async function idempotent<T>(
  db: Kysely<DB>,
  req: FastifyRequest,
  reply: FastifyReply,
  run: () => Promise<{ status?: number; body: T }>,
  /** What stands for the body in the hash when the request has no parsed body (a multipart upload: its file's digest). */
  hashedBody: unknown = req.body,
): Promise<T> {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) {
    const r = await run();
    if (r.status) reply.status(r.status);
    return r.body;
  }
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY_SHAPE.test(key)) throw badRequest('KEY_INVALID');
  const hash = crypto.createHash('sha256').update(`${req.method} ${req.routeOptions.url ?? req.url} ${req.url}\n${canonical(hashedBody)}`).digest('hex');
  const playerId = req.playerId;
  const now = nowIso();
  const ins = await claimKey.run(db, { player_id: playerId, idem_key: key, request_hash: hash, now });
  if (Number(ins.numAffectedRows ?? 0) !== 1) {
    const prev = await db.selectFrom('idempotency_keys').selectAll().where('player_id', '=', playerId).where('idem_key', '=', key).executeTakeFirst();
    if (!prev || prev.request_hash !== hash || prev.state !== 'done') throw conflict('KEY_INVALID');
    const answer = JSON.parse(prev.response_body ?? 'null') as Answer;
    reply.header('idempotent-replayed', 'true');
    if (answer.status >= 400) throw new AppError(answer.status, (answer.body as { message: string }).message);
    reply.status(answer.status);
    return answer.body as T;
  }
  const store = (a: Answer) => storeAnswer.run(db, { player_id: playerId, idem_key: key, status_code: a.status, response_body: JSON.stringify(a), now: nowIso() });
  let result: { status?: number; body: T };
  try {
    result = await run();
  } catch (e) {
    if (e instanceof AppError && e.statusCode < 500 && e.statusCode !== 429) {
      await store({ status: e.statusCode, body: { message: e.code } });
    } else {
      await db.deleteFrom('idempotency_keys').where('player_id', '=', playerId).where('idem_key', '=', key).execute();
    }
    throw e;
  }
  const status = result.status ?? 200;
  await store({ status, body: result.body });
  reply.status(status);
  return result.body;
}
