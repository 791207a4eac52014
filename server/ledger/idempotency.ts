import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { nowIso, type RunTransaction } from '../db';
import { prepared } from '../db/prepared';
import { AppError, badRequest, conflict } from '../errors';
import { MovementRefused, preparedPart, type MovementPart } from './movement';

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
/** claimKey as the part of a movement: its RETURNING tells the movement whether the key was free. */
const claimKeyReturning = prepared((db, a: { player_id: number; idem_key: string; request_hash: string; now: string }) =>
  db
    .insertInto('idempotency_keys')
    .values({ player_id: a.player_id, idem_key: a.idem_key, request_hash: a.request_hash, state: 'processing', status_code: null, response_body: null, created_at: a.now, updated_at: a.now })
    .onConflict((oc) => oc.columns(['player_id', 'idem_key']).doNothing())
    .returning('player_id'),
);
const storeAnswer = prepared((db, a: { player_id: number; idem_key: string; status_code: number; response_body: string; now: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'done', status_code: a.status_code, response_body: a.response_body, updated_at: a.now })
    .where('player_id', '=', a.player_id)
    .where('idem_key', '=', a.idem_key),
);

/** A request that claimed nothing (refused before its first transaction, or that transaction refused): its answer, unless the key was taken meanwhile. */
const insertAnswer = prepared((db, a: { player_id: number; idem_key: string; request_hash: string; status_code: number; response_body: string; now: string }) =>
  db
    .insertInto('idempotency_keys')
    .values({ player_id: a.player_id, idem_key: a.idem_key, request_hash: a.request_hash, state: 'done', status_code: a.status_code, response_body: a.response_body, created_at: a.now, updated_at: a.now })
    .onConflict((oc) => oc.columns(['player_id', 'idem_key']).doNothing()),
);

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_SHAPE = /^[\x21-\x7e]{1,128}$/;

/** What a key keeps: the request's status and body (a refusal's body is its `{ message }`). */
export interface Answer {
  status: number;
  body: unknown;
}

/** The answer a refusal (a 4xx AppError) is kept and replayed as. */
export const refusalAnswer = (e: AppError): Answer => ({ status: e.statusCode, body: { message: e.code } });

/** Which failures are the request's answer (kept, replayed) rather than its timing (forgotten): see idempotent(). */
const isAnswer = (e: unknown): e is AppError => e instanceof AppError && e.statusCode < 500 && e.statusCode !== 429;

/**
 * What the key's checks read of a request (a route passes Fastify's request: the ledger knows no web framework). The
 * player is the authenticated one (app.authenticate sets playerId).
 */
export interface KeyedRequest {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  url: string;
  routeOptions: { url?: string };
  playerId: number;
  body?: unknown;
}

/** What a replayed or stored answer sets on the reply (Fastify's reply fits). */
export interface AnswerReply {
  header(name: string, value: string): unknown;
  status(code: number): unknown;
}

interface RequestKey {
  playerId: number;
  key: string;
  hash: string;
}

/** The request's key and the hash of what it asks, or undefined without the header; KEY_INVALID when malformed. */
function requestKey(req: KeyedRequest, hashedBody: unknown): RequestKey | undefined {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY_SHAPE.test(key)) throw badRequest('KEY_INVALID');
  const hash = crypto.createHash('sha256').update(`${req.method} ${req.routeOptions.url ?? req.url} ${req.url}\n${canonical(hashedBody)}`).digest('hex');
  return { playerId: req.playerId, key, hash };
}

/** The key is taken (claimKey changed no row): the first request's answer is replayed, or KEY_INVALID. */
async function replay<T>(db: Kysely<DB>, k: RequestKey, reply: AnswerReply): Promise<T> {
  const prev = await db.selectFrom('idempotency_keys').selectAll().where('player_id', '=', k.playerId).where('idem_key', '=', k.key).executeTakeFirst();
  if (!prev || prev.request_hash !== k.hash || prev.state !== 'done') throw conflict('KEY_INVALID');
  const answer = JSON.parse(prev.response_body ?? 'null') as Answer;
  reply.header('idempotent-replayed', 'true');
  if (answer.status >= 400) throw new AppError(answer.status, (answer.body as { message: string }).message);
  reply.status(answer.status);
  return answer.body as T;
}

const claim = async (db: Kysely<DB>, k: RequestKey) =>
  Number((await claimKey.run(db, { player_id: k.playerId, idem_key: k.key, request_hash: k.hash, now: nowIso() })).numAffectedRows ?? 0) === 1;
const store = (db: Kysely<DB>, k: RequestKey, a: Answer) => storeAnswer.run(db, { player_id: k.playerId, idem_key: k.key, status_code: a.status, response_body: JSON.stringify(a), now: nowIso() });
const forget = (db: Kysely<DB>, k: RequestKey) => db.deleteFrom('idempotency_keys').where('player_id', '=', k.playerId).where('idem_key', '=', k.key).execute();

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
  req: KeyedRequest,
  reply: AnswerReply,
  run: () => Promise<{ status?: number; body: T }>,
  /** What stands for the body in the hash when the request has no parsed body (a multipart upload: its file's digest). */
  hashedBody: unknown = req.body,
): Promise<T> {
  const k = requestKey(req, hashedBody);
  if (!k) {
    const r = await run();
    if (r.status) reply.status(r.status);
    return r.body;
  }
  if (!(await claim(db, k))) return replay<T>(db, k, reply);
  let result: { status?: number; body: T };
  try {
    result = await run();
  } catch (e) {
    if (isAnswer(e)) await store(db, k, refusalAnswer(e));
    else await forget(db, k);
    throw e;
  }
  const status = result.status ?? 200;
  await store(db, k, { status, body: result.body });
  reply.status(status);
  return result.body;
}

