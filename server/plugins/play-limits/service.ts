import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { PlayAuditAction, PlayLimitKind, RestrictionKind, RestrictionPeriod } from '../../db/schema-play';
import { conflict, unprocessable } from '../../errors';
import { parseWireBaht, toBaht } from '../../ledger/money';
import { lockPlayer } from '../../ledger';
import { activeRestriction } from './enforce';
import { depositUsage, loadPlayState, lossUsage, netResult, resolveLimit, windowStart, type ResolvedLimit } from './windows';
import { USAGE_KINDS, WIRE_KINDS } from './schemas';

/**
 * The player's side of responsible play (docs/responsible-play.md): limits with their 24-hour wait for raising or
 * removing, the reality-check interval, time-outs and self-exclusions, and the audit trail of all of them. Every
 * change runs in one transaction under lockPlayer with its audit row; nothing here lifts a restriction.
 */

export type WireKind = (typeof WIRE_KINDS)[number];
const KIND_OF: Record<WireKind, PlayLimitKind> = {
  depositDay: 'deposit_day',
  depositWeek: 'deposit_week',
  depositMonth: 'deposit_month',
  lossDay: 'loss_day',
  lossWeek: 'loss_week',
  lossMonth: 'loss_month',
  sessionMinutes: 'session',
};

/** A raise or removal waits this long (the issue: "only after 24 hours"). */
export const LIMIT_COOLING_MS = 24 * 3600_000;
/** 10,000,000 baht in satang: the largest money limit. */
export const MAX_MONEY_LIMIT = 1_000_000_000;
export const SESSION_MINUTES = { min: 5, max: 1440 } as const;
export const HISTORY_PAGE_SIZE = 10;

export const PERIODS: Record<RestrictionKind, readonly RestrictionPeriod[]> = { TIMEOUT: ['24h', '7d', '30d'], EXCLUSION: ['6m', '1y', '5y'] };

const invalid = () => unprocessable('LIMIT_INVALID');
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A limit value as stored (satang, minutes) to its wire form (baht, minutes). */
const toWire = (kind: PlayLimitKind, v: number | null) => (v === null ? null : kind === 'session' ? v : toBaht(v));
const wireLimit = (kind: PlayLimitKind, l: ResolvedLimit) => ({
  value: toWire(kind, l.value),
  pending: l.pending ? { value: toWire(kind, l.pending.value), effectiveAt: l.pending.at } : null,
});

/** Adds calendar months in UTC; a day the target month lacks becomes its last day (31 Aug + 6 months = 28/29 Feb). */
export function addMonthsUtc(d: Date, months: number): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
}

/** When a restriction taken at `now` ends. */
export function restrictionEnd(period: RestrictionPeriod, now: Date): Date {
  const h = 3600_000;
  switch (period) {
    case '24h':
      return new Date(now.getTime() + 24 * h);
    case '7d':
      return new Date(now.getTime() + 7 * 24 * h);
    case '30d':
      return new Date(now.getTime() + 30 * 24 * h);
    case '6m':
      return addMonthsUtc(now, 6);
    case '1y':
      return addMonthsUtc(now, 12);
    case '5y':
      return addMonthsUtc(now, 60);
  }
}

export interface StateContext {
  db: Kysely<DB>;
  playerId: number;
  sessionId: string;
  now: Date;
  minuteMs: number;
}

/** The GET /api/limits answer. */
export async function limitsState(c: StateContext) {
  const { db, playerId, now } = c;
  // The limits and the running restriction in one statement (issue 43).
  const { limits: resolved, restriction: r } = await loadPlayState(db, playerId, now);
  const limits = Object.fromEntries(WIRE_KINDS.map((k) => [k, wireLimit(KIND_OF[k], resolved[KIND_OF[k]])])) as Record<WireKind, ReturnType<typeof wireLimit>>;
  const usage = {} as Record<(typeof USAGE_KINDS)[number], number>;
  for (const k of USAGE_KINDS) {
    const kind = KIND_OF[k];
    const since = windowStart(now, kind.endsWith('_day') ? 'day' : kind.endsWith('_week') ? 'week' : 'month');
    usage[k] = toBaht(kind.startsWith('deposit') ? await depositUsage(db, playerId, since) : await lossUsage(db, playerId, since));
  }
  const settings = await db.selectFrom('play_settings').select('reality_minutes').where('player_id', '=', playerId).executeTakeFirst();
  const session = c.sessionId ? await db.selectFrom('sessions').select('created_at').where('id', '=', c.sessionId).executeTakeFirst() : undefined;
  const startedAt = session?.created_at ?? now.toISOString();
  return {
    limits,
    usage,
    realityMinutes: settings ? Number(settings.reality_minutes) : 60,
    restriction: r ? { kind: r.kind, period: r.period, startsAt: r.starts_at, endsAt: r.ends_at } : null,
    session: { startedAt, now: now.toISOString(), minuteMs: c.minuteMs, netResult: toBaht(await netResult(db, playerId, startedAt)) },
  };
}

async function audit(trx: Transaction<DB>, playerId: number, action: PlayAuditAction, detail: Record<string, unknown>, now: Date) {
  await trx.insertInto('play_audit').values({ player_id: playerId, action, detail: JSON.stringify(detail), created_at: now.toISOString() }).execute();
}

