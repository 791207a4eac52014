import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { unauthorized } from '../errors';
import { assertSessionOpen } from '../lib/session';
import { nowIso } from '../db';
import { prepared } from '../db/prepared';
import { isPostgres } from '../db/portable';
import { byAsk, readBatchPerDatabase } from '../db/read-batch';
import { hs256 } from '../lib/hs256';

/** Compiled once (it runs on every authenticated request, issue 13). */
const sessionCheck = prepared((db, a: { jti: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('players', 'players.id', 'sessions.player_id')
    .select(['sessions.revoked_at', 'sessions.expires_at', 'players.status', 'players.id'])
    .where('sessions.id', '=', a.jti),
);

/**
 * The session checks of one turn of the event loop in one statement (db/read-batch.ts). On PostgreSQL each statement
 * is a round trip that wakes a server process, and most screens' calls are a statement or two besides this one; on
 * SQLite each is a read transaction with its lock calls. PostgreSQL `unnest`s the asked ids, SQLite reads them from
 * one JSON text with `json_each`.
 */
const sessionChecks = prepared((db, a: { jtis: string[] | string }) =>
  db
    .selectFrom(
      (isPostgres(db)
        ? sql<{ jti: string; n: number }>`(select * from unnest(${a.jtis}::text[]) with ordinality as t(jti, n))`
        : sql<{ jti: string; n: number }>`(select key + 1 as n, value as jti from json_each(${a.jtis}))`
      ).as('req'),
    )
    .innerJoin('sessions', 'sessions.id', 'req.jti')
    .innerJoin('players', 'players.id', 'sessions.player_id')
    .select(['sessions.revoked_at', 'sessions.expires_at', 'players.status', 'players.id', 'req.n']),
);
const batchedSessionCheck = readBatchPerDatabase(async (db: Kysely<DB>, jtis: string[]) =>
  byAsk(await sessionChecks.all(db, { jtis: isPostgres(db) ? jtis : JSON.stringify(jtis) }), jtis.length),
);

/** The session `jti` with its player, read now (never cached: a revoked session is refused on the very next request). */
const readSession = (db: Kysely<DB>, jti: string) => (db.isTransaction ? sessionCheck.first(db, { jti }) : batchedSessionCheck(db, jti));

export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's own statement reads the session (sessions.id = request.sessionId, of request.playerId) with
     * the player's status, and calls assertSessionOpen before it answers: app.authenticate then checks the token
     * only. One statement where there were two (issue 13; GET /api/wallet, the screen's most frequent call).
     */
    sessionInQuery?: boolean;
  }
  interface FastifyInstance {
    /** onRequest hook for routes that need a logged-in player, so an anonymous caller is refused before the body is read or validated; sets request.playerId and request.sessionId. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Each takes an optional transaction so a caller can change other rows and the sessions atomically. */
    tokens: {
      issue(playerId: number, trx?: Kysely<DB>): Promise<string>;
      revoke(sessionId: string, trx?: Kysely<DB>): Promise<void>;
      revokeAll(playerId: number, trx?: Kysely<DB>): Promise<void>;
    };
  }
  interface FastifyRequest {
    playerId: number;
    sessionId: string;
  }
}

/**
 * Bearer tokens: HS256 JWTs carrying the player id and a session id (jti). The session row is the
 * source of truth, so logout and password change revoke tokens before they expire.
 */
export default fp(
  async (app) => {
    // Signed and checked in place with node:crypto (server/lib/hs256.ts): WebCrypto's HMAC ran on the thread pool and
    // left every request waiting for it (issue 13).
    const jwt = hs256(app.config.jwtSecret);
    const db = app.db;

    app.decorate('tokens', {
      async issue(playerId: number, trx: Kysely<DB> = db) {
        const jti = crypto.randomUUID();
        const now = new Date();
        await trx
          .insertInto('sessions')
          .values({
            id: jti,
            player_id: playerId,
            created_at: nowIso(now),
            expires_at: nowIso(new Date(now.getTime() + TOKEN_TTL_SECONDS * 1000)),
            revoked_at: null,
          })
          .execute();
        const iat = Math.floor(now.getTime() / 1000);
        return jwt.sign({ sub: String(playerId), jti, iat, exp: iat + TOKEN_TTL_SECONDS });
      },
      async revoke(sessionId: string, trx: Kysely<DB> = db) {
        await trx.updateTable('sessions').set({ revoked_at: nowIso() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
      },
      async revokeAll(playerId: number, trx: Kysely<DB> = db) {
        await trx.updateTable('sessions').set({ revoked_at: nowIso() }).where('player_id', '=', playerId).where('revoked_at', 'is', null).execute();
      },
    });

    app.decorateRequest('playerId', 0);
    app.decorateRequest('sessionId', '');

    const authenticate = async (req: FastifyRequest) => {
      const header = req.headers.authorization;
      const m = header && /^Bearer\s+(\S+)$/i.exec(header);
      if (!m) throw unauthorized('UNAUTHORIZED');
      let sub: string | undefined;
      let jti: string | undefined;
      try {
        const claims = jwt.verify(m[1]);
        // A player's token names no audience; staff tokens (signed with another key, server/plugins/staff) do.
        if (claims.aud !== undefined) throw unauthorized('invalid-token');
        sub = claims.sub;
        jti = claims.jti;
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_JWT_EXPIRED') throw unauthorized('EXPIRED_AUTH_TOKEN');
        throw unauthorized('invalid-token');
      }
      if (!sub || !jti) throw unauthorized('invalid-token');
      if (req.routeOptions?.config?.sessionInQuery === true) {
        // Signed by us, so the claim is ours; the route's statement checks that the session is open.
        const id = Number(sub);
        if (!Number.isSafeInteger(id) || id <= 0) throw unauthorized('invalid-token');
        req.playerId = id;
        req.sessionId = jti;
        return;
      }
      // Read on every request, never cached: a revoked session is refused on the very next one.
      const row = await readSession(db, jti);
      if (!row || String(row.id) !== sub) throw unauthorized('invalid-token');
      assertSessionOpen(row);
      req.playerId = Number(row.id);
      req.sessionId = jti;
    };
    app.decorate('authenticate', authenticate);

    // The global rate limit (the security plugin, registered before this one) appends its onRequest hook to every
    // route after the route's own: move authentication behind it, so a flood of bad tokens is limited before each
    // one costs a signature check and a database read, and a limited caller gets 429 whatever its token.
    app.addHook('onRoute', (route) => {
      const hooks = ([] as unknown[]).concat(route.onRequest ?? []);
      if (!hooks.includes(authenticate)) return;
      route.onRequest = [...hooks.filter((h) => h !== authenticate), authenticate] as typeof route.onRequest;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