/** What idempotentIn hands its handler: the key's row written in the handler's own transactions. */
export interface KeyWrites {
  /**
   * The transaction that moves the request's money first: the key is claimed in it (when it is taken, the
   * transaction rolls back and the request answers as idempotent() does for a taken key). The key and the money
   * commit together or not at all. Once a claiming transaction committed, the next ones are plain.
   */
  claiming: RunTransaction;
  /** The request's last transaction: it also stores `answerOf(fn's result)` as the request's answer. */
  answering<R>(answerOf: (r: R) => Answer, fn: (trx: Transaction<DB>) => Promise<R>): Promise<R>;
  /**
   * The claim as parts of the request's first movement (moveMoney, issue 43: on PostgreSQL the key is one CTE of the
   * movement's one statement): refused MovementRefused(KEY_TAKEN) when the key is taken, and then idempotentIn
   * answers as for a taken key. None once claimed. Tell `claimed()` when that movement committed.
   */
  claimParts(): MovementPart[];
  claimed(): void;
  /** The answer as parts of the request's last movement (none when nothing was claimed); `answered(a)` once it committed. */
  answerParts(a: Answer): MovementPart[];
  answered(a: Answer): void;
}

/** The reason a movement holding a key's claim is refused when the key is taken. */
const KEY_TAKEN = 'KEY_TAKEN';

/** Thrown inside a claiming transaction whose key is taken: rolls it back, then idempotentIn replays or refuses. */
class KeyTaken extends Error {}

/**
 * idempotent(), for a handler that writes the key in its own transactions (the wallet's transfers and withdrawAll,
 * issue 13): the key is claimed in the transaction that moves the money (KeyWrites.claiming) and the answer stored in
 * the last one (KeyWrites.answering), not each in a commit of its own. A transfer was four commits one after the
 * other (the key, the transfer's opening and closing transactions, the answer): two now. Same answers as idempotent(), with one
 * difference that follows from the key committing with the money: a failure after that commit keeps the key
 * unanswered (a retry gets KEY_INVALID) instead of forgetting it, since a retry would move the money again.
 * A handler must move no money outside a claiming transaction; an answer its transactions did not store (a transfer
 * left pending, a refusal before any transaction) is stored after, as idempotent() does.
 */
export async function idempotentIn<T>(
  db: Kysely<DB>,
  req: KeyedRequest,
  reply: AnswerReply,
  run: (key: KeyWrites | undefined) => Promise<{ status?: number; body: T }>,
): Promise<T> {
  const k = requestKey(req, req.body);
  if (!k) {
    const r = await run(undefined);
    if (r.status) reply.status(r.status);
    return r.body;
  }
  let claimed = false;
  let stored: string | undefined;
  const key: KeyWrites = {
    claiming: async (fn) => {
      if (claimed) return db.transaction().execute(fn);
      const r = await db.transaction().execute(async (trx) => {
        if (!(await claim(trx, k))) throw new KeyTaken();
        return fn(trx);
      });
      claimed = true;
      return r;
    },
    answering: async (answerOf, fn) => {
      if (!claimed) return db.transaction().execute(fn);
      let text = '';
      const r = await db.transaction().execute(async (trx) => {
        const result = await fn(trx);
        const a = answerOf(result);
        text = JSON.stringify(a);
        await store(trx, k, a);
        return result;
      });
      stored = text;
      return r;
    },
    claimParts: () => (claimed ? [] : [preparedPart(claimKeyReturning, { player_id: k.playerId, idem_key: k.key, request_hash: k.hash, now: nowIso() }, KEY_TAKEN)]),
    claimed: () => {
      claimed = true;
    },
    answerParts: (a) => (claimed ? [preparedPart(storeAnswer, { player_id: k.playerId, idem_key: k.key, status_code: a.status, response_body: JSON.stringify(a), now: nowIso() })] : []),
    answered: (a) => {
      if (claimed) stored = JSON.stringify(a);
    },
  };
  /**
   * Keeps the answer, unless the handler's last transaction stored this very one. False when the request claimed
   * nothing and the key is taken: another request's (then KEY_INVALID), or this same request's sent again.
   */
  const keep = async (a: Answer): Promise<boolean> => {
    if (stored === JSON.stringify(a)) return true;
    if (claimed) {
      await store(db, k, a);
      return true;
    }
    const ins = await insertAnswer.run(db, { player_id: k.playerId, idem_key: k.key, request_hash: k.hash, status_code: a.status, response_body: JSON.stringify(a), now: nowIso() });
    return Number(ins.numAffectedRows ?? 0) === 1;
  };
  let result: { status?: number; body: T };
  try {
    result = await run(key);
  } catch (e) {
    if (e instanceof KeyTaken || (e instanceof MovementRefused && e.reason === KEY_TAKEN)) return replay<T>(db, k, reply);
    // Anything else: unclaimed, the key has no row of this request's to forget; claimed, it stays unanswered.
    if (isAnswer(e) && !(await keep(refusalAnswer(e)))) return replay<T>(db, k, reply);
    throw e;
  }
  const status = result.status ?? 200;
  if (!(await keep({ status, body: result.body }))) return replay<T>(db, k, reply);
  reply.status(status);
  return result.body;
}
