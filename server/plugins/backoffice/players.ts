import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import type { StaffRole } from '../../db/schema-staff';
import { gameBalances, toBaht, walletBalance, lockPlayer } from '../../ledger';
import { errors } from '../../lib/wire-schemas';
import { checkPhone, INVALID_USER_INFO } from '../accounts';
import { recordStaffAction } from '../staff';
import { listStatements, statementItem, statementLine } from '../statement';
import { listGameAccounts } from '../wallet';

/** How many statement lines the lookup shows: the newest, as POST /api/statement pages them. */
export const LOOKUP_MOVEMENTS = 20;

export const PLAYER_STATUSES = ['active', 'inactive', 'gone'] as const;
export type PlayerStatus = (typeof PLAYER_STATUSES)[number];
/** What staff may set: `gone` is the player's own leaving and is never set or undone here. */
const SETTABLE = ['active', 'inactive'] as const;
type Settable = (typeof SETTABLE)[number];

/** Every back-office action's reason (docs/staff.md "Back office"): trimmed, 1..500 characters. */
export function reasonOf(value: unknown): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (v.length < 1 || [...v].length > 500) throw badRequest('REASON_REQUIRED');
  return v;
}

const player = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    phone: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', enum: [...PLAYER_STATUSES] },
    currency: { type: 'string' },
    wallet: { type: 'number' },
    games: {
      type: 'array',
      items: { type: 'object', properties: { code: { type: 'string' }, name: { type: 'string' }, balance: { type: 'number' } }, required: ['code', 'name', 'balance'] },
    },
    coin: { type: 'integer' },
    createdAt: { type: 'string' },
    bank: {
      type: 'object',
      properties: { code: { type: 'string' }, accountNo: { type: 'string' }, accountName: { type: 'string' } },
      required: ['code', 'accountNo', 'accountName'],
    },
  },
  required: ['id', 'phone', 'name', 'status', 'currency', 'wallet', 'games', 'coin', 'createdAt', 'bank'],
} as const;

const lookupReply = {
  type: 'object',
  properties: { player, movements: { type: 'array', items: statementItem } },
  required: ['player', 'movements'],
} as const;

const statusReply = {
  type: 'object',
  properties: { id: { type: 'integer' }, status: { type: 'string', enum: [...PLAYER_STATUSES] } },
  required: ['id', 'status'],
} as const;

/** The phone as a player logs in with it (trimmed), in the market's format; anything else is 400 INVALID_USER_INFO. */
function phoneOf(value: unknown, market: 'th' | 'lao'): string {
  try {
    return checkPhone(typeof value === 'string' ? value : undefined, market);
  } catch {
    throw badRequest(INVALID_USER_INFO);
  }
}

/** A path id: a positive whole number, or nobody (404 NO_DATA). */
function idOf(value: string): number {
  const id = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw notFound('NO_DATA');
  return id;
}

/** The player's game accounts with their balances as GET /api/wallet computes them (the ledger's game mirrors). */
async function gamesOf(db: Kysely<DB>, playerId: number) {
  const [accounts, balances] = await Promise.all([listGameAccounts(db, playerId), gameBalances(db, playerId)]);
  const codes = new Set([...accounts.map((a) => a.game_code), ...balances.keys()]);
  if (codes.size === 0) return [];
  // Every game the player holds an account at, active or not: staff must see money left at a game switched off.
  const games = await db.selectFrom('games').select(['code', 'name']).where('code', 'in', [...codes]).orderBy('sort').orderBy('code').execute();
  const names = new Map(games.map((g) => [g.code, g.name]));
  return [...codes]
    .sort((a, b) => [...names.keys()].indexOf(a) - [...names.keys()].indexOf(b))
    .map((code) => ({ code, name: names.get(code) ?? code, balance: toBaht(balances.get(code) ?? 0) }));
}

/** Roles that see a player's whole bank account number; the others see its last 4 digits (issue 39). */
const FULL_BANK_ROLES: ReadonlySet<StaffRole> = new Set<StaffRole>(['payments', 'admin']);

/** `******7890`: enough for support to confirm an account with the player, not enough to pay into it elsewhere. */
export function maskAccountNo(accountNo: string): string {
  return accountNo.length <= 4 ? '*'.repeat(accountNo.length) : `${'*'.repeat(accountNo.length - 4)}${accountNo.slice(-4)}`;
}

/** Who asked, for the lookup's audit row and what it may see. */
interface Asker { staffId: number; role: StaffRole; requestId: string }

/**
 * The lookup and its `player.lookup` audit row (subject the player, or `phone`/the phone when nobody has it, so
 * probing phones shows too). The row is written before the answer: no player data leaves without it.
 */