/** Reads and checks a PUT /api/limits body: the db kind and the value in satang or minutes (null: no limit). */
export function parseLimitBody(body: unknown): { wire: WireKind; kind: PlayLimitKind; value: number | null } {
  if (!isObject(body) || typeof body.kind !== 'string' || !(WIRE_KINDS as readonly string[]).includes(body.kind) || !('value' in body)) throw invalid();
  const wire = body.kind as WireKind;
  const kind = KIND_OF[wire];
  if (body.value === null) return { wire, kind, value: null };
  if (kind === 'session') {
    const v = body.value;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < SESSION_MINUTES.min || v > SESSION_MINUTES.max) throw invalid();
    return { wire, kind, value: v };
  }
  const satang = parseWireBaht(body.value);
  if (satang === null || satang <= 0 || satang > MAX_MONEY_LIMIT) throw invalid();
  return { wire, kind, value: satang };
}

/**
 * Sets one limit. Lower than the effective value, or a limit where there was none: in force at once, and a pending
 * change of that kind is dropped. Higher, or removal: pending for 24 h. The effective value itself: a pending change
 * is cancelled. A pending change whose time has come is written back as the value first.
 */
export async function setLimit(db: Kysely<DB>, playerId: number, body: unknown, now: Date): Promise<void> {
  const { wire, kind, value } = parseLimitBody(body);
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    const row = await trx.selectFrom('play_limits').selectAll().where('player_id', '=', playerId).where('kind', '=', kind).executeTakeFirst();
    const current = resolveLimit(row, now);
    const eff = current.value;
    let next: { value: number | null; pending_set: number; pending_value: number | null; pending_at: string | null };
    if (value === eff) {
      if (!current.pending) return; // nothing changes, nothing to record
      next = { value: eff, pending_set: 0, pending_value: null, pending_at: null };
      await audit(trx, playerId, 'LIMIT_PENDING_CANCELLED', { kind: wire, value: toWire(kind, current.pending.value), previous: toWire(kind, eff), effectiveAt: current.pending.at }, now);
    } else if (value !== null && (eff === null || value < eff)) {
      next = { value, pending_set: 0, pending_value: null, pending_at: null };
      await audit(trx, playerId, 'LIMIT_SET', { kind: wire, value: toWire(kind, value), previous: toWire(kind, eff) }, now);
    } else {
      const effectiveAt = new Date(now.getTime() + LIMIT_COOLING_MS).toISOString();
      next = { value: eff, pending_set: 1, pending_value: value, pending_at: effectiveAt };
      await audit(trx, playerId, value === null ? 'LIMIT_REMOVAL_SCHEDULED' : 'LIMIT_RAISE_SCHEDULED', { kind: wire, value: toWire(kind, value), previous: toWire(kind, eff), effectiveAt }, now);
    }
    if (row) {
      await trx.updateTable('play_limits').set({ ...next, updated_at: at }).where('player_id', '=', playerId).where('kind', '=', kind).execute();
    } else {
      await trx.insertInto('play_limits').values({ player_id: playerId, kind, ...next, updated_at: at }).execute();
    }
  });
}

/** PUT /api/limits/reality: 30 or 60 minutes; a change is audited. */
export async function setReality(db: Kysely<DB>, playerId: number, body: unknown, now: Date): Promise<void> {
  const minutes = isObject(body) ? body.minutes : undefined;
  if (minutes !== 30 && minutes !== 60) throw invalid();
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    const row = await trx.selectFrom('play_settings').select('reality_minutes').where('player_id', '=', playerId).executeTakeFirst();
    const previous = row ? Number(row.reality_minutes) : 60;
    if (row) await trx.updateTable('play_settings').set({ reality_minutes: minutes, updated_at: at }).where('player_id', '=', playerId).execute();
    else await trx.insertInto('play_settings').values({ player_id: playerId, reality_minutes: minutes, updated_at: at }).execute();
    if (previous !== minutes) await audit(trx, playerId, 'REALITY_INTERVAL', { minutes, previous }, now);
  });
}

/**
 * POST /api/limits/restriction: a time-out or self-exclusion from now, confirmed (`confirm: true`). While one runs,
 * a new one is taken only if it ends later (409 RESTRICTION_ACTIVE otherwise); none is ever shortened or lifted.
 */
export async function takeRestriction(db: Kysely<DB>, playerId: number, body: unknown, now: Date): Promise<void> {
  if (!isObject(body) || body.confirm !== true) throw invalid();
  const kind = body.kind;
  if (kind !== 'TIMEOUT' && kind !== 'EXCLUSION') throw invalid();
  const period = body.period;
  if (typeof period !== 'string' || !(PERIODS[kind] as readonly string[]).includes(period)) throw invalid();
  const p = period as RestrictionPeriod;
  const startsAt = now.toISOString();
  const endsAt = restrictionEnd(p, now).toISOString();
  await db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    const running = await activeRestriction(trx, playerId, now);
    if (running && running.ends_at >= endsAt) throw conflict('RESTRICTION_ACTIVE');
    await trx.insertInto('play_restrictions').values({ player_id: playerId, kind, period: p, starts_at: startsAt, ends_at: endsAt, created_at: startsAt }).execute();
    await audit(trx, playerId, kind, { period: p, endsAt }, now);
  });
}

/** GET /api/limits/history: the audit trail, 10 a page, newest first. */
export async function history(db: Kysely<DB>, playerId: number, page: number) {
  const total = await db
    .selectFrom('play_audit')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('player_id', '=', playerId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('play_audit')
    .selectAll()
    .where('player_id', '=', playerId)
    .orderBy('id', 'desc')
    .limit(HISTORY_PAGE_SIZE)
    .offset((page - 1) * HISTORY_PAGE_SIZE)
    .execute();
  return {
    items: rows.map((r) => ({ id: Number(r.id), action: r.action, detail: JSON.parse(r.detail) as Record<string, unknown>, createdAt: r.created_at })),
    page,
    totalPages: Math.ceil(Number(total.n) / HISTORY_PAGE_SIZE),
  };
}
