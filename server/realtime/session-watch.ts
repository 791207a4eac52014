import type { Kysely } from 'kysely';
import type { Namespace, Server, Socket } from 'socket.io';
import type { DB } from '../db/schema';
import { assertSessionOpen } from '../lib/session';

/**
 * Sockets follow their sessions (docs/chat.md "Sockets follow sessions"). A socket proves a session once, at its
 * handshake; what ends the session later must end the socket too, on every process:
 *
 * - at once, where the server itself ends a session (logout, password change, a player set inactive): every socket
 *   is in a room of its session and of its owner, and `io.of(ns).in(room).disconnectSockets(true)` reaches every
 *   process through the Redis adapter;
 * - within SOCKET_SESSION_CHECK_MS, whatever ended it (an operator CLI in another process disabling a staff member
 *   or resetting a second factor, an expiry, a row written by hand): each process re-reads the sessions of its own
 *   sockets in one statement per namespace per pass and drops the ones that are no longer open. A CLI needs no way
 *   to reach the servers, and a missed broadcast (Redis down for a moment) costs one pass, not a session.
 */

/** Rooms every socket is put in at its handshake (never joinable by a client: `join` takes only `{prefix}-...`). */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
export const playerRoom = (playerId: number) => `player:${playerId}`;
export const staffRoom = (staffId: number) => `staff:${staffId}`;

/** What the handshake stores in socket.data for the check. */
export interface SessionSocketData {
  /** The player's session (the token's jti), on the `/` namespace. */
  sessionId?: string;
  /** The staff member's session, on the `/staff` namespace. */
  staffSessionId?: string;
}

export interface SessionWatch {
  /** One pass over this process's sockets now; answers how many it dropped. */
  check(): Promise<number>;
  stop(): void;
}

// SQLite's bound-parameter limit is far above; this keeps one statement's text small whatever the socket count.
const CHUNK = 500;

async function openPlayerSessions(db: Kysely<DB>, ids: string[]): Promise<Set<string>> {
  const open = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('sessions')
      .innerJoin('players', 'players.id', 'sessions.player_id')
      .select(['sessions.id', 'sessions.revoked_at', 'sessions.expires_at', 'players.status'])
      .where('sessions.id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) {
      try {
        assertSessionOpen(r);
        open.add(r.id);
      } catch {
        // ended: left out
      }
    }
  }
  return open;
}

async function openStaffSessions(db: Kysely<DB>, ids: string[], nowIso: string): Promise<Set<string>> {
  const open = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('staff_sessions')
      .innerJoin('staff_users', 'staff_users.id', 'staff_sessions.staff_id')
      .select(['staff_sessions.id', 'staff_sessions.revoked_at', 'staff_sessions.expires_at', 'staff_users.status'])
      .where('staff_sessions.id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    // The same checks as staffTokens.verify.
    for (const r of rows) if (!r.revoked_at && r.expires_at > nowIso && r.status === 'active') open.add(r.id);
  }
  return open;
}

/** The local sockets of a namespace by the session each proved (sockets without one, guests, are not watched). */
function bySession(nsp: Namespace, key: keyof SessionSocketData): Map<string, Socket[]> {
  const map = new Map<string, Socket[]>();
  for (const socket of nsp.sockets.values()) {
    const id = (socket.data as SessionSocketData)[key];
    if (!id) continue;
    const list = map.get(id);
    if (list) list.push(socket);
    else map.set(id, [socket]);
  }
  return map;
}

export function startSessionWatch(opts: {
  db: Kysely<DB>;
  io: Server;
  intervalMs: number;
  /** The app clock (staff sessions expire by it, as staffTokens.verify reads them). */
  now: () => Date;
  onError: (err: unknown) => void;
}): SessionWatch {
  const { db, io } = opts;
  let running: Promise<number> | null = null;

  const pass = async (): Promise<number> => {
    let dropped = 0;
    const drop = (sockets: Socket[]) => {
      for (const s of sockets) {
        s.disconnect(true);
        dropped += 1;
      }
    };
    const players = bySession(io.of('/'), 'sessionId');
    if (players.size) {
      const open = await openPlayerSessions(db, [...players.keys()]);
      for (const [id, sockets] of players) if (!open.has(id)) drop(sockets);
    }
    const staff = bySession(io.of('/staff'), 'staffSessionId');
    if (staff.size) {
      const open = await openStaffSessions(db, [...staff.keys()], opts.now().toISOString());
      for (const [id, sockets] of staff) if (!open.has(id)) drop(sockets);
    }
    return dropped;
  };

  // One pass at a time: a slow database must not stack passes up.
  const check = () => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => {
    check().catch(opts.onError);
  }, opts.intervalMs);
  timer.unref();

  return {
    check,
    stop: () => clearInterval(timer),
  };
}
