import type { Limit, LimitKind, RestrictionKind } from '../../core/playLimits';
import { readAmount } from '../../lib/amountInput';
import type { Locale } from '../../lib/locale';

/** The periods the server takes (issue 15 contract), shortest first. */
export const RESTRICTION_PERIODS: Record<RestrictionKind, readonly string[]> = {
  TIMEOUT: ['24h', '7d', '30d'],
  EXCLUSION: ['6m', '1y', '5y'],
};

/** The reality-check intervals a player can choose, in minutes. */
export const REALITY_CHOICES = [30, 60] as const;

/** Money limits: baht, more than 0, at most 2 decimals, at most 10,000,000. */
export const MAX_MONEY_LIMIT = 10_000_000;
/** The session limit: whole minutes 5..1440. */
export const SESSION_MINUTES_MIN = 5;
export const SESSION_MINUTES_MAX = 1440;

/**
 * When a restriction of `period` taken at `from` ends: hours and days as such, months and years by the calendar in
 * UTC (the server's rule; a month from 31 January ends on the last day of February). The server's answer is the
 * authority; this is what the second confirmation names before anything is sent.
 */
export function restrictionEnd(period: string, from: number): Date {
  const match = /^(\d+)([hdmy])$/.exec(period);
  if (!match) return new Date(NaN);
  const count = Number(match[1]);
  const unit = match[2];
  if (unit === 'h') return new Date(from + count * 3_600_000);
  if (unit === 'd') return new Date(from + count * 86_400_000);
  const start = new Date(from);
  const months = unit === 'm' ? count : count * 12;
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(start.getUTCDate(), lastDay),
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
      start.getUTCMilliseconds(),
    ),
  );
}

export type ParsedLimit = { ok: true; value: number } | { ok: false; error: 'required' | 'money' | 'minutes' | 'ambiguous' };

/**
 * What the player typed into a limit's field, checked as the server will: money in baht read in the player's
 * language (lib/amountInput.ts; a Lao 1.500,50), minutes whole.
 */
export function parseLimitInput(kind: LimitKind, text: string, locale: Locale): ParsedLimit {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'required' };
  if (kind === 'sessionMinutes') {
    if (!/^\d+$/.test(trimmed)) return { ok: false, error: 'minutes' };
    const minutes = Number(trimmed);
    return minutes >= SESSION_MINUTES_MIN && minutes <= SESSION_MINUTES_MAX ? { ok: true, value: minutes } : { ok: false, error: 'minutes' };
  }
  const reading = readAmount(trimmed, locale);
  if (reading.kind === 'refused' && reading.reason === 'ambiguous') return { ok: false, error: 'ambiguous' };
  if (reading.kind !== 'amount') return { ok: false, error: 'money' };
  return reading.satang > 0 && reading.satang <= MAX_MONEY_LIMIT * 100 ? { ok: true, value: reading.satang / 100 } : { ok: false, error: 'money' };
}

/**
 * What saving `next` (null = remove) does to a limit whose effective value is `limit.value`: a lower value or a
 * first limit applies at once; a higher value or a removal waits 24 hours; the same value cancels a pending change
 * (or changes nothing).
 */
export type LimitChange = 'now' | 'delayed' | 'cancelsPending' | 'unchanged';

export function limitChange(limit: Limit, next: number | null): LimitChange {
  const current = limit.value;
  if (next === current) return limit.pending ? 'cancelsPending' : 'unchanged';
  if (current === null) return 'now';
  if (next === null || next > current) return 'delayed';
  return 'now';
}

/**
 * The reality check (issue 15): due at startedAt + k x realityMinutes x minuteMs for k = 1, 2, ... A check is due
 * when more of them have passed than the player acknowledged in this session; acknowledging one acknowledges every
 * check passed so far (`count`), so a player back after a long pause sees one dialog, not several.
 *
 * Returns whether a check shows now, the count to acknowledge when it does, and when the next change happens
 * (`dueAt`: the check showing now, else the next one).
 */
export interface RealityInput {
  startedAt: number;
  realityMinutes: number;
  minuteMs: number;
  now: number;
  acknowledged: number;
}

export function realityCheckDue({ startedAt, realityMinutes, minuteMs, now, acknowledged }: RealityInput): { due: boolean; count: number; dueAt: number } {
  const period = realityMinutes * minuteMs;
  if (!(period > 0) || !Number.isFinite(startedAt) || !Number.isFinite(now)) return { due: false, count: acknowledged, dueAt: Infinity };
  const passed = Math.max(0, Math.floor((now - startedAt) / period));
  if (passed > acknowledged) return { due: true, count: passed, dueAt: startedAt + passed * period };
  return { due: false, count: acknowledged, dueAt: startedAt + (Math.max(acknowledged, passed) + 1) * period };
}

/** Whole "minutes" of play since the session started (minuteMs long each: shortened in the e2e suite). */
export function minutesPlayed(startedAt: number, now: number, minuteMs: number): number {
  return minuteMs > 0 && now > startedAt ? Math.floor((now - startedAt) / minuteMs) : 0;
}
