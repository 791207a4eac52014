import type { Generated } from 'kysely';

/** Tables of responsible play (migration 202611260040_play_limits, docs/responsible-play.md). */

export type PlayLimitKind = 'deposit_day' | 'deposit_week' | 'deposit_month' | 'loss_day' | 'loss_week' | 'loss_month' | 'session';
export type RestrictionKind = 'TIMEOUT' | 'EXCLUSION';
export type RestrictionPeriod = '24h' | '7d' | '30d' | '6m' | '1y' | '5y';
export type PlayAuditAction =
  | 'LIMIT_SET'
  | 'LIMIT_RAISE_SCHEDULED'
  | 'LIMIT_REMOVAL_SCHEDULED'
  | 'LIMIT_PENDING_CANCELLED'
  | 'REALITY_INTERVAL'
  | 'TIMEOUT'
  | 'EXCLUSION';

/** One row per (player, kind) once the player set that limit; no row = no limit. */
export interface PlayLimitsTable {
  player_id: number;
  kind: PlayLimitKind;
  /** The effective value as last written: satang (minutes for 'session'); null = no limit. */
  value: number | null;
  /** 1: pending_value replaces value at pending_at (a raise or a removal waiting its 24 h). */
  pending_set: number;
  /** null with pending_set 1: the limit goes away at pending_at. */
  pending_value: number | null;
  pending_at: string | null;
  updated_at: string;
}

export interface PlaySettingsTable {
  player_id: number;
  /** 30 or 60. */
  reality_minutes: number;
  updated_at: string;
}

/** A time-out or a self-exclusion; never updated or deleted, it ends at ends_at. */
export interface PlayRestrictionsTable {
  id: Generated<number>;
  player_id: number;
  kind: RestrictionKind;
  period: RestrictionPeriod;
  starts_at: string;
  ends_at: string;
  created_at: string;
}

/** Append-only: every limit change, reality-interval change, time-out and exclusion. */
export interface PlayAuditTable {
  id: Generated<number>;
  player_id: number;
  action: PlayAuditAction;
  /** JSON object: kind, value, previous, effectiveAt, period, endsAt, minutes (as they apply). */
  detail: string;
  created_at: string;
}

export type DepositHoldSource = 'qr' | 'slip' | 'gift';

/** Money that arrived beyond a deposit limit: not credited, waiting for staff (issue 14 settles it). */
export interface DepositHoldsTable {
  /** 'hld_' + random hex. */
  id: string;
  player_id: number;
  source: DepositHoldSource;
  /** The qr, slip or gift id; unique, so a deposit is held once. */
  ref_id: string;
  /** Satang. */
  amount: number;
  currency: string;
  reason: 'DEPOSIT_LIMIT';
  status: 'HELD' | 'APPROVED' | 'REJECTED';
  created_at: string;
  updated_at: string;
}

export interface PlayTables {
  play_limits: PlayLimitsTable;
  play_settings: PlaySettingsTable;
  play_restrictions: PlayRestrictionsTable;
  play_audit: PlayAuditTable;
  deposit_holds: DepositHoldsTable;
}
