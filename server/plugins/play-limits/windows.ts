import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema';
import type { PlayLimitKind, PlayLimitsTable, PlayRestrictionsTable, RestrictionKind, RestrictionPeriod } from '../../db/schema-play';
import { prepared } from '../../db/prepared';

/**
 * Rolling windows and usage sums of responsible play (docs/responsible-play.md). A window ends at the instant of the
 * check and has no upper bound in the queries: a row written a moment after `now` was read (a parallel deposit that
 * committed while this request waited for the player's lock) still counts.
 */

const HOUR = 3600_000;
export type Window = 'day' | 'week' | 'month';
export const WINDOW_MS: Record<Window, number> = { day: 24 * HOUR, week: 7 * 24 * HOUR, month: 30 * 24 * HOUR };
export const WINDOWS: readonly Window[] = ['day', 'week', 'month'];

/** The start of a window ending at now, as the ISO text timestamps are compared with. */
export const windowStart = (now: Date, w: Window) => new Date(now.getTime() - WINDOW_MS[w]).toISOString();

/**
 * Deposits in satang since `since` (ISO): the player's statement lines of type deposit with status SUCCESS, plus the
 * gift links still being redeemed (reserved: gift_redemptions IN_PROGRESS with an amount, not held).
 */
// The usage sums and the limits read run in play routes (a transfer into a game reads them): compiled once.
const creditedSince = prepared((db, a: { player_id: number; since: string }) =>
  db
    .selectFrom('statements')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('s'))
    .where('player_id', '=', a.player_id)
    .where('statement_type', '=', 'deposit')
    .where('status', '=', 'SUCCESS')
    .where('created_at', '>=', a.since),
);
const reservedSince = prepared((db, a: { player_id: number; since: string }) =>
  db
    .selectFrom('gift_redemptions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('s'))
    .where('player_id', '=', a.player_id)
    .where('status', '=', 'IN_PROGRESS')
    .where('amount', '>', 0)
    // A gift held beyond a limit is not a deposit until staff credit it, like a held QR or slip.
    .where((eb) => eb.or([eb('reason', 'is', null), eb('reason', '!=', 'DEPOSIT_LIMIT')]))
    .where('created_at', '>=', a.since),
);
const resultSince = prepared((db, a: { player_id: number; since: string }) =>
  db
    .selectFrom('bet_rounds')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('win'), eb.lit(0)).as('win'), eb.fn.coalesce(eb.fn.sum<number>('bet'), eb.lit(0)).as('bet')])
    .where('player_id', '=', a.player_id)
    .where('played_at', '>=', a.since),
);
/*
 * The player's limit rows and the restrictions running at `now`, in ONE statement (issue 43: they were two, play_limits
 * then play_restrictions, a round trip each on PostgreSQL, on every play route and every wallet -> game transfer).
 * Each row says which table it comes from (`src`); the other table's columns are null. Both tables are read by their
 * player's key (play_limits_pk, play_restrictions_player).
 */
const limitsAndRestrictionsOf = prepared((db, a: { player_id: number; now: string }) =>
  db
    .selectFrom('play_limits')
    .select([
      sql<'limit' | 'restriction'>`'limit'`.as('src'),
      'kind',
      'value',
      'pending_set',
      'pending_value',
      'pending_at',
      sql<number | null>`null`.as('r_id'),
      sql<RestrictionPeriod | null>`null`.as('period'),
      sql<string | null>`null`.as('starts_at'),
      sql<string | null>`null`.as('ends_at'),
      sql<string | null>`null`.as('created_at'),
    ])
    .where('player_id', '=', a.player_id)
    .unionAll(
      db
        .selectFrom('play_restrictions')
        .select([
          sql<'limit' | 'restriction'>`'restriction'`.as('src'),
          sql<PlayLimitKind>`kind`.as('kind'),
          sql<number | null>`null`.as('value'),
          sql<number>`null`.as('pending_set'),
          sql<number | null>`null`.as('pending_value'),
          sql<string | null>`null`.as('pending_at'),
          sql<number | null>`id`.as('r_id'),
          sql<RestrictionPeriod | null>`period`.as('period'),
          sql<string | null>`starts_at`.as('starts_at'),
          sql<string | null>`ends_at`.as('ends_at'),
          sql<string | null>`created_at`.as('created_at'),
        ])
        .where('player_id', '=', a.player_id)
        .where('ends_at', '>', a.now),
    ),
);

export async function depositUsage(db: Kysely<DB>, playerId: number, since: string): Promise<number> {
  const credited = await creditedSince.first(db, { player_id: playerId, since });
  const reserved = await reservedSince.first(db, { player_id: playerId, since });
  return Number(credited?.s ?? 0) + Number(reserved?.s ?? 0);
}

/** sum(bet - win) of the player's rounds played since `since`, in satang; a net win counts as no loss (0). */
export async function lossUsage(db: Kysely<DB>, playerId: number, since: string): Promise<number> {
  return Math.max(0, -(await netResult(db, playerId, since)));
}