export async function lookupPlayer(db: Kysely<DB>, phone: string, asker: Asker, now: Date) {
  const p = await db
    .selectFrom('players')
    .select(['id', 'phone', 'name', 'status', 'currency', 'coin', 'created_at', 'bank_code', 'bank_account_no', 'bank_account_name'])
    .where('phone', '=', phone)
    .executeTakeFirst();
  const audit = { staffId: asker.staffId, action: 'player.lookup', requestId: asker.requestId };
  if (!p) {
    await recordStaffAction(db, { ...audit, subjectType: 'phone', subjectId: phone, detail: { found: false } }, now);
    throw notFound('NO_DATA');
  }
  const id = Number(p.id);
  await recordStaffAction(db, { ...audit, subjectType: 'player', subjectId: String(id) }, now);
  const [wallet, games, statements] = await Promise.all([walletBalance(db, id), gamesOf(db, id), listStatements(db, id, 1, LOOKUP_MOVEMENTS)]);
  return {
    player: {
      id,
      phone: p.phone,
      name: p.name,
      status: p.status as PlayerStatus,
      currency: p.currency,
      wallet: toBaht(wallet),
      games,
      coin: Number(p.coin),
      createdAt: p.created_at,
      bank: { code: p.bank_code, accountNo: FULL_BANK_ROLES.has(asker.role) ? p.bank_account_no : maskAccountNo(p.bank_account_no), accountName: p.bank_account_name },
    },
    movements: statements.rows.map(statementLine),
  };
}

/**
 * Whether the player's inactive status is support's own doing: the newest `player.status` row set them inactive and
 * was written by a support account. A lock by payments or an admin (a fraud or payment hold), or one with no row at
 * all (the operator's command, written by hand), is theirs to lift.
 */
async function setInactiveBySupport(db: Kysely<DB>, playerId: number): Promise<boolean> {
  const last = await db
    .selectFrom('staff_audit as a')
    .innerJoin('staff_users as s', 's.id', 'a.staff_id')
    .select(['a.detail', 's.role'])
    .where('a.action', '=', 'player.status')
    .where('a.subject_type', '=', 'player')
    .where('a.subject_id', '=', String(playerId))
    .orderBy('a.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last || last.role !== 'support' || last.detail === null) return false;
  return (JSON.parse(last.detail) as { to?: unknown }).to === 'inactive';
}

/**
 * Back office: players (docs/staff.md "Back office: players and the audit log"). Every staff role may look a
 * player up (audited; support sees the bank account's last 4 digits) and set them active or inactive (support only
 * lifts its own inactivation: 403 REACTIVATE_NOT_ALLOWED); the change and its audit row land in one transaction.
 */
export async function playersRoutes(app: FastifyInstance): Promise<void> {
  const anyRole = { onRequest: [app.authenticateStaff, app.staffRole('support', 'payments', 'admin')] };

  app.get<{ Querystring: { phone?: unknown } }>(
    '/api/staff/players',
    { ...anyRole, schema: { response: { 200: lookupReply, ...errors } } },
    async (req) => lookupPlayer(app.db, phoneOf(req.query?.phone, app.config.market), { staffId: req.staffId, role: req.staffRole, requestId: req.id }, app.clock.now()),
  );

  app.post<{ Params: { id: string }; Body: { status?: unknown; reason?: unknown } | null }>(
    '/api/staff/players/:id/status',
    { ...anyRole, schema: { response: { 200: statusReply, ...errors } } },
    async (req) => {
      const id = idOf(req.params.id);
      const body = req.body && typeof req.body === 'object' ? req.body : {};
      const to = body.status;
      if (typeof to !== 'string' || !(SETTABLE as readonly string[]).includes(to)) throw badRequest('INVALID_STATUS');
      const reason = reasonOf(body.reason);
      const now = app.clock.now();
      const changed = await app.db.transaction().execute(async (trx) => {
        await lockPlayer(trx, id);
        const row = await trx.selectFrom('players').select(['status']).where('id', '=', id).executeTakeFirst();
        if (!row) throw notFound('NO_DATA');
        const from = row.status as PlayerStatus;
        if (from === 'gone') throw conflict('PLAYER_GONE');
        // Already so: nothing to change, nothing written (no audit row for an action that did nothing).
        if (from === to) return false;
        if (to === 'active' && !FULL_BANK_ROLES.has(req.staffRole) && !(await setInactiveBySupport(trx, id))) throw new AppError(403, 'REACTIVATE_NOT_ALLOWED');
        // The row is locked (PostgreSQL) or the transaction holds SQLite's one connection: nothing changes it meanwhile.
        await trx.updateTable('players').set({ status: to as Settable, updated_at: now.toISOString() }).where('id', '=', id).execute();
        if (to === 'inactive') await app.tokens.revokeAll(id, trx);
        await recordStaffAction(trx, { staffId: req.staffId, action: 'player.status', subjectType: 'player', subjectId: String(id), reason, detail: { from, to }, requestId: req.id }, now);
        return true;
      });
      // Sessions are ended in the transaction; the open sockets (every process's, through the adapter) go now.
      // Every socket the player holds (chat and wallet pushes alike), not only those that joined the chat room.
      if (changed && to === 'inactive' && app.hasDecorator('realtime')) app.realtime.endPlayerSessions(id);
      return { id, status: to as Settable };
    },
  );
}