/** sum(win - bet) of the player's rounds played since `since`, in satang (negative: lost). */
export async function netResult(db: Kysely<DB>, playerId: number, since: string): Promise<number> {
  const r = await resultSince.first(db, { player_id: playerId, since });
  return Number(r?.win ?? 0) - Number(r?.bet ?? 0);
}

export interface ResolvedLimit {
  /** The value in force now: satang, minutes for 'session'; null = no limit. */
  value: number | null;
  /** A raise or removal still waiting for its time. */
  pending: { value: number | null; at: string } | null;
}

/** A row's effective value at `now`: a pending change whose time has come has taken over (written back on the next write). */
export function resolveLimit(row: Pick<PlayLimitsTable, 'value' | 'pending_set' | 'pending_value' | 'pending_at'> | undefined, now: Date): ResolvedLimit {
  if (!row) return { value: null, pending: null };
  const value = row.value === null ? null : Number(row.value);
  if (Number(row.pending_set) !== 1 || row.pending_at === null) return { value, pending: null };
  const pendingValue = row.pending_value === null ? null : Number(row.pending_value);
  if (row.pending_at <= now.toISOString()) return { value: pendingValue, pending: null };
  return { value, pending: { value: pendingValue, at: row.pending_at } };
}

export const ALL_KINDS: readonly PlayLimitKind[] = ['deposit_day', 'deposit_week', 'deposit_month', 'loss_day', 'loss_week', 'loss_month', 'session'];

export type Restriction = Selectable<PlayRestrictionsTable>;

/**
 * Of the restrictions running at one instant, the one that counts: an exclusion over a time-out, else the one that
 * ends last (the later id when two end together).
 */
export function restrictionThatCounts(running: readonly Restriction[]): Restriction | undefined {
  const sorted = [...running].sort((x, y) => (x.ends_at === y.ends_at ? Number(y.id) - Number(x.id) : x.ends_at < y.ends_at ? 1 : -1));
  return sorted.find((r) => r.kind === 'EXCLUSION') ?? sorted[0];
}

export interface PlayState {
  limits: Record<PlayLimitKind, ResolvedLimit>;
  /** The restriction running at `now` (restrictionThatCounts), if any. */
  restriction: Restriction | undefined;
}

/**
 * The player's limits of these kinds, resolved at `now` (kinds never set, or not asked for: no limit), and the
 * restriction running at `now`: one statement (limitsAndRestrictionsOf), whatever the kinds asked.
 */
export async function loadPlayState(db: Kysely<DB>, playerId: number, now: Date, kinds: readonly PlayLimitKind[] = ALL_KINDS): Promise<PlayState> {
  const rows = await limitsAndRestrictionsOf.all(db, { player_id: playerId, now: now.toISOString() });
  const limitRows = rows.filter((r) => r.src === 'limit' && kinds.includes(r.kind));
  const limits = {} as Record<PlayLimitKind, ResolvedLimit>;
  for (const k of ALL_KINDS) limits[k] = resolveLimit(limitRows.find((r) => r.kind === k), now);
  const running = rows
    .filter((r) => r.src === 'restriction')
    .map((r): Restriction => ({
      id: Number(r.r_id),
      player_id: playerId,
      kind: r.kind as unknown as RestrictionKind,
      period: r.period!,
      starts_at: r.starts_at!,
      ends_at: r.ends_at!,
      created_at: r.created_at!,
    }));
  return { limits, restriction: restrictionThatCounts(running) };
}

/**
 * What loadLimits read of the restrictions along with the limits (same statement), by the object it answered, and
 * the instant it read them at: assertMayPlay, handed those limits for the same instant, takes the restriction from
 * here instead of reading play_restrictions again (a wallet -> game transfer: one statement for both).
 */
const restrictionsReadWith = new WeakMap<object, { at: number; restriction: Restriction | undefined }>();

/** The restriction read in the same statement as `limits` (loadLimits) at `now`; null when they were not read so. */
export function restrictionReadWith(limits: object, now: Date): { restriction: Restriction | undefined } | null {
  const r = restrictionsReadWith.get(limits);
  return r && r.at === now.getTime() ? { restriction: r.restriction } : null;
}

/**
 * The player's limits of these kinds, resolved at `now` (kinds never set, or not asked for: no limit). One statement,
 * which also reads the restriction running at `now` for assertMayPlay (restrictionReadWith).
 */
export async function loadLimits(db: Kysely<DB>, playerId: number, now: Date, kinds: readonly PlayLimitKind[] = ALL_KINDS): Promise<Record<PlayLimitKind, ResolvedLimit>> {
  const { limits, restriction } = await loadPlayState(db, playerId, now, kinds);
  restrictionsReadWith.set(limits, { at: now.getTime(), restriction });
  return limits;
}
